// Package suppress applies the suppression comments of a configuration to
// its findings:
//
//	# nginx-lint ignore=NAME[,NAME] reason
//	# nginx-lint file-ignore=NAME[,NAME] reason
//
// disable= and file-disable= are the same as ignore= and file-ignore=
// (shellcheck's and hadolint's spelling).
//
// An ignore comment on the line(s) above a directive covers that directive
// and, for a block directive, everything in its block; one at the end of a
// directive's line covers that directive. A file-ignore comment anywhere in
// a file covers the whole file (not the files it includes). NAME is a rule
// name or code.
//
// Suppression is a filter over finished findings rather than something the
// rules know about, so every rule gets it for free and the command line and
// the language server share one implementation. The filter also reports the
// comments themselves when they are wrong: without a reason, naming no
// rule, or matching nothing.
package suppress

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// The findings about suppression comments. Their Run does nothing: Apply
// reports them, because only it sees which comments matched. They are
// Rule values so that they are listed, explained, disabled and re-ranked
// like any other rule.
var (
	// IgnoreWithoutReason is an ignore comment that does not say why.
	IgnoreWithoutReason = &analyzer.Rule{
		Code: "NL5001", Name: "ignore-without-reason", Title: "suppression comment without a reason", Severity: parser.Info,
		Options: []analyzer.Option{RequireReason.Decl()},
		Run:     reportedByApply,
		Doc: analyzer.Doc{
			Text: "A `# nginx-lint ignore=NAME` or `file-ignore=NAME` comment should be followed by a few " +
				"words saying why the finding does not apply, so the next reader can judge whether it " +
				"still holds. The comment still suppresses the finding. A missing reason is an info, " +
				"which no default gate fails on; the option `require-reason: true` makes it a warning " +
				"(`rules: {ignore-without-reason: {options: {require-reason: true}}}`), and a severity " +
				"set for the rule wins over both.",
			Bad:  "events {}\nhttp {\n    # nginx-lint ignore=unknown-directive\n    my_module_flag on;\n}\n",
			Good: "events {}\nhttp {\n    # nginx-lint ignore=unknown-directive built with our own module\n    my_module_flag on;\n}\n",
		},
	}
	// UnusedIgnore is an ignore comment that suppressed nothing.
	UnusedIgnore = &analyzer.Rule{
		Code: "NL5002", Name: "unused-ignore", Title: "suppression comment matches no finding", Severity: parser.Warning,
		Run: reportedByApply,
		Doc: analyzer.Doc{
			Text: "The rule named in the comment reported nothing where the comment applies: the " +
				"problem was fixed, the comment is above the wrong directive, or the name is wrong. " +
				"Remove the comment (or move it) so it cannot hide a future finding.",
			Bad:  "events {}\nhttp {\n    # nginx-lint ignore=unknown-directive was a custom module\n    gzip on;\n}\n",
			Good: "events {}\nhttp {\n    gzip on;\n}\n",
		},
	}
	// InvalidIgnore is a comment that starts like a suppression but cannot
	// be read as one, or names no rule.
	InvalidIgnore = &analyzer.Rule{
		Code: "NL5003", Name: "invalid-ignore", Title: "malformed suppression comment", Severity: parser.Warning,
		Fixable: true,
		Run:     reportedByApply,
		Doc: analyzer.Doc{
			Text: "A comment starting with `nginx-lint` must read `ignore=NAME[,NAME] reason` or " +
				"`file-ignore=NAME[,NAME] reason` (or `disable=` and `file-disable=`, shellcheck's and " +
				"hadolint's spelling), where each NAME is a rule name or code " +
				"(`nginx-lint rules` lists them). Anything else suppresses nothing. Another " +
				"linter's form (`# nginx-lint:ignore RULE reason`, as walf443/nginx-lint writes it, " +
				"or `ignore RULE` without `=`) is answered with the exact form nginx-lint reads, " +
				"snake_case rule names turned to kebab-case, and a fix that rewrites the comment.",
			Bad:  "events {}\nhttp {\n    # nginx-lint ignore=no-such-rule legacy\n    gzip on;\n}\n",
			Good: "events {}\nhttp {\n    # nginx-lint ignore=unknown-directive built with our own module\n    my_module_flag on;\n}\n",
		},
	}
)

