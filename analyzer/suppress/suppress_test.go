package suppress_test

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/internal/testfiles"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/internal/door"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/analyzer/suppress"
	"github.com/nginx-lint/nginx-lint/parser"
)

// lint loads files (the first is the main config) from a temporary
// directory, runs every rule and the suppression filter.
func lint(t *testing.T, files map[string]string, main string) (kept, extra []*parser.Diagnostic) {
	t.Helper()
	dir := t.TempDir()
	testfiles.Write(t, dir, files)
	path := filepath.Join(dir, main)
	probe := parser.ParseString(path, files[main], nil)
	_, ancestors := analyzer.InferContext(probe)
	c, err := (&parser.Loader{Kinds: analyzer.Kinds}).LoadContext(path, ancestors)
	if err != nil {
		t.Fatal(err)
	}
	// The rules' findings before any suppression (lint.Run would apply
	// it), with the parser's, in lint.Run's order.
	ds, _ := analyzer.RunRules(door.Key{}, c, testRules, analyzer.Options{})
	ds = append(slices.Clone(c.AllDiagnostics()), ds...)
	slices.SortStableFunc(ds, func(a, b *parser.Diagnostic) int {
		return cmp.Or(strings.Compare(a.FilePath(), b.FilePath()), cmp.Compare(a.Range.Start, b.Range.Start), strings.Compare(a.Code, b.Code))
	})
	return suppress.Apply(c, ds, known)
}

// testRules are the rules these tests are written against, so that rules
// added later do not change what the cases find.
var testRules, _ = analyzer.NewRegistry(rules.UnknownDirective, rules.DirectiveNotAllowed, rules.InvalidArguments)

// known accepts the registered rules and the suppression rules, which the
// registry may not list yet.
func known(k string) bool {
	if rules.All().Lookup(k) != nil {
		return true
	}
	return slices.ContainsFunc(suppress.Rules(), func(r *analyzer.Rule) bool { return r.Name == k || strings.EqualFold(r.Code, k) })
}

// summary renders findings as "base:line name" for comparison.
func summary(ds []*parser.Diagnostic) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s:%d %s", filepath.Base(d.FilePath()), d.Start().Line, d.Name))
	}
	return out
}

