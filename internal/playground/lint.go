package playground

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/nginx-lint/nginx-lint/analyzer/fix"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/internal/report"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Finding is one finding as the command line's JSON format gives it
// (report.JSONDiagnostic), with what an editor needs besides: the range
// and the fix's edits in the UTF-16 offsets of the file's text, and the
// rule's title and page.
type Finding struct {
	report.JSONDiagnostic
	// From and To are the range in UTF-16 code units of the file's text.
	From int `json:"from"`
	To   int `json:"to"`
	// Title is the rule's one-line title, URL its page.
	Title string `json:"title,omitempty"`
	URL   string `json:"url,omitempty"`
	// Fix is the finding's suggested edits, applied all together.
	Fix []Edit `json:"fix,omitempty"`
}

// Edit replaces From-To (UTF-16 code units) of File's text with Text.
type Edit struct {
	File string `json:"file"`
	From int    `json:"from"`
	To   int    `json:"to"`
	Text string `json:"text"`
}

// LintResult is the answer of lint.
type LintResult struct {
	Findings []Finding `json:"findings"`
	// Warnings are problems with the settings (a .nginx-lint.yaml that
	// does not parse): the lint went on without what they name.
	Warnings []string `json:"warnings"`
	// Units are the main configurations linted, as Dir shows them.
	Units []string `json:"units"`
	// Rules explain the rules of the findings, by code.
	Rules map[string]RuleDoc `json:"rules"`
}

// RuleDoc is what the editor's hover says of a rule: its title and why
// it exists and how to fix a finding (analyzer.Doc.Text, Markdown).
type RuleDoc struct {
	Title string `json:"title"`
	Text  string `json:"text"`
}

func (s *Session) lint(req Request) (LintResult, error) {
	res := LintResult{Findings: []Finding{}, Warnings: []string{}, Units: []string{}, Rules: map[string]RuleDoc{}}
	w, targets, err := s.workspace(&req, func(msg string) { res.Warnings = append(res.Warnings, msg) })
	if err != nil {
		return res, errorOf(err)
	}
	rep, err := w.Lint(targets)
	if err != nil {
		return res, errorOf(err)
	}
	for _, u := range rep.Units {
		res.Units = append(res.Units, report.DisplayPath(u.Config.Main.Path, req.dir()))
	}
	res.Findings, err = findings(rep.Findings, req.dir())
	reg := rules.All()
	for _, d := range res.Findings {
		if _, ok := res.Rules[d.Code]; !ok {
			if r := reg.Lookup(d.Code); r != nil {
				res.Rules[d.Code] = RuleDoc{Title: r.Title, Text: r.Doc.Text}
			}
		}
	}
	return res, err
}

// findings converts ds as the command line's JSON format does, adding
// the editor's offsets.
func findings(ds []*parser.Diagnostic, dir string) ([]Finding, error) {
	f, _ := report.New("json", report.Options{})
	var b bytes.Buffer
	if err := f.Format(&b, &report.Lint{Findings: ds, Dir: dir}); err != nil {
		return nil, err
	}
	var out struct {
		Diagnostics []report.JSONDiagnostic `json:"diagnostics"`
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		return nil, err
	}
	if len(out.Diagnostics) != len(ds) {
		return nil, fmt.Errorf("the JSON format wrote %d findings of %d", len(out.Diagnostics), len(ds))
	}
	reg := rules.All()
	u16 := utf16Offsets{}
	res := make([]Finding, len(ds))
	for i, d := range ds {
		fd := Finding{JSONDiagnostic: out.Diagnostics[i]}
		if d.File != nil {
			fd.From, fd.To = u16.of(d.File, int(d.Range.Start)), u16.of(d.File, int(d.Range.End))
		}
		if r := reg.Lookup(d.Code); r != nil {
			fd.Title, fd.URL = r.Title, report.RuleURL(r.Name)
		}
		for _, e := range d.Edits {
			if e.File == nil {
				continue
			}
			fd.Fix = append(fd.Fix, Edit{File: report.DisplayPath(e.File.Path, dir),
				From: u16.of(e.File, int(e.Range.Start)), To: u16.of(e.File, int(e.Range.End)), Text: e.NewText})
		}
		res[i] = fd
	}
	return res, nil
}

// utf16Offsets converts byte offsets of files' texts to UTF-16 offsets,
// the unit of JavaScript strings. Offsets asked in increasing order, as
// the sorted findings ask them, are counted from the last one.
type utf16Offsets map[*parser.File]*utf16Cursor

type utf16Cursor struct {
	ascii     bool
	byteAt, n int
}

