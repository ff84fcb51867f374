package rules

import (
	"strings"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/internal/report"
	"github.com/nginx-lint/nginx-lint/parser"
)

// runWithOptions lints a whole config with one rule and its options and
// returns the messages.
func runWithOptions(t *testing.T, r *analyzer.Rule, src string, opts map[string]any) []string {
	t.Helper()
	f := parser.ParseString("/x/nginx.conf", src, nil)
	reg, err := analyzer.NewRegistry(r)
	if err != nil {
		t.Fatal(err)
	}
	checked, _, err := r.CheckOptions(opts)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range findings(&parser.Config{Main: f, Files: []*parser.File{f}}, reg,
		analyzer.Options{RuleOptions: map[string]map[string]any{r.Name: checked}}) {
		if d.Code == r.Code {
			out = append(out, d.Message)
		}
	}
	return out
}

func TestVersionDisclosureMissingOption(t *testing.T) {
	const unset = "events {}\nhttp {\n    server { listen 80; }\n}\n"
	if got := runWithOptions(t, VersionDisclosure, unset, nil); len(got) != 0 {
		t.Errorf("default options: %q", got)
	}
	got := runWithOptions(t, VersionDisclosure, unset, map[string]any{"missing": true})
	if len(got) != 1 || !strings.Contains(got[0], "is not set") {
		t.Errorf("missing: true: %q", got)
	}
	const off = "events {}\nhttp {\n    server_tokens off;\n    server { listen 80; }\n}\n"
	if got := runWithOptions(t, VersionDisclosure, off, map[string]any{"missing": true}); len(got) != 0 {
		t.Errorf("http sets it off: %q", got)
	}
}

func TestOriginsOptions(t *testing.T) {
	src := "if ($http_origin !~ '^https?://app\\.example\\.com$') { return 403; }\n"
	if got := runWithOptions(t, Origins, src, nil); len(got) != 0 {
		t.Errorf("no options: %q", got)
	}
	got := runWithOptions(t, Origins, src, map[string]any{"https-only": true})
	if len(got) != 1 || !strings.Contains(got[0], "plain http") {
		t.Errorf("https_only: %q", got)
	}
	got = runWithOptions(t, Origins, src, map[string]any{"domains": []any{"example.org"}})
	if len(got) != 1 || !strings.Contains(got[0], "not among the trusted domains") {
		t.Errorf("domains example.org: %q", got)
	}
	if got := runWithOptions(t, Origins, src, map[string]any{"domains": []any{"example.com"}}); len(got) != 0 {
		t.Errorf("domains example.com: %q", got)
	}
	if got := runWithOptions(t, Origins, src, map[string]any{"domains": []any{"*"}}); len(got) != 0 {
		t.Errorf("domains *: %q", got)
	}
}

// Every declared option of every rule is on the rule's page, which is
// what explain prints.
func TestExplainListsEveryOption(t *testing.T) {
	n := 0
	for _, r := range All().Rules() {
		page := report.RuleMarkdown(r)
		for _, o := range r.Options {
			n++
			if !strings.Contains(page, "| `"+o.Name+"` | "+o.Type.String()+" |") {
				t.Errorf("%s: option %s not listed:\n%s", r.Name, o.Name, page)
			}
		}
	}
	if n < 10 {
		t.Errorf("only %d options declared", n)
	}
}

func TestHSTSOptions(t *testing.T) {
	const src = "events {}\nhttp {\n" +
		"    server { listen 443 ssl; }\n" +
		"    server { listen 80; }\n" +
		"    server { listen 443 ssl; add_header Strict-Transport-Security \"max-age=63072000\" always; }\n" +
		"    server { listen 8443 ssl; add_header Strict-Transport-Security \"max-age=2592000\" always; }\n" +
		"}\n"
	// By default only the weak header: 30 days.
	got := runWithOptions(t, HSTS, src, nil)
	if len(got) != 1 || !strings.Contains(got[0], "max-age=2592000 is shorter than 15768000") {
		t.Errorf("default options: %q", got)
	}
	// require: also the HTTPS server without the header, not the plain one.
	got = runWithOptions(t, HSTS, src, map[string]any{"require": true})
	if len(got) != 2 || !strings.Contains(strings.Join(got, "\n"), "HTTPS server without Strict-Transport-Security") {
		t.Errorf("require: %q", got)
	}
	// A lower floor accepts 30 days.
	got = runWithOptions(t, HSTS, src, map[string]any{"min-max-age": 86400})
	if len(got) != 0 {
		t.Errorf("min-max-age 86400: %q", got)
	}
	// HSTS at http level covers every server.
	const inherited = "events {}\nhttp {\n    add_header Strict-Transport-Security \"max-age=63072000\" always;\n    server { listen 443 ssl; }\n}\n"
	if got := runWithOptions(t, HSTS, inherited, map[string]any{"require": true}); len(got) != 0 {
		t.Errorf("http-level header: %q", got)
	}
}

func TestVersionDisclosureServerLevelAndStream(t *testing.T) {
	missing := map[string]any{"missing": true}
	// Every server turns it off: nothing leaks, nothing to report.
	const allOff = "events {}\nhttp {\n    server { listen 80; server_tokens off; }\n    server { listen 81; server_tokens off; }\n}\n"
	if got := runWithOptions(t, VersionDisclosure, allOff, missing); len(got) != 0 {
		t.Errorf("every server off: %q", got)
	}
	// One server does not: the http block is reported.
	const oneOn = "events {}\nhttp {\n    server { listen 80; server_tokens off; }\n    server { listen 81; }\n}\n"
	if got := runWithOptions(t, VersionDisclosure, oneOn, missing); len(got) != 1 || !strings.Contains(got[0], "is not set") {
		t.Errorf("one server without: %q", got)
	}
	// stream has no server_tokens and no header: not this rule's finding.
	const stream = "events {}\nstream {\n    server_tokens on;\n}\n"
	if got := runWithOptions(t, VersionDisclosure, stream, nil); len(got) != 0 {
		t.Errorf("stream: %q", got)
	}
}

func TestFilesystemRootExposureConfigDir(t *testing.T) {
	// runWithOptions lints the text as /x/nginx.conf: /x is the
	// configuration directory.
	const src = "events {}\nhttp {\n    server {\n        listen 80;\n        root /x/;\n" +
		"        location /a/ { root /x/html; }\n        location /b/ { alias /x/../x/; }\n    }\n}\n"
	got := runWithOptions(t, FilesystemRootExposure, src, nil)
	if len(got) != 2 || !strings.Contains(got[0], "configuration directory /x") {
		t.Errorf("findings: %q", got)
	}
}

// TestOptionDefaults: every option a rule declares has a default that
// converts to its type (or none), since Pass.Option hands that default to
// the rule, which reads no other.
func TestOptionDefaults(t *testing.T) {
	n := 0
	for _, r := range All().Rules() {
		for i := range r.Options {
			o := &r.Options[i]
			if o.Default == "" {
				continue
			}
			if _, ok := o.DefaultValue(); !ok {
				t.Errorf("%s: option %s: default %q is not %s", r.Name, o.Name, o.Default, o.Type)
			}
			n++
		}
	}
	if n < 10 {
		t.Errorf("only %d options with defaults", n)
	}
	if DefaultStartupBudget != time.Second {
		t.Errorf("startup budget %v", DefaultStartupBudget)
	}
}