func TestApply(t *testing.T) {
	tests := []struct {
		name        string
		src         string
		kept, extra []string
	}{
		{
			name: "no comments",
			src:  "events {}\nhttp {\n    gzipp on;\n}\n",
			kept: []string{"nginx.conf:3 unknown-directive"},
		},
		{
			name: "leading comment by name",
			src:  "events {}\nhttp {\n    # nginx-lint ignore=unknown-directive our module\n    gzipp on;\n    gzipq on;\n}\n",
			kept: []string{"nginx.conf:5 unknown-directive"},
		},
		{
			name: "leading comment by code, lower case",
			src:  "events {}\nhttp {\n    # nginx-lint ignore=nl2001 our module\n    gzipp on;\n}\n",
		},
		{
			name: "trailing comment covers its directive only",
			src:  "events {}\nhttp {\n    gzipp on; # nginx-lint ignore=unknown-directive our module\n    gzipq on;\n}\n",
			kept: []string{"nginx.conf:4 unknown-directive"},
		},
		{
			name: "block and everything in it",
			src: "events {}\n# nginx-lint ignore=unknown-directive,directive-not-allowed vendor config\nhttp {\n    gzipp on;\n" +
				"    server {\n        gzipq on;\n        proxy_pass http://x;\n    }\n}\ngzipr on;\n",
			kept: []string{"nginx.conf:10 unknown-directive"},
		},
		{
			name:  "other rule not covered",
			src:   "events {}\nhttp {\n    # nginx-lint ignore=invalid-arguments reason\n    gzipp on;\n    gzip maybe;\n}\n",
			kept:  []string{"nginx.conf:4 unknown-directive", "nginx.conf:5 invalid-arguments"},
			extra: []string{"nginx.conf:3 unused-ignore"},
		},
		{
			name:  "missing reason still suppresses",
			src:   "events {}\nhttp {\n    # nginx-lint ignore=unknown-directive\n    gzipp on;\n}\n",
			extra: []string{"nginx.conf:3 ignore-without-reason"},
		},
		{
			name:  "file-ignore anywhere",
			src:   "events {}\nhttp {\n    gzipp on;\n}\nhttp2x on;\n# nginx-lint file-ignore=unknown-directive generated file\n",
			extra: nil,
		},
		{
			name:  "unused ignore",
			src:   "events {}\nhttp {\n    # nginx-lint ignore=unknown-directive was needed once\n    gzip on;\n}\n",
			extra: []string{"nginx.conf:3 unused-ignore"},
		},
		{
			name:  "one name of two unused",
			src:   "events {}\nhttp {\n    # nginx-lint ignore=unknown-directive,invalid-arguments x\n    gzipp on;\n}\n",
			extra: []string{"nginx.conf:3 unused-ignore"},
		},
		{
			name:  "unknown rule",
			src:   "events {}\nhttp {\n    # nginx-lint ignore=no-such-rule reason\n    gzip on;\n}\n",
			extra: []string{"nginx.conf:3 invalid-ignore"},
		},
		{
			name:  "malformed",
			src:   "events {}\nhttp {\n    # nginx-lint ignroe=unknown-directive reason\n    gzipp on;\n}\n",
			kept:  []string{"nginx.conf:4 unknown-directive"},
			extra: []string{"nginx.conf:3 invalid-ignore"},
		},
		{
			name:  "end of block covers nothing",
			src:   "events {}\nhttp {\n    gzipp on;\n    # nginx-lint ignore=unknown-directive reason\n}\n",
			kept:  []string{"nginx.conf:3 unknown-directive"},
			extra: []string{"nginx.conf:4 unused-ignore"},
		},
		{
			name: "block left open at the end of the file",
			src:  "events {}\n# nginx-lint ignore=unknown-directive vendor\nhttp {\n    gzipp on;\n",
			kept: []string{"nginx.conf:5 syntax-error"},
		},
		{
			name: "ordinary comments left alone",
			src:  "# nginx-linter is a tool\n# see nginx-lint docs\nevents {}\nhttp {\n    gzip on;\n}\n",
			// "see nginx-lint docs" does not start with the marker.
		},
		{
			name:  "colon after the marker",
			src:   "events {}\nhttp {\n    # nginx-lint: ignore=unknown-directive reason\n    gzipp on;\n}\n",
			kept:  []string{"nginx.conf:4 unknown-directive"},
			extra: []string{"nginx.conf:3 invalid-ignore"},
		},
		{
			name:  "marker alone",
			src:   "# nginx-lint\nevents {}\n",
			extra: []string{"nginx.conf:1 invalid-ignore"},
		},
		{
			name: "disable= is ignore= (shellcheck, hadolint)",
			src:  "events {}\nhttp {\n    # nginx-lint disable=unknown-directive our module\n    gzipp on;\n    gzipq on;\n}\n",
			kept: []string{"nginx.conf:5 unknown-directive"},
		},
		{
			name: "file-disable= is file-ignore=",
			src:  "events {}\nhttp {\n    gzipp on;\n}\nhttp2x on;\n# nginx-lint file-disable=unknown-directive generated file\n",
		},
		{
			name:  "disable= without a reason",
			src:   "events {}\nhttp {\n    gzipp on; # nginx-lint disable=unknown-directive\n}\n",
			extra: []string{"nginx.conf:3 ignore-without-reason"},
		},
		{
			name: "file-ignore silences findings about comments",
			src:  "# nginx-lint file-ignore=unused-ignore shared snippet\nevents {}\nhttp {\n    # nginx-lint ignore=unknown-directive x\n    gzip on;\n}\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept, extra := lint(t, map[string]string{"nginx.conf": tt.src}, "nginx.conf")
			if got, want := summary(kept), append([]string{}, tt.kept...); !slices.Equal(got, want) {
				t.Errorf("kept %q, want %q", got, want)
			}
			if got, want := summary(extra), append([]string{}, tt.extra...); !slices.Equal(got, want) {
				t.Errorf("extra %q, want %q", got, want)
			}
		})
	}
}