// RequireReason is ignore-without-reason's option that makes a
// suppression comment without a reason a warning rather than an info.
var RequireReason = analyzer.BoolOption("require-reason", false,
	"Report a suppression comment without a reason as a warning, not an info.")

// Rules returns the rules whose findings Apply reports.
func Rules() []*analyzer.Rule {
	return []*analyzer.Rule{IgnoreWithoutReason, UnusedIgnore, InvalidIgnore}
}

func reportedByApply(*analyzer.Pass) {}

// Marker is the word that starts a suppression comment.
const Marker = "nginx-lint"

// Suppressor holds what Apply needs to know about the rule set.
type Suppressor struct {
	// Known reports whether a name or code is a rule. A name it rejects
	// makes an invalid-ignore finding. Nil accepts every name.
	Known func(nameOrCode string) bool
	// Ran reports whether the named rule ran. An ignore of a rule that
	// did not run (disabled in the configuration) cannot match and is not
	// reported as unused. Nil means every rule ran.
	Ran func(nameOrCode string) bool
	// RequireReason makes a comment without a reason a warning rather
	// than an info (ignore-without-reason's option require-reason).
	RequireReason bool
}

// Apply filters ds through the suppression comments of c. kept are the
// findings no comment covers, in their order; extra are the findings about
// the comments (ignore-without-reason, unused-ignore, invalid-ignore),
// ordered by position. known may be nil.
func Apply(c *parser.Config, ds []*parser.Diagnostic, known func(nameOrCode string) bool) (kept, extra []*parser.Diagnostic) {
	return (&Suppressor{Known: known}).Apply(c, ds)
}

// ignore is one parsed suppression comment.
type ignore struct {
	comment *parser.Comment
	file    *parser.File
	whole   bool              // file-ignore
	key     string            // as written: ignore, file-ignore, disable, file-disable
	target  *parser.Directive // what an ignore covers, with its block; nil: nothing
	names   []string
	used    []bool // per name
}

// match reports whether the ignore names d's rule, marking the name used.
func (ig *ignore) match(d *parser.Diagnostic) bool {
	hit := false
	for i, n := range ig.names {
		if n == d.Name || strings.EqualFold(n, d.Code) {
			ig.used[i] = true
			hit = true
		}
	}
	return hit
}

// Apply is the package-level Apply with s's knowledge of the rules.
func (s *Suppressor) Apply(c *parser.Config, ds []*parser.Diagnostic) (kept, extra []*parser.Diagnostic) {
	var igs []*ignore
	for _, f := range c.Files {
		forEachComment(f, func(cm *parser.Comment) {
			ig, problems := s.parse(f, cm)
			extra = append(extra, problems...)
			if ig != nil {
				igs = append(igs, ig)
			}
		})
	}
	if len(igs) == 0 {
		return ds, extra
	}
	// Ignores are indexed by the directive they cover, so a finding is
	// checked against the few comments on its enclosing directives rather
	// than every comment of its file.
	wholeFile := map[*parser.File][]*ignore{}
	byTarget := map[*parser.Directive][]*ignore{}
	for _, ig := range igs {
		switch {
		case ig.whole:
			wholeFile[ig.file] = append(wholeFile[ig.file], ig)
		case ig.target != nil:
			byTarget[ig.target] = append(byTarget[ig.target], ig)
		}
	}
	suppressed := func(d *parser.Diagnostic) bool {
		if d.File == nil {
			return false
		}
		hit := false
		// Every covering comment is marked used, not only the first, so
		// a redundant pair is not reported as unused.
		for _, ig := range wholeFile[d.File] {
			hit = ig.match(d) || hit
		}
		if len(byTarget) == 0 {
			return hit
		}
		for _, dir := range enclosing(d.File.Directives, int(d.Range.Start)) {
			for _, ig := range byTarget[dir] {
				hit = ig.match(d) || hit
			}
		}
		return hit
	}
	kept = make([]*parser.Diagnostic, 0, len(ds))
	for _, d := range ds {
		if !suppressed(d) {
			kept = append(kept, d)
		}
	}
	for _, ig := range igs {
		for i, n := range ig.names {
			if ig.used[i] || (s.Ran != nil && !s.Ran(n)) {
				continue
			}
			extra = append(extra, report(UnusedIgnore, ig.file, ig.comment,
				fmt.Sprintf("%s=%s matches no finding", ig.key, n)))
		}
	}
	// A file-ignore may silence the findings about comments too (for
	// example unused-ignore in a shared snippet).
	var out []*parser.Diagnostic
	for _, d := range extra {
		if !suppressed(d) {
			out = append(out, d)
		}
	}
	sortByPosition(out)
	return kept, out
}

