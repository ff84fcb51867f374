package lint_test

import (
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/internal/testfiles"
	"github.com/nginx-lint/nginx-lint/parser"
)

// TestFollowOnFindings: on a directive nginx refuses, the other rules'
// findings on its head are dropped; refusals of other rules and syntax
// errors on it stay, so do findings inside its block and findings on
// other directives; an ignored refusal drops nothing, and an ignore of
// a dropped finding is not reported unused.
func TestFollowOnFindings(t *testing.T) {
	conf := `events {}
http {
    server {
        listen 127.0.0.1:8080;
        location /a {
            proxy_pass http://bad_host:99999;
        }
        location /b {
            proxy_pass http://exa mple.com;
        }
        location ~ /c {
            proxy_pass http://up.example.com/x;
        }
        location /d {
            proxy_pass http://ok.example.com;
        }
        location /e {
            proxy_pass http://bad_host:99998; # nginx-lint ignore=invalid-url checking that the follow-on comes back
        }
        location /f {
            proxy_pass http://bad_host:99997; # nginx-lint ignore=stale-dns-cache an ignore of a dropped finding is used
        }
        location ~ "(" {
            autoindex on;
        }
        ssl_protocols TLSv1 TLSv9;
        return 301 $nosuch$;
    }
}
`
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{"nginx.conf": conf})
	w := &lint.Workspace{NoSettings: true}
	rep, err := w.Lint([]lint.Target{{Path: filepath.Join(dir, "nginx.conf")}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range rep.Findings {
		got = append(got, strconv.Itoa(d.Start().Line)+" "+d.Name)
	}
	want := []string{
		"6 invalid-url", // stale-dns-cache dropped
		"9 invalid-arguments",
		"11 unanchored-regex",  // on the location, which nginx accepts
		"12 invalid-url",       // proxy-pass-normalized and stale-dns-cache dropped
		"15 stale-dns-cache",   // a valid directive keeps its findings
		"18 stale-dns-cache",   // the refusal is ignored
		"21 invalid-url",       // no unused-ignore for stale-dns-cache
		"23 regex-syntax",      // on the head of the location
		"24 autoindex-enabled", // in its block
		"26 invalid-value",     // weak-ssl-tls on TLSv1 dropped
		"27 unknown-variable",  // two refusals on one directive
		"27 invalid-variable-name",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings\n%v\nwant\n%v", got, want)
	}
}

// TestRefusingRules: the rules marked Refuses, whose findings drop
// others, are errors (Validate sees to it) in the correctness category;
// the syntax findings are kept without being marked.
func TestRefusingRules(t *testing.T) {
	n := 0
	for _, r := range rules.All().Rules() {
		if !r.Refuses {
			continue
		}
		n++
		if r.Severity != parser.Error || r.Category() != analyzer.Correctness {
			t.Errorf("%s %s: %s %s, want a correctness error", r.Code, r.Name, r.Category(), r.Severity)
		}
	}
	if n != 20 || rules.SyntaxError.Refuses || rules.StaleDNSCache.Refuses || rules.MissingFile.Refuses {
		t.Errorf("%d refusing rules", n)
	}
}
