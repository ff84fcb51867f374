package lint_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
)

// The recovery property (issue 30): one character deleted anywhere in a
// configuration breaks at most the statement it was in. Where the
// deletion makes a syntax error (the parser recovers: TestRecovery in
// parser), every finding outside the broken statement is the one the
// intact text gets there, at the same place with the same message; the
// syntax findings themselves are nginx's and are left out.

// recoveryFile is a configuration the property is checked on, linted in
// the context inferred from its intact text (a deletion in a top-level
// name must not move the whole file to another context).
type recoveryFile struct {
	path      string
	src       string
	ancestors []string
	reg       *analyzer.Registry
	opts      analyzer.Options
	want      []placed
}

// placed is what is compared: the rule, where it starts (in the intact
// text's offsets) and its message.
type placed struct {
	code    string
	start   int
	message string
}

func newRecoveryFile(t testing.TB, path, src string) (*recoveryFile, bool) {
	reg := rules.All()
	opts, err := lint.SettingsOptions(reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, ancestors := analyzer.InferContext(parser.ParseString(path, src, &parser.Options{Kinds: analyzer.Kinds}))
	rf := &recoveryFile{path: path, src: src, ancestors: ancestors, reg: reg, opts: opts}
	ds := rf.lint(src)
	for _, d := range ds {
		if isSyntax(d) {
			return nil, false // already broken: nothing to compare with
		}
	}
	rf.want = rf.findings(ds, -1)
	return rf, true
}

func isSyntax(d *parser.Diagnostic) bool {
	return d.Code == parser.CodeSyntax || d.Code == parser.CodeMissingSemicolon
}

// lint lints src as rf's file, alone (its includes find nothing, the
// same for every text).
func (rf *recoveryFile) lint(src string) []*parser.Diagnostic {
	l := &parser.Loader{Kinds: analyzer.Kinds, FS: &parser.Overlay{Files: map[string][]byte{rf.path: []byte(src)}}}
	c := l.LoadSource(rf.path, []byte(src), rf.ancestors)
	ds, _ := lint.Run(c, rf.reg, rf.opts)
	return ds
}

// findings keys the findings of the file in rf's offsets: deleted is the
// offset of the character deleted from the text they were found in (-1
// for the intact text).
func (rf *recoveryFile) findings(ds []*parser.Diagnostic, deleted int) []placed {
	var out []placed
	for _, d := range ds {
		if d.FilePath() != rf.path || isSyntax(d) {
			continue
		}
		start := int(d.Range.Start)
		if deleted >= 0 && start >= deleted {
			start++
		}
		out = append(out, placed{d.Code, start, d.Message})
	}
	return out
}

// brokenStatement returns the range of the intact text that deleting the
// character at i breaks: the innermost statement holding it (with its
// block when it is a block's head or brace), widened to what nginx reads
// as one statement in the broken text (a ";" deleted joins the next
// statement to it); a character between statements breaks the one that
// follows (a comment's "#" or its line's end).
func (rf *recoveryFile) brokenStatement(i int, mutant string) (int, int) {
	opts := &parser.Options{Kinds: analyzer.Kinds, Ancestors: rf.ancestors, Faithful: true}
	orig := parser.ParseString(rf.path, rf.src, opts)
	start, end := i, i+1
	if c := commentAt(orig, i); c != nil {
		// A comment's text, "#" or line end: the comment breaks, with the
		// directive it describes (a suppression comment no longer
		// applies) and the one its text now runs into or swallows.
		start = int(c.Range.Start)
		if d := c.Directive; d != nil {
			r := d.Extent()
			start, end = min(start, int(r.Start)), max(end, int(r.End))
		}
		if d := following(orig.Directives, i); d != nil {
			end = max(end, int(d.Extent().End))
		}
		end = max(end, int(c.Range.End))
		// What the deletion uncomments.
		eachDirective(parser.ParseString(rf.path, mutant, opts).Directives, func(d *parser.Directive) {
			if r := d.Extent(); int(r.Start) >= i && int(r.Start) < int(c.Range.End) {
				end = max(end, int(r.End)+1)
			}
		})
	} else if d := innermost(orig.Directives, i); d != nil {
		r := d.Range()
		start, end = min(start, int(r.Start)), max(end, int(r.End))
	} else if d := following(orig.Directives, i); d != nil {
		r := d.HeadRange()
		end = max(end, int(r.End)+1)
	}
	broken := parser.ParseString(rf.path, mutant, opts)
	if d := innermostHead(broken.Directives, i); d != nil {
		r := d.HeadRange()
		s, e := int(r.Start), int(r.End)
		if t := d.Semicolon(); t >= 0 {
			e = int(t) + 1
		}
		if t := d.LBrace(); t >= 0 {
			e = int(t) + 1
		}
		// Back to the intact text's offsets.
		if s > i {
			s++
		}
		if e > i {
			e++
		}
		start, end = min(start, s), max(end, e)
	}
	return start, end
}

// commentAt returns the comment of f that holds off, or whose line ends
// at off.
func commentAt(f *parser.File, off int) *parser.Comment {
	var found *parser.Comment
	visit := func(cs []*parser.Comment) {
		for _, c := range cs {
			if off >= int(c.Range.Start) && off <= int(c.Range.End) {
				found = c
			}
		}
	}
	visit(f.Comments)
	var walk func([]*parser.Directive)
	walk = func(dirs []*parser.Directive) {
		for _, d := range dirs {
			if d.Block != nil {
				visit(d.Block.Comments())
				walk(d.Block.Directives)
			}
		}
	}
	walk(f.Directives)
	return found
}

func eachDirective(dirs []*parser.Directive, fn func(*parser.Directive)) {
	for _, d := range dirs {
		fn(d)
		if d.Block != nil {
			eachDirective(d.Block.Directives, fn)
		}
	}
}

// innermost returns the innermost directive whose range holds off.
func innermost(dirs []*parser.Directive, off int) *parser.Directive {
	for _, d := range dirs {
		r := d.Range()
		if off < int(r.Start) || off >= int(r.End) {
			continue
		}
		if d.Block != nil && off > int(d.LBrace()) && off < int(d.RBrace()) {
			if in := innermost(d.Block.Directives, off); in != nil {
				return in
			}
			if following(d.Block.Directives, off) != nil {
				return nil // between statements of the block
			}
		}
		return d
	}
	return nil
}

// following returns the first directive, at any depth, that starts after
// off.
func following(dirs []*parser.Directive, off int) *parser.Directive {
	for _, d := range dirs {
		if int(d.Name().Range.Start) > off {
			return d
		}
		if d.Block != nil {
			if f := following(d.Block.Directives, off); f != nil {
				return f
			}
		}
	}
	return nil
}

// innermostHead returns the innermost directive whose head (name to its
// ";" or "{") holds off, or that a deletion at off cut short.
func innermostHead(dirs []*parser.Directive, off int) *parser.Directive {
	for _, d := range dirs {
		h := d.HeadRange()
		e := int(h.End)
		if t := max(d.Semicolon(), d.LBrace()); t >= 0 {
			e = int(t)
		}
		if off >= int(h.Start) && off <= e {
			return d
		}
		if d.Block != nil {
			if in := innermostHead(d.Block.Directives, off); in != nil {
				return in
			}
		}
	}
	return nil
}

// check deletes the character at i and returns what differs outside the
// broken statement, "" when nothing does or the deletion breaks no
// syntax.
func (rf *recoveryFile) check(i int) string {
	mutant := rf.src[:i] + rf.src[i+1:]
	ds := rf.lint(mutant)
	if !slices.ContainsFunc(ds, isSyntax) {
		return "" // not a syntax error: another configuration, not a recovery
	}
	start, end := rf.brokenStatement(i, mutant)
	outside := func(fs []placed) map[placed]int {
		m := map[placed]int{}
		for _, f := range fs {
			if f.start < start || f.start >= end {
				if rf.src[i] == '\n' {
					f.message = "" // lines after it moved: messages that name one differ
				}
				m[f]++
			}
		}
		return m
	}
	got := outside(rf.findings(ds, i))
	diff := rf.differ(got, outside(rf.want))
	if len(diff) == 0 {
		return ""
	}
	// The statement dropped rather than kept (a block commented out by a
	// deleted line end): the rest is linted as without it.
	blank := []byte(rf.src)
	for k := start; k < end && k < len(blank); k++ {
		if blank[k] != '\n' {
			blank[k] = ' '
		}
	}
	if len(rf.differ(got, outside(rf.findings(rf.lint(string(blank)), -1)))) == 0 {
		return ""
	}
	slices.Sort(diff)
	return fmt.Sprintf("deleting %q at %s (statement %s-%s):\n\t%s", rf.src[i], rf.place(i), rf.place(start), rf.place(end), strings.Join(diff, "\n\t"))
}

// differ lists the findings got and want do not share.
func (rf *recoveryFile) differ(got, want map[placed]int) []string {
	var diff []string
	for f, n := range want {
		if got[f] < n {
			diff = append(diff, fmt.Sprintf("lost %s at %s: %s", f.code, rf.place(f.start), f.message))
		}
	}
	for f, n := range got {
		if want[f] < n {
			diff = append(diff, fmt.Sprintf("new %s at %s: %s", f.code, rf.place(f.start), f.message))
		}
	}
	return diff
}

func (rf *recoveryFile) place(off int) string {
	line := strings.Count(rf.src[:min(off, len(rf.src))], "\n") + 1
	col := off - strings.LastIndexByte(rf.src[:min(off, len(rf.src))], '\n')
	return fmt.Sprintf("%d:%d", line, col)
}

// recoveryFiles are the testdata configurations.
func recoveryFiles(t testing.TB) []*recoveryFile {
	root := filepath.Join("..", "..", "testdata")
	var out []*recoveryFile
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".conf") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		abs, _ := filepath.Abs(p)
		if rf, ok := newRecoveryFile(t, abs, string(b)); ok {
			out = append(out, rf)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRecoveryProperty deletes characters across the testdata
// configurations: every structural character (";", "{", "}", quotes,
// "#", "$", "\\" and line ends), and every seventh of the others (all of
// them with RECOVERY_ALL=1).
func TestRecoveryProperty(t *testing.T) {
	files := recoveryFiles(t)
	if len(files) < 100 {
		t.Fatalf("only %d testdata configurations parse clean", len(files))
	}
	all := os.Getenv("RECOVERY_ALL") == "1"
	step := 7
	if testing.Short() {
		step = 31
	}
	checked, broken, failed := 0, 0, 0
	for _, rf := range files {
		for i := 0; i < len(rf.src); i++ {
			structural := strings.IndexByte(";{}\"'#$\\\n", rf.src[i]) >= 0
			if !all && !(structural && !testing.Short()) && i%step != 0 {
				continue
			}
			checked++
			msg := rf.check(i)
			if msg == "" {
				continue
			}
			broken++
			failed++
			if failed <= 40 {
				t.Errorf("%s: %s", rf.path, msg)
			}
		}
	}
	t.Logf("%d deletions in %d files; %d differ outside the statement", checked, len(files), failed)
}

// FuzzRecovery checks the property on configurations the fuzzer makes
// from the testdata ones: any text that parses clean, names only
// directives nginx knows, and is written indented (recovery reads
// indentation; a file written flat says nothing by it), with any one
// character deleted.
func FuzzRecovery(f *testing.F) {
	for i, rf := range recoveryFiles(f) {
		if i%4 == 0 {
			f.Add([]byte(rf.src), uint32(i*7919))
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, at uint32) {
		if len(src) == 0 || len(src) > 1<<14 || !indented(string(src)) {
			return
		}
		rf, ok := newRecoveryFile(t, "/fuzz/nginx.conf", string(src))
		if !ok || slices.ContainsFunc(rf.want, func(f placed) bool { return f.code == rules.UnknownDirective.Code }) {
			return
		}
		if msg := rf.check(int(at % uint32(len(src)))); msg != "" {
			t.Fatalf("%s\n%s", msg, src)
		}
	})
}

// indented reports whether src is written a statement per line, each
// block's statements indented deeper than its head and its "}" as deep as
// the head (an empty block may close on its head's line).
func indented(src string) bool {
	f := parser.ParseString("/fuzz/nginx.conf", src, &parser.Options{Kinds: analyzer.Kinds, Faithful: true})
	ok := true
	eachDirective(f.Directives, func(d *parser.Directive) {
		head, hok := lineIndent(src, int(d.Name().Range.Start))
		if !hok {
			ok = false
		}
		if d.Block == nil || len(d.Block.Directives) == 0 {
			return
		}
		for _, c := range d.Block.Directives {
			in, cok := lineIndent(src, int(c.Name().Range.Start))
			if !cok || len(in) <= len(head) || !strings.HasPrefix(in, head) {
				ok = false
			}
		}
		if rb := d.RBrace(); rb >= 0 {
			if in, rok := lineIndent(src, int(rb)); !rok || in != head {
				ok = false
			}
		}
	})
	return ok
}

func lineIndent(src string, off int) (string, bool) {
	i := off
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t') {
		i--
	}
	if i > 0 && src[i-1] != '\n' {
		return "", false
	}
	return src[i:off], true
}