// parse reads one comment. It returns nil for ordinary comments and for
// suppression comments that cannot be used, with findings about the
// latter.
func (s *Suppressor) parse(f *parser.File, cm *parser.Comment) (*ignore, []*parser.Diagnostic) {
	text := strings.TrimSpace(cm.Text)
	rest, ok := strings.CutPrefix(text, Marker)
	if !ok {
		return nil, nil
	}
	colon := false
	switch {
	case rest == "" || rest[0] == ' ' || rest[0] == '\t':
	case rest[0] == ':':
		colon = true
		rest = rest[1:]
	default:
		// "nginx-lint-foo" or "nginx-linter" is not ours.
		return nil, nil
	}
	rest = strings.TrimSpace(rest)
	key, value, hasEq := strings.Cut(rest, "=")
	whole := false
	switch {
	case colon || !hasEq || strings.ContainsAny(key, " \t"):
		// Other linters' style ("# nginx-lint:ignore RULE reason", as
		// walf443/nginx-lint writes it): name the accepted form, and
		// offer it as the fix.
		return nil, []*parser.Diagnostic{s.otherStyle(f, cm, text, rest)}
	case key == "ignore" || key == "disable":
	case key == "file-ignore" || key == "file-disable":
		whole = true
	default:
		return nil, []*parser.Diagnostic{report(InvalidIgnore, f, cm,
			fmt.Sprintf("cannot read %q: want \"%s ignore=NAME[,NAME] reason\" or \"file-ignore=...\"", text, Marker))}
	}
	list, reason, _ := strings.Cut(value, " ")
	if i := strings.IndexByte(list, '\t'); i >= 0 {
		list, reason = list[:i], list[i+1:]+" "+reason
	}
	reason = strings.TrimSpace(reason)
	var problems []*parser.Diagnostic
	ig := &ignore{comment: cm, file: f, whole: whole, key: key}
	for n := range strings.SplitSeq(list, ",") {
		n = strings.TrimSpace(n)
		switch {
		case n == "":
			continue
		case s.Known != nil && !s.Known(n):
			problems = append(problems, report(InvalidIgnore, f, cm, fmt.Sprintf("no rule %q (see nginx-lint rules)", n)))
			continue
		}
		ig.names = append(ig.names, n)
	}
	if len(ig.names) == 0 && len(problems) == 0 {
		problems = append(problems, report(InvalidIgnore, f, cm, "suppression comment names no rule"))
	}
	if reason == "" && len(ig.names) > 0 {
		d := report(IgnoreWithoutReason, f, cm,
			fmt.Sprintf("%s=%s does not say why; add a reason after the names", key, strings.Join(ig.names, ",")))
		if s.RequireReason {
			d.Severity = parser.Warning
		}
		problems = append(problems, d)
	}
	if len(ig.names) == 0 {
		return nil, problems
	}
	ig.used = make([]bool, len(ig.names))
	// A comment at the end of a block precedes no directive (Directive is
	// nil): it covers nothing and will be reported unused.
	ig.target = cm.Directive
	return ig, problems
}

