package lsp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/parser"
)

// This file holds what formatting shares with range formatting: the
// formatted text of a document, or why there is none.

// codeRequestFailed is protocol 3.17's RequestFailed: the request was
// valid, but the server could not do it (here: a syntax error stops the
// formatter), and the message says why.
const codeRequestFailed = -32803

// formatted returns the document formatted, as nginx-lint fmt formats
// it. The layout is the settings file's fmt: section, else the
// document's own indentation; the editor's tabSize and insertSpaces only
// indent a document that shows none, so a tab-indented file is never
// rewritten with the spaces an editor's default asks for. A document with
// a syntax error is not formatted: the error says where it is, so the
// editor shows why nothing happened.
func (s *Server) formatted(d *view, opts protocol.FormattingOptions) (string, error) {
	o := formatOptions(opts)
	s.mu.Lock()
	bound := s.boundLocked(d.path)
	s.mu.Unlock()
	w := &lint.Workspace{Cache: &s.settings, Bound: bound,
		Tolerate: func(err error) { s.problem(fmt.Sprintf("settings ignored: %v", err)) }}
	if cfg, _ := w.SettingsFor(d.path); cfg != nil {
		def := o.Default
		o = cfg.Fmt
		o.Default = def
	}
	out, err := parser.FormatWith(d.file, o)
	if errors.Is(err, parser.ErrNotFormattable) {
		// "nginx.conf:9:9: unexpected "}"": the file's base name is
		// enough in the editor that shows it.
		msg := strings.TrimPrefix(err.Error(), parser.ErrNotFormattable.Error()+": ")
		msg = strings.TrimPrefix(msg, filepath.Dir(d.file.Path)+string(filepath.Separator))
		return "", errorf(codeRequestFailed, "cannot format %s: the syntax error at %s must be fixed first", filepath.Base(d.path), msg)
	}
	if err != nil {
		return "", errorf(codeRequestFailed, "cannot format %s: %v", filepath.Base(d.path), err)
	}
	if out == nil {
		return d.text, nil // nothing but blanks and comments to lay out
	}
	return string(out), nil
}

// rangeFormatting formats the lines of the range: the whole document is
// formatted (a block's indentation depends on what is around it) and
// only the changes that fall on those lines are kept.
func (s *Server) rangeFormatting(_ context.Context, p *protocol.DocumentRangeFormattingParams) ([]protocol.TextEdit, error) {
	d := s.viewOf(p.TextDocument.URI)
	if d == nil {
		return nil, nil
	}
	out, err := s.formatted(d, p.Options)
	if err != nil {
		return nil, err
	}
	f := d.file
	// Whole lines: from the start of the first line to the end of the
	// last (a range ending at column 0 ends on the line before).
	from := offset(f, protocol.Position{Line: p.Range.Start.Line})
	endLine := p.Range.End.Line
	if p.Range.End.Character == 0 && endLine > p.Range.Start.Line {
		endLine--
	}
	to := offset(f, protocol.Position{Line: endLine + 1})
	if int(endLine)+1 >= f.LineCount() {
		to = len(f.Src)
	}
	edits := []protocol.TextEdit{}
	keep := func(start, end int, text string) {
		// An edit on the lines; an insertion at their end belongs to
		// the line after.
		if start >= from && end <= to && !(start == to && end == to && to < len(f.Src)) {
			edits = append(edits, protocol.TextEdit{Range: rangeOf(f, parser.Span(start, end)), NewText: text})
		}
	}
	for _, e := range udiff.Lines(d.text, out) {
		if e.Start > to || e.End < from {
			continue
		}
		if e.Start >= from && e.End <= to {
			keep(e.Start, e.End, e.New)
			continue
		}
		// A change that runs over lines outside the range too (a block
		// written on one line is laid out on several): its parts, found
		// character by character, that fall on the range's lines.
		for _, x := range udiff.Strings(d.text[e.Start:e.End], e.New) {
			keep(e.Start+x.Start, e.Start+x.End, x.New)
		}
	}
	return edits, nil
}
