package lint

import (
	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Tree is the part of the disk a configuration's text may be quoted from:
// the directory of the file named (or standard input's working
// directory), the directory named on the command line that it was found
// in, the conf prefix given with -p or found as the nearest nginx.conf's
// directory, the language server's workspace root, and the include-paths
// destinations of its settings file that lie in that file's directory.
//
// A configuration can include any file nginx can open (include
// /etc/shadow; a CI runner's event file, ~/.aws/credentials), and nginx
// quotes that file's first words in its error. In CI on a pull request
// the configuration is someone else's, and what nginx-lint prints goes to
// a log that someone can read: the text of a file outside the tree is
// never shown (Redact). A file is in the tree when the path the kernel
// opens, with every symbolic link resolved, is: a link committed inside
// the tree (conf.d/x.conf -> /etc/shadow) is followed by nginx, and its
// target is what would be quoted. The settings file's prefix does not
// widen the tree, since in CI it is part of what is linted.
type Tree struct {
	roots []string // absolute, symbolic links resolved

	mu   sync.Mutex
	in   map[string]bool
	shim map[*parser.File]hidden
}

// hidden is what Redact keeps of a file outside the tree: its stand-in
// and the words it holds.
type hidden struct {
	file  *parser.File
	holds func(string) bool
}

// NewTree returns the tree made of dirs (empty ones are ignored).
func NewTree(dirs ...string) *Tree {
	t := &Tree{}
	t.Add(dirs...)
	return t
}

// Add adds directories to t.
func (t *Tree) Add(dirs ...string) {
	for _, d := range dirs {
		if d == "" {
			continue
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			continue
		}
		for _, r := range []string{abs, parser.RealPath(abs)} {
			if !containsString(t.roots, r) {
				t.roots = append(t.roots, r)
			}
		}
	}
	t.in = nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Contains reports whether the file at path is in t: its real path (the
// file a symbolic link leads to) is under one of t's directories. A nil
// Tree contains every file.
func (t *Tree) Contains(path string) bool {
	if t == nil {
		return true
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if in, ok := t.in[path]; ok {
		return in
	}
	abs, err := filepath.Abs(path)
	in := false
	if err == nil {
		real := parser.RealPath(abs)
		for _, r := range t.roots {
			if Within(real, r) {
				in = true
				break
			}
		}
	}
	if t.in == nil {
		t.in = map[string]bool{}
	}
	t.in[path] = in
	return in
}

// Quotes reports whether the text of f may be shown: f is in the tree,
// or is a file of an "nginx -T" dump (its text is the dump's, which was
// named).
func (t *Tree) Quotes(f *parser.File) bool {
	return f == nil || f.FromDump != "" || t.Contains(f.Path)
}

// Redact returns ds with no text of a file outside t: a finding located
// in such a file keeps its file, position, rule, severity and target, but
// its message and detail have the words they quote replaced (but
// directive names, which are public), it points into a stand-in of the
// file that has its lines and byte offsets but none of its text (so no
// output format can print a source line, a snippet or a fingerprint of
// it), and it carries no fix. Related places in such files are treated
// alike, and a fix that edits such a file is dropped. Findings are copied
// before they are changed: a parsed file's own findings may be cached
// and shared.
func (t *Tree) Redact(ds []*parser.Diagnostic) []*parser.Diagnostic {
	if t == nil {
		return ds
	}
	for i, d := range ds {
		out := t.redact(d)
		if out != d {
			ds[i] = out
		}
	}
	return ds
}

func (t *Tree) redact(d *parser.Diagnostic) *parser.Diagnostic {
	var c *parser.Diagnostic
	copyOf := func() *parser.Diagnostic {
		if c == nil {
			dc := *d
			c = &dc
		}
		return c
	}
	if d.File != nil && !t.Quotes(d.File) {
		c = copyOf()
		h := t.hide(d.File)
		c.Message = RedactWords(d.Message, h.holds, d.File.Path)
		c.Detail = RedactWords(d.Detail, h.holds, d.File.Path)
		if c.Detail != "" {
			c.Detail += " "
		}
		c.Detail += "(the text of " + d.File.Path + " is not shown: the file is outside the configuration's directory, or a link out of it)"
		c.File = h.file
		c.Edits = nil
	}
	for _, e := range d.Edits {
		if e.File != nil && !t.Quotes(e.File) {
			copyOf().Edits = nil
			break
		}
	}
	for i, r := range d.Related {
		if r.File == nil || t.Quotes(r.File) {
			continue
		}
		c = copyOf()
		if &c.Related[0] == &d.Related[0] {
			c.Related = append([]parser.Related(nil), d.Related...)
		}
		h := t.hide(r.File)
		c.Related[i] = parser.Related{File: h.file, Range: r.Range, Message: RedactWords(r.Message, h.holds, r.File.Path)}
	}
	if c == nil {
		return d
	}
	return c
}

// Redactor returns how a message about f is written without f's text
// (RedactWords over f's words), or nil when f's text may be shown: for
// front ends that print f's contents themselves (parse).
func (t *Tree) Redactor(f *parser.File) func(msg string) string {
	if t.Quotes(f) {
		return nil
	}
	h := t.hide(f)
	return func(msg string) string { return RedactWords(msg, h.holds, f.Path) }
}

// hide returns f's stand-in, a file with f's path, lines and byte offsets
// (so every position, UTF-16 columns included, is the same) and none of
// its text, and the set of its words; once per file.
func (t *Tree) hide(f *parser.File) hidden {
	t.mu.Lock()
	defer t.mu.Unlock()
	if h, ok := t.shim[f]; ok {
		return h
	}
	h := hidden{&parser.File{Path: f.Path, Src: Blank(f.Src), FromDump: f.FromDump, Withheld: true}, WordSet(f.Src)}
	if t.shim == nil {
		t.shim = map[*parser.File]hidden{}
	}
	t.shim[f] = h
	return h
}

// Blank returns src with every character but line ends and tabs replaced
// by one of the same size in UTF-8 and in UTF-16: positions in it are
// positions in src, and nothing else of src is left.
func Blank(src string) string {
	var b strings.Builder
	b.Grow(len(src))
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRuneInString(src[i:])
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(src[i])
		case size == 1:
			b.WriteByte('x') // ASCII, or an invalid byte (one UTF-16 unit)
		case size == 2:
			b.WriteString("\u00b7")
		case size == 3:
			b.WriteString("\u2026")
		default:
			b.WriteString("\U0001F512")
		}
		i += size
	}
	return b.String()
}

// RedactWords returns msg with the words it quotes from a file replaced
// by "…": every double-quoted part but a known directive name (public,
// and what makes "\"ssl_session_cache\" directive is duplicate" useful)
// or a bare ";", "{" or "}", and every other word of which the file holds
// a part as a word of its own (holds, given a run of letters and digits
// in lower case; some messages name values unquoted).
//
// A word that starts with path (the file's own, which every output
// names anyway, as in "in /etc/shadow:3") is kept.
func RedactWords(msg string, holds func(word string) bool, path string) string {
	if msg == "" {
		return msg
	}
	var b strings.Builder
	for i := 0; i < len(msg); {
		if msg[i] == '"' {
			j := closingQuote(msg, i)
			if j < 0 {
				b.WriteString(`"…"`)
				break
			}
			q := msg[i : j+1]
			// A directive name has no escapes: a word with a backslash
			// is never public.
			if v := q[1 : len(q)-1]; !strings.Contains(v, "\\") && publicWord(v) {
				b.WriteString(q)
			} else {
				b.WriteString(`"…"`)
			}
			i = j + 1
			continue
		}
		j := i
		for j < len(msg) && msg[j] != '"' && msg[j] != ' ' {
			j++
		}
		if j == i {
			b.WriteByte(msg[i])
			i++
			continue
		}
		if w := msg[i:j]; path != "" && strings.HasPrefix(w, path) {
			b.WriteString(w)
		} else {
			b.WriteString(redactBare(w, holds))
		}
		i = j
	}
	return b.String()
}

// closingQuote returns the index of the quote that closes the one at
// msg[i], skipping backslash escapes; -1 when none does.
func closingQuote(msg string, i int) int {
	for j := i + 1; j < len(msg); j++ {
		switch msg[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return -1
}

// publicWord reports whether a word says nothing of a file: a directive
// name, the syntax nginx expects, or nginx's name.
func publicWord(v string) bool {
	switch v {
	case ";", "{", "}", "nginx":
		return true
	}
	return len(directives.Lookup(v)) > 0
}

// redactBare returns the unquoted word w of a message, or "…" for its
// core (without the punctuation around it) when the file holds a part of
// it and it is no directive name.
func redactBare(w string, holds func(string) bool) string {
	core := strings.TrimRight(strings.TrimLeft(w, "([{<'`"), ".,;:)]}>!?'`")
	if core == "" || publicWord(core) {
		return w
	}
	for _, part := range wordsOf(core) {
		if holds(part) {
			at := strings.Index(w, core)
			return w[:at] + "…" + w[at+len(core):]
		}
	}
	return w
}

// wordsOf splits s into its runs of letters and digits (any byte over
// 0x7f counts as a letter), in lower case.
func wordsOf(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 0x80)
	})
}

// WordSet returns the words of src (wordsOf) as a set, for RedactWords.
func WordSet(src string) func(string) bool {
	set := map[string]bool{}
	for i := 0; i < len(src); {
		j := i
		for j < len(src) && wordByte(src[j]) {
			j++
		}
		if j > i {
			set[strings.ToLower(src[i:j])] = true
			i = j
		} else {
			i++
		}
	}
	return func(w string) bool { return set[w] }
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// tree returns the Tree of the configuration whose main file is at main,
// read for target t under settings cfg (see Tree).
func (w *Workspace) tree(t Target, main string, cfg *config.File) *Tree {
	tr := NewTree(t.Root, t.Prefix, w.Prefix, w.Bound)
	if t.Path == "-" || t.Pipe {
		if wd, err := os.Getwd(); err == nil {
			tr.Add(wd)
		}
	} else {
		tr.Add(filepath.Dir(main))
	}
	if cfg != nil {
		// A destination in the settings file's directory holds that
		// configuration's files; one elsewhere is anything the settings
		// name (include-paths: {/x: /} in a pull request). With no
		// settings file, the destination is the etc/nginx/ above the
		// entry file that withMirror found.
		for _, m := range cfg.IncludePaths {
			if cfg.Path != "" && Within(m.To, filepath.Dir(cfg.Path)) || cfg.Path == "" && Within(main, m.To) {
				tr.Add(m.To)
			}
		}
	}
	return tr
}