// otherStyle reports a suppression comment in another linter's form
// ("nginx-lint:ignore RULE reason", "nginx-lint ignore RULE reason") with
// the form nginx-lint reads, and an edit that rewrites it, when the words
// can be read as a keyword, rule names and a reason.
func (s *Suppressor) otherStyle(f *parser.File, cm *parser.Comment, text, rest string) *parser.Diagnostic {
	words := strings.Fields(strings.ReplaceAll(rest, "=", " "))
	kw := ""
	if len(words) > 0 {
		kw = strings.ToLower(words[0])
	}
	var key string
	switch kw {
	case "ignore", "ignore-next-line":
		key = "ignore"
	case "disable", "disable-next-line":
		key = "disable"
	case "file-ignore", "ignore-file":
		key = "file-ignore"
	case "file-disable", "disable-file":
		key = "file-disable"
	default:
		return report(InvalidIgnore, f, cm,
			fmt.Sprintf("cannot read %q: want \"%s ignore=NAME[,NAME] reason\" or \"file-ignore=...\"", text, Marker))
	}
	var names []string
	i := 1
	for ; i < len(words); i++ {
		var ok bool
		var list []string
		for n := range strings.SplitSeq(strings.Trim(words[i], ","), ",") {
			name, known := s.ruleName(n)
			if !known {
				break
			}
			list = append(list, name)
			ok = true
		}
		if !ok || len(list) == 0 {
			break
		}
		names = append(names, list...)
	}
	reason := strings.Join(words[i:], " ")
	if len(names) == 0 {
		return report(InvalidIgnore, f, cm,
			fmt.Sprintf("cannot read %q: write \"%s %s=NAME[,NAME] reason\"", text, Marker, key))
	}
	want := Marker + " " + key + "=" + strings.Join(names, ",")
	if reason != "" {
		want += " " + reason
	}
	d := report(InvalidIgnore, f, cm, fmt.Sprintf("nginx-lint reads this as %q", want))
	if reason == "" {
		d.Message = fmt.Sprintf("nginx-lint reads this as %q, with a reason after the names", want)
		return d
	}
	d.Edits = []parser.Edit{{File: f, Range: cm.Range, NewText: "# " + want}}
	return d
}

// ruleName returns the rule n names, trying the snake_case spelling other
// linters use as kebab-case too.
func (s *Suppressor) ruleName(n string) (string, bool) {
	if n == "" {
		return "", false
	}
	if s.Known == nil || s.Known(n) {
		return n, true
	}
	if k := strings.ReplaceAll(strings.ToLower(n), "_", "-"); s.Known(k) {
		return k, true
	}
	return "", false
}

func report(r *analyzer.Rule, f *parser.File, cm *parser.Comment, msg string) *parser.Diagnostic {
	return &parser.Diagnostic{File: f, Path: f.Path, Range: cm.Range, Severity: r.Severity,
		Code: r.Code, Name: r.Name, Message: msg}
}

// enclosing returns the directives among ds (and their blocks) whose
// extent contains off, outermost first. Directives of one block are in
// source order and do not overlap, so each level is a binary search.
func enclosing(ds []*parser.Directive, off int) []*parser.Directive {
	var chain []*parser.Directive
	for len(ds) > 0 {
		i := sort.Search(len(ds), func(i int) bool { return extentEnd(ds[i]) > off })
		if i == len(ds) || int(ds[i].Name().Range.Start) > off {
			break
		}
		chain = append(chain, ds[i])
		ds = ds[i].Children()
	}
	return chain
}

// extentEnd is where a directive's text ends: a block left open runs to
// the end of the file, or, recovered from a syntax error, to its last
// statement (parser.Directive.Extent), though Range stops at its "{".
func extentEnd(d *parser.Directive) int { return int(d.Extent().End) }

// forEachComment visits the comments of f at every depth.
func forEachComment(f *parser.File, fn func(*parser.Comment)) {
	for _, cm := range f.Comments {
		fn(cm)
	}
	var walk func([]*parser.Directive)
	walk = func(ds []*parser.Directive) {
		for _, d := range ds {
			if d.Block == nil {
				continue
			}
			for _, cm := range d.Block.Comments() {
				fn(cm)
			}
			walk(d.Block.Directives)
		}
	}
	walk(f.Directives)
}

func sortByPosition(ds []*parser.Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.FilePath() != b.FilePath() {
			return a.FilePath() < b.FilePath()
		}
		return a.Range.Start < b.Range.Start
	})
}