func (u utf16Offsets) of(f *parser.File, off int) int {
	c := u[f]
	if c == nil {
		c = &utf16Cursor{ascii: isASCII(f.Src)}
		u[f] = c
	}
	off = min(max(off, 0), len(f.Src))
	if c.ascii {
		return off
	}
	if off < c.byteAt {
		c.byteAt, c.n = 0, 0
	}
	for i := c.byteAt; i < off; {
		r, size := utf8.DecodeRuneInString(f.Src[i:])
		if i+size > off {
			break // inside a rune: count it as started
		}
		if r >= 0x10000 {
			c.n += 2
		} else {
			c.n++
		}
		i += size
		c.byteAt = i
	}
	return c.n
}

func isASCII(b string) bool {
	for i := 0; i < len(b); i++ {
		if b[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// FixResult is the answer of fix: the files the fixes change, with their
// new text; the page puts them in its editors and lints again.
type FixResult struct {
	Files   []FixedFile `json:"files"`
	Changes []FixChange `json:"changes"`
	// Refused are the files whose fixed text would not parse as well as
	// the original: left as they are.
	Refused  []string `json:"refused"`
	Warnings []string `json:"warnings"`
}

// FixedFile is a file's text after the fixes.
type FixedFile struct {
	Path string `json:"path"`
	Text string `json:"text"`
}

// FixChange is one finding whose fix was applied.
type FixChange struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Code    string `json:"code"`
	Name    string `json:"name"`
	Message string `json:"message"`
	Target  string `json:"target,omitempty"`
}

// fix applies every finding's fix, in rounds, as nginx-lint --fix does,
// and writes nothing.
func (s *Session) fix(req Request) (FixResult, error) {
	res := FixResult{Files: []FixedFile{}, Changes: []FixChange{}, Refused: []string{}, Warnings: []string{}}
	w, targets, err := s.workspace(&req, func(msg string) { res.Warnings = append(res.Warnings, msg) })
	if err != nil {
		return res, errorOf(err)
	}
	out, err := fix.Run(w.Rounds(targets))
	if err != nil {
		return res, errorOf(err)
	}
	dir := req.dir()
	for _, p := range out.Paths() {
		res.Files = append(res.Files, FixedFile{Path: report.DisplayPath(p, dir), Text: string(out.Fixed[p])})
	}
	for _, c := range out.Changes {
		if _, ok := out.Fixed[c.Path]; ok {
			res.Changes = append(res.Changes, FixChange{Path: report.DisplayPath(c.Path, dir), Line: c.Line, Code: c.Code, Name: c.Name, Message: c.Message, Target: c.Target})
		}
	}
	for _, p := range out.Refused {
		res.Refused = append(res.Refused, report.DisplayPath(p, dir))
	}
	return res, nil
}

// FormatRequest names the files to format (relative to Root or absolute;
// default: every configuration under Root, as lint finds them).
type FormatRequest struct {
	Request
	Paths []string `json:"paths,omitempty"`
}

// FormatResult is the answer of format.
type FormatResult struct {
	Files []FormattedFile `json:"files"`
}

// FormattedFile is one file formatted as nginx-lint fmt formats it, with
// the layout its settings' fmt: section asks for; or, for a file nginx
// cannot read (a syntax error), the reason it is left alone.
type FormattedFile struct {
	Path    string `json:"path"`
	Text    string `json:"text,omitempty"`
	Changed bool   `json:"changed"`
	Error   string `json:"error,omitempty"`
}

func (s *Session) format(req FormatRequest) (FormatResult, error) {
	res := FormatResult{Files: []FormattedFile{}}
	var paths []string
	if len(req.Paths) == 0 {
		_, targets, err := s.workspace(&req.Request, func(string) {})
		if err != nil {
			return res, errorOf(err)
		}
		for _, t := range targets {
			paths = append(paths, t.Path)
		}
	}
	for _, p := range req.Paths {
		paths = append(paths, req.path(p))
	}
	w := &lint.Workspace{Cache: &s.cache, Tolerate: func(error) {}}
	for _, p := range paths {
		ff := FormattedFile{Path: report.DisplayPath(p, req.dir())}
		var opts parser.FormatOptions
		if cfg, err := w.SettingsFor(p); err == nil && cfg != nil {
			opts = cfg.Fmt
		}
		src, err := parser.ReadConfigFile(p, 0)
		if errors.Is(err, os.ErrNotExist) {
			ff.Error = "no such file"
		} else if err != nil {
			ff.Error = err.Error()
		}
		if err == nil {
			out, err := parser.FormatWith(parser.ParseFile(p, src, nil), opts)
			if err != nil {
				ff.Error = err.Error()
			} else {
				ff.Text, ff.Changed = string(out), !bytes.Equal(out, src)
			}
		}
		// The error names the file by its absolute path; shown as the
		// other paths are.
		ff.Error = shorten(ff.Error, req.dir())
		res.Files = append(res.Files, ff)
	}
	return res, nil
}

// shorten names the files under dir in msg relative to it.
func shorten(msg, dir string) string {
	return string(bytes.ReplaceAll([]byte(msg), []byte(dir+string(filepath.Separator)), nil))
}
