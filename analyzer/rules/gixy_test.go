package rules_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/corpustest"
)

// gixyPlugins maps a gixy plugin folder of the corpus to the rule that
// makes the same check. Folders of gixy plugins that other rules cover
// (or no rule does yet) are not listed.
var gixyPlugins = map[string]string{
	"ssrf":                                "ssrf",
	"http_splitting":                      "http-splitting",
	"host_spoofing":                       "host-spoofing",
	"origins":                             "origins",
	"alias_traversal":                     "alias-traversal",
	"add_header_redefinition":             "add-header-redefinition",
	"add_header_multiline":                "add-header-multiline",
	"valid_referers":                      "valid-referers",
	"version_disclosure":                  "version-disclosure",
	"allow_without_deny":                  "allow-without-deny",
	"status_page_exposed":                 "status-page-exposed",
	"resolver_external":                   "resolver-external",
	"error_log_off":                       "error-log-off",
	"proxy_pass_normalized":               "proxy-pass-normalized",
	"return_bypasses_allow_deny":          "return-bypasses-allow-deny",
	"unanchored_regex":                    "unanchored-regex",
	"stale_dns_cache":                     "stale-dns-cache",
	"add_header_content_type":             "add-header-content-type",
	"invalid_regex":                       "invalid-regex",
	"if_is_evil":                          "if-is-evil",
	"hash_without_default":                "map-without-default",
	"default_server_flag":                 "implicit-default-server",
	"low_keepalive_requests":              "keepalive-requests-low",
	"missing_worker_processes":            "worker-processes-unset",
	"worker_rlimit_nofile_vs_connections": "worker-rlimit-nofile",
}

// gixyOptions turn on the opt-in rules the corpus measures.
var gixyOptions = map[string]map[string]any{"worker-processes-unset": {"report": true}}

// gixyUnmapped are the corpus's plugin folders no rule follows, with the
// reason (docs/security.md repeats them); TestGixyFoldersDecided keeps a
// new folder from going unnoticed.
var gixyUnmapped = map[string]string{
	"merge_slashes_on":      "merge_slashes on is nginx's default, and what makes location /admin/ also match //admin/; turning it off opens the bypass",
	"proxy_buffering_off":   "off is what server-sent events, long polling and streamed downloads need; a configuration does not say which responses are large",
	"try_files_is_evil_too": "a try_files stat() is served from the kernel's dentry cache; open_file_cache trades it for stale answers after deploys, a policy rather than a fault",
}

// gixyFloor records what the rules achieve on the corpus, in percent
// (recall, precision); the test fails if a rule drops below it.
// Three misses are deliberate: status_page_exposed_deny_only.conf ("deny
// all" alone closes the page to everyone), http_splitting's
// mapped_value.conf (a capture of $host, which cannot hold CR or LF:
// nginx rejects them in header values) and if_is_evil_break.conf
// ("rewrite ^ http://... break" is a redirect, which leaves the location
// at once: nginx redirects whenever the replacement starts with a
// scheme).
var gixyFloor = map[string][2]float64{
	"add-header-content-type":    {100, 100},
	"add-header-multiline":       {100, 100},
	"add-header-redefinition":    {100, 100},
	"alias-traversal":            {100, 100},
	"allow-without-deny":         {100, 100},
	"error-log-off":              {100, 100},
	"host-spoofing":              {100, 100},
	"http-splitting":             {93.3, 100},
	"if-is-evil":                 {50, 100},
	"invalid-regex":              {100, 100},
	"map-without-default":        {100, 100},
	"origins":                    {100, 100},
	"proxy-pass-normalized":      {100, 100},
	"resolver-external":          {100, 100},
	"return-bypasses-allow-deny": {100, 100},
	"ssrf":                       {100, 100},
	"stale-dns-cache":            {100, 100},
	"status-page-exposed":        {80, 100},
	"unanchored-regex":           {100, 100},
	"valid-referers":             {100, 100},
	"version-disclosure":         {100, 100},
	"implicit-default-server":    {100, 100},
	"keepalive-requests-low":     {100, 100},
	"worker-processes-unset":     {100, 100},
	"worker-rlimit-nofile":       {100, 100},
}

// gixyFindings lists the positive cases that rightly make more than one
// finding, with their number; every other positive case must make one.
var gixyFindings = map[string]int{
	// Two ifs in one location, an add_header in each: gixy reports both.
	"if_is_evil/if_is_evil_add_header.conf": 2,
}

// gixyScore is one rule's result over its plugin folder.
type gixyScore struct {
	positives, found, once int // positive cases, those that fired, those that fired as often as expected
	guards, alarms         int // _fp cases, those that fired
	missed, noisy          []string
}

func (s gixyScore) recall() float64 { return pct(s.found, s.positives) }
func (s gixyScore) precision() float64 {
	return pct(s.found, s.found+s.alarms)
}

func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

// lintGixyCase lints one corpus case the way the command line would: a
// "nginx -T" dump through LoadDump, anything else with inferred context.
// A first line "# Options: {json}" gives the rule's options.
func lintGixyCase(t *testing.T, path string, rule *analyzer.Rule) []*parser.Diagnostic {
	t.Helper()
	return lintCase(t, path, rule, nil)
}