// A comment without a reason is an info, which no default gate fails on;
// require-reason makes it the warning it was; the unused-ignore message
// uses the comment's own spelling.
func TestMissingReasonSeverity(t *testing.T) {
	src := "events {}\nhttp {\n    # nginx-lint disable=unknown-directive\n    gzipp on;\n    # nginx-lint disable=invalid-arguments old\n    gzip on;\n}\n"
	c := (&parser.Loader{Kinds: analyzer.Kinds}).LoadSource("/x/nginx.conf", []byte(src), nil)
	ds, _ := analyzer.RunRules(door.Key{}, c, testRules, analyzer.Options{})
	for _, tc := range []struct {
		require bool
		want    parser.Severity
	}{{false, parser.Info}, {true, parser.Warning}} {
		s := &suppress.Suppressor{Known: known, RequireReason: tc.require}
		kept, extra := s.Apply(c, ds)
		if len(kept) != 0 || len(extra) != 2 {
			t.Fatalf("require-reason %v: kept %q, extra %q", tc.require, summary(kept), summary(extra))
		}
		if d := extra[0]; d.Name != "ignore-without-reason" || d.Severity != tc.want {
			t.Errorf("require-reason %v: %s at %v, want ignore-without-reason at %v", tc.require, d.Name, d.Severity, tc.want)
		}
		if d := extra[1]; d.Name != "unused-ignore" || d.Message != "disable=invalid-arguments matches no finding" {
			t.Errorf("unused: %s %q", d.Name, d.Message)
		}
	}
	if suppress.IgnoreWithoutReason.Severity != parser.Info {
		t.Errorf("ignore-without-reason's default severity is %v, want info", suppress.IgnoreWithoutReason.Severity)
	}
}

func TestFileIgnoreStaysInItsFile(t *testing.T) {
	files := map[string]string{
		"nginx.conf": "# nginx-lint file-ignore=unknown-directive legacy main file\nevents {}\nhttp {\n    gzipp on;\n    include inc.conf;\n}\n",
		"inc.conf":   "gzipq on;\n",
	}
	kept, extra := lint(t, files, "nginx.conf")
	if got := summary(kept); !slices.Equal(got, []string{"inc.conf:1 unknown-directive"}) {
		t.Errorf("kept %q", got)
	}
	if len(extra) != 0 {
		t.Errorf("extra %q", summary(extra))
	}
}

func TestIgnoreInIncludedFile(t *testing.T) {
	files := map[string]string{
		"nginx.conf": "events {}\nhttp {\n    include inc.conf;\n}\n",
		"inc.conf":   "# nginx-lint ignore=unknown-directive vendor\ngzipq on;\ngzipr on;\n",
	}
	kept, _ := lint(t, files, "nginx.conf")
	if got := summary(kept); !slices.Equal(got, []string{"inc.conf:3 unknown-directive"}) {
		t.Errorf("kept %q", got)
	}
}

func TestRanSkipsDisabledRules(t *testing.T) {
	src := "events {}\nhttp {\n    # nginx-lint ignore=unknown-directive reason\n    gzip on;\n}\n"
	c := (&parser.Loader{Kinds: analyzer.Kinds}).LoadSource("/x/nginx.conf", []byte(src), nil)
	s := &suppress.Suppressor{Ran: func(n string) bool { return n != "unknown-directive" }}
	if _, extra := s.Apply(c, nil); len(extra) != 0 {
		t.Errorf("ignore of a disabled rule reported: %q", summary(extra))
	}
	if _, extra := (&suppress.Suppressor{}).Apply(c, nil); len(extra) != 1 {
		t.Errorf("without Ran: %q, want one unused-ignore", summary(extra))
	}
}

