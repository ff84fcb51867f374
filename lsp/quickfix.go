package lsp

import "github.com/nginx-lint/nginx-lint/parser"

// fixReaches reports whether the finding diag of the view's document is
// one to offer fixes for in the range [from, to]: it is there, or one of
// its edits is on a line of the range. nginx reports a missing ";" where
// the next word starts (the "}" on the line below); the fix inserts it at
// the end of the line that lost it, where a person looks for it.
func fixReaches(v *view, diag *parser.Diagnostic, from, to int) bool {
	if int(diag.Range.End) >= from && int(diag.Range.Start) <= to {
		return true
	}
	f := v.file
	first, last := f.Line(from), f.Line(to)
	for _, e := range diag.Edits {
		ef := e.File
		if ef == nil {
			ef = diag.File
		}
		if ef == nil || ef.Path != f.Path {
			continue
		}
		if l := f.Line(int(e.Range.Start)); l >= first && l <= last {
			return true
		}
	}
	return false
}
