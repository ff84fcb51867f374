package lsp

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/analyzer/config"
)

// This file is the document store: the text of every open document, kept
// in step with the editor's incremental edits (UTF-16 positions), and what
// an edit makes stale. Every analysis records what it read (its deps): an
// edit of one open file, a file changed on disk, saved, created, deleted
// or renamed, marks every document whose analysis read it as changed, so
// each open file is linted again and its diagnostics republished, and the
// views editor features read are made from the newest text of everything.

func (s *Server) didOpen(n notifier, p *protocol.DidOpenTextDocumentParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := &document{uri: p.TextDocument.URI, path: uriToPath(p.TextDocument.URI), linted: make(chan struct{}), wake: make(chan struct{}, 1)}
	if old := s.docs[d.uri]; old != nil {
		old.closed = true
		wakeLocked(old)
	}
	s.docs[d.uri] = d
	s.setTextLocked(d, p.TextDocument.Text, p.TextDocument.Version)
	s.scheduleLocked(d, n)
	// The buffer now hides the disk for every file that reads it.
	s.touchLocked(n, false, d.path)
	return nil
}

func (s *Server) didChange(n notifier, p *protocol.DidChangeTextDocumentParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		return fmt.Errorf("didChange for %s, which is not open", p.TextDocument.URI)
	}
	for _, ch := range p.ContentChanges {
		switch c := ch.(type) {
		case protocol.TextDocumentContentChangeEventWhole:
			s.setTextLocked(d, c.Text, p.TextDocument.Version)
		case protocol.TextDocumentContentChangeEvent:
			if c.Range == nil {
				s.setTextLocked(d, c.Text, p.TextDocument.Version)
				continue
			}
			if d.lines == nil {
				d.lines = newLineStarts(d.buf)
			}
			start := d.lines.offset(d.buf, c.Range.Start)
			end := d.lines.offset(d.buf, c.Range.End)
			if end < start {
				start, end = end, start
			}
			d.edit(start, end, c.Text)
			d.lines.replace(start, end, c.Text)
		}
	}
	d.version = p.TextDocument.Version
	d.gen++
	s.scheduleLocked(d, n)
	s.touchLocked(n, false, d.path)
	return nil
}

// setTextLocked records a new text of d.
func (s *Server) setTextLocked(d *document, text string, version protocol.Integer) {
	d.buf, d.frozen, d.version, d.lines = []byte(text), false, version, nil
	d.gen++
}

// edit replaces buf[start:end] with repl: in place while no analysis
// holds the text, else in a copy (with room to grow, so the edits that
// follow are in place again).
func (d *document) edit(start, end int, repl string) {
	n := len(d.buf) - (end - start) + len(repl)
	if d.frozen || n > cap(d.buf) {
		nb := make([]byte, n, n+n/8+64)
		copy(nb, d.buf[:start])
		copy(nb[start:], repl)
		copy(nb[start+len(repl):], d.buf[end:])
		d.buf, d.frozen = nb, false
		return
	}
	tail := len(d.buf) - end
	if n > len(d.buf) {
		d.buf = d.buf[:n]
	}
	copy(d.buf[start+len(repl):], d.buf[end:end+tail]) // copy is a memmove
	copy(d.buf[start:], repl)
	d.buf = d.buf[:n]
}

// textLocked returns the text, frozen: the caller may keep it (the next
// edit copies the buffer first).
func (d *document) textLocked() string {
	d.frozen = true
	return unsafe.String(unsafe.SliceData(d.buf), len(d.buf))
}

// srcLocked returns the text as bytes laid over the disk for the loader
// (which reads without writing, see parser.FileSystem), frozen; nil when
// the document is too large to analyse.
func (d *document) srcLocked() []byte {
	if d.tooLarge() {
		return nil
	}
	d.frozen = true
	if d.buf == nil {
		return []byte{}
	}
	return d.buf
}

// tooLarge reports whether the document is over MaxDocumentSize: it is
// kept, and edited, but not analysed.
func (d *document) tooLarge() bool { return len(d.buf) > MaxDocumentSize }

func (s *Server) didClose(n notifier, p *protocol.DidCloseTextDocumentParams) error {
	s.mu.Lock()
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		s.mu.Unlock()
		return nil
	}
	delete(s.docs, d.uri)
	d.closed = true
	wakeLocked(d)
	// The files that read this one now read the disk.
	s.touchLocked(n, false, d.path)
	s.mu.Unlock()
	if n != nil {
		n(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: d.uri, Diagnostics: []protocol.Diagnostic{}})
	}
	return nil
}

// didSave lints the saved document again, reading again from the disk
// what it includes (a tool may have written them), and the documents
// that read it.
func (s *Server) didSave(n notifier, p *protocol.DidSaveTextDocumentParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		return nil
	}
	if p.Text != nil && *p.Text != string(d.buf) {
		s.setTextLocked(d, *p.Text, d.version)
	} else {
		d.gen++
	}
	s.scheduleLocked(d, n)
	paths := []string{d.path}
	if v := d.view; v != nil {
		for path := range v.deps {
			paths = append(paths, path)
		}
	}
	s.touchLocked(n, false, paths...)
	return nil
}