// TestRuleDocs checks the documented examples of the suppression rules the
// way the rules package checks every rule's: bad fires, good stays quiet.
func TestRuleDocs(t *testing.T) {
	for _, r := range suppress.Rules() {
		if err := r.Validate(); err != nil {
			t.Error(err)
		}
		fires := func(src string) bool {
			_, extra := lint(t, map[string]string{"nginx.conf": src}, "nginx.conf")
			return slices.ContainsFunc(extra, func(d *parser.Diagnostic) bool { return d.Code == r.Code })
		}
		if !fires(r.Doc.Bad) {
			t.Errorf("%s: bad example does not fire", r.Name)
		}
		if fires(r.Doc.Good) {
			t.Errorf("%s: good example fires", r.Name)
		}
		if rules.All().Lookup(r.Code) != nil && rules.All().Lookup(r.Code) != r {
			t.Errorf("%s: code taken by another rule", r.Code)
		}
		if !strings.HasPrefix(r.Code, "NL5") {
			t.Errorf("%s: not a style code", r.Code)
		}
	}
}

// Other linters' suppression forms get the exact form nginx-lint reads,
// and an edit that writes it.
func TestOtherStyleSuggestsAcceptedForm(t *testing.T) {
	for _, tc := range []struct{ comment, want, fixed string }{
		{"# nginx-lint:ignore server_tokens_enabled legacy proxy", "", ""},
		{"# nginx-lint:ignore version-disclosure legacy proxy", `nginx-lint reads this as "nginx-lint ignore=version-disclosure legacy proxy"`, "# nginx-lint ignore=version-disclosure legacy proxy"},
		{"# nginx-lint: ignore=version_disclosure,NL2001 why", `"nginx-lint ignore=version-disclosure,NL2001 why"`, "# nginx-lint ignore=version-disclosure,NL2001 why"},
		{"# nginx-lint ignore version-disclosure why not", `"nginx-lint ignore=version-disclosure why not"`, "# nginx-lint ignore=version-disclosure why not"},
		{"# nginx-lint:disable-file version-disclosure generated", `"nginx-lint file-disable=version-disclosure generated"`, "# nginx-lint file-disable=version-disclosure generated"},
		{"# nginx-lint disable version-disclosure why", `"nginx-lint disable=version-disclosure why"`, "# nginx-lint disable=version-disclosure why"},
		{"# nginx-lint:ignore version-disclosure", `with a reason after the names`, ""},
	} {
		src := "events {}\nhttp {\n    " + tc.comment + "\n    server_tokens on;\n}\n"
		_, extra := lint(t, map[string]string{"nginx.conf": src}, "nginx.conf")
		if len(extra) != 1 || extra[0].Name != "invalid-ignore" {
			t.Errorf("%s: extra %q", tc.comment, summary(extra))
			continue
		}
		d := extra[0]
		if tc.want == "" {
			if len(d.Edits) != 0 || !strings.Contains(d.Message, "cannot read") {
				t.Errorf("%s: unknown rule name: %q with %d edits", tc.comment, d.Message, len(d.Edits))
			}
			continue
		}
		if !strings.Contains(d.Message, tc.want) {
			t.Errorf("%s: message %q, want %q", tc.comment, d.Message, tc.want)
		}
		if tc.fixed == "" {
			if len(d.Edits) != 0 {
				t.Errorf("%s: an edit without a reason", tc.comment)
			}
			continue
		}
		if len(d.Edits) != 1 {
			t.Fatalf("%s: %d edits", tc.comment, len(d.Edits))
		}
		e := d.Edits[0]
		got := e.File.Src[:e.Range.Start] + e.NewText + e.File.Src[e.Range.End:]
		if !strings.Contains(got, "\n    "+tc.fixed+"\n    server_tokens on;") {
			t.Errorf("%s: fixed text\n%s", tc.comment, got)
		}
	}
}
