package rules_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// TestMissingSemicolonNginx: a line that lost its ";" merges with the
// next line's directive, and nginx refuses the merged statement where it
// ends ("invalid number of arguments"); the rules report missing-semicolon
// on the line that lost the ";", whatever the directives (nginx's and the
// third-party modules'), and no other error on the first line; with the
// ";" put back, nginx accepts the configuration.
func TestMissingSemicolonNginx(t *testing.T) {
	nginx := nginxtest.Require(t)
	info := nginxBuild(t, nginx)
	objects := installedObjects(info)
	var load string
	for _, m := range []string{"ngx_http_set_misc_module", "ngx_http_echo_module"} {
		l, ok := objects[m]
		if !ok {
			if os.Getenv("CI") == "true" {
				t.Fatalf("CI=true: %s is not installed", m)
			}
			t.Skipf("%s is not installed", m)
		}
		load += l
	}
	load = dedupeLines(load)
	reg := rules.All()
	// Each case is the location's lines with "@" where the ";" is
	// missing.
	for _, body := range []string{
		"set $a 1@\n            return 200;",
		"set $a 1@\n            echo \"x\";",
		"set $a \"two\n            lines\"@\n            return 200 $a;",
		"set_random $r 1 5@\n            return 200 $r;",
		"set_encode_base32 $a $uri@\n            return 200 $a;",
		"set_md5 $a $uri@\n            set_random $r 1 5;\n            return 200 $a$r;",
		"root /srv@\n            set_md5 $a $uri;",
		"proxy_pass http://127.0.0.1:18081@\n            proxy_set_header Host $host;",
		"echo_sleep 1@\n            echo \"x\";",
	} {
		at := strings.Index(body, "@")
		broken := strings.Replace(body, "@", "", 1)
		fixed := strings.Replace(body, "@", ";", 1)
		head := load + "events {}\nhttp {\n    server {\n        listen 127.0.0.1:18939;\n        location / {\n            "
		conf := func(b string) string { return head + b + "\n        }\n    }\n}\n" }
		src := conf(broken)
		lostLine := strings.Count(head+body[:at], "\n") + 1
		res, err := nginxtest.TestData(context.Background(), nginx, []byte(src), nginxtest.Quiet())
		if err != nil {
			t.Fatal(err)
		}
		if errs := res.Errors(); len(errs) == 0 || errs[0].Line <= lostLine {
			t.Errorf("%q: nginx does not refuse the merged statement after line %d: %v", body, lostLine, errs)
			continue
		}
		f := parser.ParseFile("/t/nginx.conf", []byte(src), &parser.Options{Kinds: analyzer.Kinds})
		cfg := &parser.Config{Main: f, Files: []*parser.File{f}}
		found := false
		for _, d := range ruleFindings(cfg, reg, analyzer.Options{Target: analyzer.BuildTarget(info)}) {
			if d.Severity != parser.Error {
				continue
			}
			line := f.Line(int(d.Range.Start))
			switch {
			case d.Name == parser.NameMissingSemicolon && line == lostLine:
				found = true
			case line <= lostLine:
				t.Errorf("%q: %s at line %d [%s]", body, d.Message, line, d.Name)
			}
		}
		if !found {
			t.Errorf("%q: no missing-semicolon at line %d:\n%s", body, lostLine, numberedLines(src))
		}
		res, err = nginxtest.TestData(context.Background(), nginx, []byte(conf(fixed)), nginxtest.Quiet())
		if err != nil {
			t.Fatal(err)
		}
		if errs := res.Errors(); len(errs) > 0 {
			t.Errorf("%q with its \";\": nginx says %v", body, errs)
		}
	}
}

// dedupeLines keeps the first of repeated lines (load_module lines that
// two objects share).
func dedupeLines(s string) string {
	var out strings.Builder
	seen := map[string]bool{}
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" && !seen[l] {
			seen[l] = true
			out.WriteString(l)
		}
	}
	return out.String()
}
