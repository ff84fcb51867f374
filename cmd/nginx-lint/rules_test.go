package main

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/internal/report"
)

// TestRulesJSON: "rules --format json" lists every rule of the registry
// with its identity, category, documentation link and options.
func TestRulesJSON(t *testing.T) {
	code, out, errs := runCLI(t, "", "rules", "--format", "json")
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Rules []jsonRule `json:"rules"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatal(err)
	}
	all := rules.All().Rules()
	if len(got.Rules) != len(all) {
		t.Fatalf("%d rules, the registry has %d", len(got.Rules), len(all))
	}
	for i, r := range all {
		j := got.Rules[i]
		if j.Code != r.Code || j.Name != r.Name || j.Title != r.Title || j.Severity != r.Severity.String() ||
			j.Category != r.Category().String() || j.NginxURL != r.Doc.URL || j.Fixable != r.Fixable {
			t.Errorf("rule %d: %+v, want %s %s", i, j, r.Code, r.Name)
		}
		if j.DocsURL != report.RuleURL(r.Name) {
			t.Errorf("%s: docs_url %q", r.Name, j.DocsURL)
		}
		if len(j.Options) != len(r.Options) {
			t.Errorf("%s: %d options, want %d", r.Name, len(j.Options), len(r.Options))
			continue
		}
		for k, o := range r.Options {
			if jo := j.Options[k]; jo.Name != o.Name || jo.Default != o.Default || jo.Type != o.Type.String() || jo.Doc != o.Doc {
				t.Errorf("%s: option %+v, want %+v", r.Name, jo, o)
			}
		}
	}
	fixable := 0
	for _, j := range got.Rules {
		if j.Fixable {
			fixable++
		}
	}
	if fixable == 0 || fixable == len(got.Rules) {
		t.Errorf("%d of %d rules fixable", fixable, len(got.Rules))
	}
	// A rule without options has an empty list, not null; one with
	// options spells them out.
	if !strings.Contains(out, `"options": []`) {
		t.Error(`no rule has "options": []`)
	}
	budget := got.Rules[0]
	for _, j := range got.Rules {
		if j.Name == "startup-budget" {
			budget = j
		}
	}
	if len(budget.Options) == 0 || budget.Options[0].Name != "budget" || budget.Options[0].Default != "1s" || budget.Options[0].Type != "duration" {
		t.Errorf("startup-budget options %+v", budget.Options)
	}
}

// TestRenderMarkdown renders a page with every construct the rule pages
// use: headings, a wrapped paragraph with inline code and a link, a list
// with continuation lines, a fenced block and a table.
func TestRenderMarkdown(t *testing.T) {
	md := "# NL0000 some-rule\n\n" +
		"A `proxy_pass` with a path is\nrefused by nginx in a regex location, see [the docs](https://nginx.org/x) and `a | b`.\n\n" +
		"- first item, long enough to be wrapped onto a second line at forty columns;\n" +
		"- second\n  continued item.\n\n" +
		"## Bad\n\n```nginx\nlocation ~ x {\n    proxy_pass http://h/;\n}\n```\n\n" +
		"| Option | Type | Meaning |\n|---|---|---|\n| `budget` | duration | The startup time allowed \\| or not. |\n"
	var b strings.Builder
	if err := renderMarkdown(&b, md, 40, false); err != nil {
		t.Fatal(err)
	}
	want := `NL0000 some-rule
================

A proxy_pass with a path is refused by
nginx in a regex location, see the docs
(https://nginx.org/x) and a | b.

  - first item, long enough to be
    wrapped onto a second line at forty
    columns;
  - second continued item.

Bad
---

    location ~ x {
        proxy_pass http://h/;
    }

Option  Type      Meaning
budget  duration  The startup time
                  allowed | or not.
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	if err := renderMarkdown(&b, md, 40, true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\x1b[1mNL0000 some-rule") || !strings.Contains(b.String(), "\x1b[36mproxy_pass") {
		t.Errorf("colored: no bold heading or colored code:\n%q", b.String())
	}
}

// TestExplainFormats: explain prints the Markdown page off a terminal
// and with --format markdown, and renders it with --format text: every
// rule's page, no Markdown markup left, wrapped to $COLUMNS, the
// examples indented.
func TestExplainFormats(t *testing.T) {
	t.Setenv("COLUMNS", "60")
	for _, r := range rules.All().Rules() {
		md := report.RuleMarkdown(r)
		for _, args := range [][]string{{"explain", r.Name}, {"explain", "--format", "markdown", r.Code}} {
			if code, out, _ := runCLI(t, "", args...); code != exitClean || out != md {
				t.Errorf("%v: exit %d, not the Markdown page", args, code)
			}
		}
		code, out, errs := runCLI(t, "", "explain", "-f", "text", r.Name)
		if code != exitClean {
			t.Fatalf("%s: exit %d: %s", r.Name, code, errs)
		}
		if !strings.HasPrefix(out, r.Code+" "+r.Name+"\n===") {
			t.Errorf("%s: starts %q", r.Name, out[:min(len(out), 40)])
		}
		lines := map[string]bool{}
		for _, line := range strings.Split(out, "\n") {
			lines[line] = true
		}
		examples := map[string]bool{}
		for _, l := range strings.Split(r.Doc.Bad+r.Doc.Good, "\n") {
			if l != "" {
				examples["    "+l] = true
				if !lines["    "+l] {
					t.Errorf("%s: example line %q is not in the output indented by four spaces", r.Name, l)
				}
			}
		}
		for _, line := range strings.Split(out, "\n") {
			if examples[line] {
				continue // examples are kept as they are: not wrapped
			}
			if strings.Contains(line, "```") || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "|") || strings.Contains(line, "`") {
				t.Errorf("%s: Markdown left in %q", r.Name, line)
			}
			if n := utf8.RuneCountInString(line); n > 60 && strings.Contains(strings.TrimSpace(line), " ") {
				t.Errorf("%s: %d columns: %q", r.Name, n, line)
			}
		}
	}
}

// FuzzRenderMarkdown: any text renders without a panic (the first run
// found a list marker followed by spaces only).
func FuzzRenderMarkdown(f *testing.F) {
	for _, r := range rules.All().Rules()[:10] {
		f.Add(report.RuleMarkdown(r), 40)
	}
	f.Add("| a |\n|---|\n| `x` \\| y |\n- [l](u\n```\nunterminated", 20)
	f.Add("`` a ` b `` [x](y) **z** __w__ 1. one\n10. ten", 0)
	f.Fuzz(func(t *testing.T, md string, width int) {
		var b strings.Builder
		if err := renderMarkdown(&b, md, width%200, false); err != nil {
			t.Fatal(err)
		}
	})
}

// TestRenderTableNarrow: when the other columns leave the last one less
// than 20 columns, its text goes under each row, indented.
func TestRenderTableNarrow(t *testing.T) {
	md := "| Option | Type of the value | Default value |\n|---|---|---|\n| `max-server-names` | integer | 100 servers and then some |\n"
	var b strings.Builder
	if err := renderMarkdown(&b, md, 40, false); err != nil {
		t.Fatal(err)
	}
	want := `Option            Type of the value  Default value
max-server-names  integer
      100 servers and then some
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}