// touchLocked marks as changed every open document whose analysis read
// one of paths, or one not analysed yet, and schedules its lint. created
// says the paths may be new or gone: an include pattern that matches one
// counts too. A settings file touches every document.
func (s *Server) touchLocked(n notifier, created bool, paths ...string) {
	if len(paths) == 0 {
		return
	}
	settings := false
	for _, p := range paths {
		if slices.Contains(config.Names, filepath.Base(p)) {
			settings = true
		}
	}
	s.buffers = nil
	clean := make([]string, len(paths))
	for i, p := range paths {
		clean[i] = filepath.Clean(p)
	}
	for _, d := range s.docs {
		if d.closed {
			continue
		}
		if d.view == nil && !settings && (d.dirty || d.inLint) {
			// Not analysed yet, so what it reads is not known: a lint
			// still to start reads the newest text anyway, and one under
			// way is checked when it ends (touched). Rescheduling each
			// such document at each open made opening n documents take
			// n² lints.
			if d.inLint {
				d.touched = append(d.touched, touch{clean, created})
			}
			continue
		}
		if settings || d.view == nil || d.view.reads(clean, created) {
			d.gen++
			s.scheduleLocked(d, n)
		}
	}
}

// touch is one call of touchLocked: the paths changed, and whether they
// may be new or gone.
type touch struct {
	paths   []string
	created bool
}

// readsAny reports whether v read one of the paths of ts.
func (v *view) readsAny(ts []touch) bool {
	for _, t := range ts {
		if v.reads(t.paths, t.created) {
			return true
		}
	}
	return false
}

// readLog records what an analysis read: the paths read or looked for,
// and the include patterns expanded. Rules read through it from several
// goroutines.
type readLog struct {
	mu    sync.Mutex
	paths map[string]bool
	globs map[string]bool
	// stamp, when set, stamps what is read (before it is read: a change
	// in between is seen again, never missed) into stamps; open files
	// (the buffers') are not stamped.
	stamp  func(path string, glob bool) stamp
	open   map[string][]byte
	stamps map[string]stamp
}

func (r *readLog) seen(path string, glob bool) {
	key := "glob:" + path
	if !glob {
		path = filepath.Clean(path)
		key = path
	}
	var st stamp
	_, open := r.open[path]
	stamped := r.stamp != nil && !open
	if stamped {
		st = r.stamp(path, glob)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if stamped {
		if _, ok := r.stamps[key]; !ok {
			if r.stamps == nil {
				r.stamps = map[string]stamp{}
			}
			r.stamps[key] = st
		}
	}
	if glob {
		if r.globs == nil {
			r.globs = map[string]bool{}
		}
		r.globs[path] = true
		return
	}
	if r.paths == nil {
		r.paths = map[string]bool{}
	}
	r.paths[path] = true
}

// reads reports whether v's analysis read one of paths, or, when created,
// expanded a pattern that one of them matches.
func (v *view) reads(paths []string, created bool) bool {
	for _, p := range paths {
		if p == v.path || v.deps[p] {
			return true
		}
		if created {
			for g := range v.globs {
				if ok, _ := filepath.Match(g, p); ok {
					return true
				}
			}
		}
	}
	return false
}

// lineStarts holds the offset of every line's start in a document's text,
// kept in step with its edits: positions of a large document are found
// without scanning it from the top at each keystroke.
type lineStarts []int

func newLineStarts(text []byte) lineStarts {
	ls := make(lineStarts, 1, bytes.Count(text, []byte{'\n'})+1)
	for i := 0; ; {
		j := bytes.IndexByte(text[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		ls = append(ls, i)
	}
	return ls
}

// offset converts a protocol position (0-based line, UTF-16 column) into
// a byte offset of text, clamped to the line (the column never passes its
// line's end) and to the text.
func (ls lineStarts) offset(text []byte, p protocol.Position) int {
	if int(p.Line) >= len(ls) {
		return len(text)
	}
	off := ls[p.Line]
	end := len(text)
	if int(p.Line)+1 < len(ls) {
		end = ls[p.Line+1] - 1
	}
	for n := protocol.UInteger(0); n < p.Character && off < end; {
		r, size := utf8.DecodeRune(text[off:end])
		n += protocol.UInteger(utf16.RuneLen(r)) // an invalid byte is one unit (U+FFFD)
		off += size
	}
	return off
}

// replace updates the line starts, in place, for text[start:end]
// replaced by repl.
func (ls *lineStarts) replace(start, end int, repl string) {
	old := *ls
	i := sort.SearchInts(old, start+1) // the first line start after start
	j := sort.SearchInts(old, end+1)   // the first line start after end
	delta := len(repl) - (end - start)
	added := strings.Count(repl, "\n")
	n := len(old) - (j - i) + added
	if n > cap(old) {
		grown := make(lineStarts, len(old), n+n/8+16)
		copy(grown, old)
		old = grown
	}
	tail := len(old) - j
	if n > len(old) {
		old = old[:n]
	}
	copy(old[i+added:], old[j:j+tail]) // a memmove
	old = old[:n]
	for k, m := 0, i; ; m++ {
		x := strings.IndexByte(repl[k:], '\n')
		if x < 0 {
			break
		}
		k += x + 1
		old[m] = start + k
	}
	for m := i + added; m < n; m++ {
		old[m] += delta
	}
	*ls = old
}
