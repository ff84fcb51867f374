package analyzer_test

import (
	"strings"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// TestValidateWhatARuleSays: a rule's Refuses, Host and Cost are checked
// with its identity: what nginx refuses is an error, a rule that checks
// this machine takes the check-files option, a cost rule is about
// performance.
func TestValidateWhatARuleSays(t *testing.T) {
	base := func(code string) *analyzer.Rule {
		return &analyzer.Rule{Code: code, Name: "a-rule", Title: "a rule", Severity: parser.Warning,
			Run: func(*analyzer.Pass) {}, Doc: analyzer.Doc{Text: "t", Bad: "x;", Good: "y;"}}
	}
	refuses := base("NL2990")
	refuses.Refuses = true
	host := base("NL2990")
	host.Host = true
	cost := base("NL3990")
	cost.Cost = true
	for _, tt := range []struct {
		r    *analyzer.Rule
		want string
	}{
		{refuses, "severity is error"},
		{host, "declares CheckFilesOption"},
		{cost, "performance category"},
	} {
		if err := tt.r.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want %q", tt.r, err, tt.want)
		}
	}
	refuses.Severity = parser.Error
	host.Options = []analyzer.Option{analyzer.CheckFilesOption.Decl()}
	cost.Code = "NL4990"
	for _, r := range []*analyzer.Rule{refuses, host, cost} {
		if err := r.Validate(); err != nil {
			t.Error(err)
		}
	}
}

// TestTypedOptions: a handle declares the option as the settings and the
// reference see it (its default written as a user would) and reads the
// value with its type: the settings' (converted, if a test gives it raw),
// else the default.
func TestTypedOptions(t *testing.T) {
	n := analyzer.IntOption("max-things", 100, "doc")
	d := analyzer.DurationOption("budget", time.Second, "doc")
	l := analyzer.StringListOption("names", []string{"a", "b"}, "doc").Renamed("old-names")
	for _, tt := range []struct {
		o          analyzer.Option
		typ        analyzer.OptionType
		def        string
		deprecated int
	}{
		{n.Decl(), analyzer.IntType, "100", 0},
		{d.Decl(), analyzer.DurationType, "1s", 0},
		{l.Decl(), analyzer.StringListType, "[a, b]", 1},
	} {
		if tt.o.Type != tt.typ || tt.o.Default != tt.def || len(tt.o.Deprecated) != tt.deprecated {
			t.Errorf("%+v", tt.o)
		}
	}
	var got []string
	rule := &analyzer.Rule{Code: "NL5990", Name: "reads-options", Title: "reads options",
		Options: []analyzer.Option{n.Decl(), d.Decl(), l.Decl()},
		Doc:     analyzer.Doc{Text: "t", Bad: "x;", Good: "y;"},
		Run: func(p *analyzer.Pass) {
			got = append(got, strings.Join([]string{
				time.Duration(n.Get(p)).String(), d.Get(p).String(), strings.Join(l.Get(p), "+"),
			}, " "))
			if d.Given(p) {
				got = append(got, "budget given")
			}
		}}
	p := &analyzer.Pass{Rule: rule}
	rule.Run(p)
	p.Options = map[string]any{"max-things": 7, "budget": "2s", "names": []any{"x"}}
	rule.Run(p)
	want := []string{"100ns 1s a+b", "7ns 2s x", "budget given"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}