// lintCase is lintGixyCase for the nginx build target (nil: the newest
// nginx, no build named).
func lintCase(t *testing.T, path string, rule *analyzer.Rule, target *analyzer.Target) []*parser.Diagnostic {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	opts := analyzer.Options{Target: target}
	if o, ok := gixyOptions[rule.Name]; ok {
		opts.RuleOptions = map[string]map[string]any{rule.Name: o}
	}
	if first, _, _ := strings.Cut(string(src), "\n"); strings.HasPrefix(first, "# Options:") {
		var o map[string]any
		if err := json.Unmarshal([]byte(strings.TrimPrefix(first, "# Options:")), &o); err != nil {
			t.Fatalf("%s: options: %v", path, err)
		}
		checked, _, err := rule.CheckOptions(o)
		if err != nil {
			t.Fatalf("%s: options: %v", path, err)
		}
		opts.RuleOptions = map[string]map[string]any{rule.Name: checked}
	}
	l := &parser.Loader{Kinds: analyzer.Kinds}
	var c *parser.Config
	if files, ok := parser.SplitDump(src); ok {
		c = l.LoadDump(path, files)
	} else {
		_, ancestors := analyzer.InferContext(parser.ParseFile(path, src, nil))
		c = l.LoadSource(path, src, ancestors)
	}
	reg, err := analyzer.NewRegistry(rule)
	if err != nil {
		t.Fatal(err)
	}
	var out []*parser.Diagnostic
	for _, d := range ruleFindings(c, reg, opts) {
		if d.Code == rule.Code {
			out = append(out, d)
		}
	}
	return out
}

// TestGixyParity lints every case of the mapped gixy plugins and checks
// per-rule recall (positive cases that fire) and precision (findings on
// positive cases among all cases that fire) against the recorded floor.
func TestGixyParity(t *testing.T) {
	root := filepath.Join(corpustest.Root(t), "gixy")
	scores := map[string]*gixyScore{}
	var total gixyScore
	for folder, name := range gixyPlugins {
		rule := rules.All().Lookup(name)
		if rule == nil {
			t.Errorf("plugin %s: no rule %q", folder, name)
			continue
		}
		cases, _ := filepath.Glob(filepath.Join(root, folder, "*.conf"))
		if len(cases) == 0 {
			t.Errorf("plugin %s: no cases", folder)
			continue
		}
		s := &gixyScore{}
		scores[name] = s
		for _, c := range cases {
			n := len(lintGixyCase(t, c, rule))
			base := filepath.Base(c)
			if strings.HasSuffix(base, "_fp.conf") {
				s.guards++
				if n > 0 {
					s.alarms++
					s.noisy = append(s.noisy, base)
				}
				continue
			}
			s.positives++
			want := 1
			if w, ok := gixyFindings[folder+"/"+base]; ok {
				want = w
			}
			switch {
			case n == 0:
				s.missed = append(s.missed, base)
			case n == want:
				s.once++
				fallthrough
			default:
				s.found++
			}
		}
		total.positives += s.positives
		total.found += s.found
		total.once += s.once
		total.guards += s.guards
		total.alarms += s.alarms
	}
	names := make([]string, 0, len(scores))
	for n := range scores {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("\n| rule | gixy plugin | positive cases | fired | exactly once | _fp cases | fired on _fp | recall | precision |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, n := range names {
		s := scores[n]
		fmt.Fprintf(&b, "| `%s` | `%s` | %d | %d | %d | %d | %d | %.0f%% | %.0f%% |\n", n, pluginOf(n), s.positives, s.found, s.once,
			s.guards, s.alarms, s.recall(), s.precision())
	}
	fmt.Fprintf(&b, "| **all** | | %d | %d | %d | %d | %d | **%.1f%%** | **%.1f%%** |\n", total.positives, total.found, total.once,
		total.guards, total.alarms, total.recall(), total.precision())
	t.Log(b.String())
	for _, n := range names {
		s := scores[n]
		if len(s.missed) > 0 || len(s.noisy) > 0 {
			t.Logf("%s: missed %v; fired on %v", n, s.missed, s.noisy)
		}
		floor, ok := gixyFloor[n]
		if !ok {
			t.Errorf("%s: no recorded floor (recall %.1f, precision %.1f)", n, s.recall(), s.precision())
			continue
		}
		if s.once < s.found {
			t.Errorf("%s: %d positive cases fire more often than expected; gixy expects one finding (see gixyFindings)", n, s.found-s.once)
		}
		if s.recall() < floor[0]-1e-9 || s.precision() < floor[1]-1e-9 {
			t.Errorf("%s: recall %.1f%% precision %.1f%%, below the recorded %.1f%% / %.1f%%", n, s.recall(), s.precision(), floor[0], floor[1])
		}
	}
	if total.recall() < 90 || total.precision() < 95 {
		t.Errorf("overall recall %.1f%% precision %.1f%%: the goal is 90%% / 95%%", total.recall(), total.precision())
	}
}

// TestGixyFoldersDecided requires every plugin folder of the corpus to
// be mapped to a rule or listed, with a reason, as not followed.
func TestGixyFoldersDecided(t *testing.T) {
	dirs, err := os.ReadDir(filepath.Join(corpustest.Root(t), "gixy"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		_, mapped := gixyPlugins[d.Name()]
		_, unmapped := gixyUnmapped[d.Name()]
		if mapped == unmapped {
			t.Errorf("gixy plugin %s: map it to a rule in gixyPlugins or give the reason in gixyUnmapped (not both)", d.Name())
		}
	}
}

func pluginOf(rule string) string {
	for f, r := range gixyPlugins {
		if r == rule {
			return f
		}
	}
	return ""
}
