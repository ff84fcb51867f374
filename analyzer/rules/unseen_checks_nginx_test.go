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

// TestUnseenChecksNginx compares with the real nginx the checks that
// mutants of configurations nobody here wrote showed missing (issue 28):
// a stream or mail server without listen, a stream server without a
// handler (before 1.27.1), a mail server without auth_http or protocol,
// memcached_pass without $memcached_key, charset_map entries, image_filter,
// an upstream's route=, drain and resolve. Each case is one configuration;
// where nginx refuses it, an NL1/NL2 error with nginx's message must be at
// nginx's line (anywhere when nginx names none); where nginx accepts it,
// none. The local build is the target, so the verdicts of either side of
// a release that changed (1.27.1's stream handler, 1.27.5's and 1.31.3's
// charset_map, 1.29.6's route=) follow the nginx installed.
func TestUnseenChecksNginx(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nginx")
	}
	nginx := nginxtest.Require(t)
	info := nginxBuild(t, nginx)
	objects := installedObjects(info)
	loads, _ := dynamicModules(info)
	stream, haveStream := loads["stream"]
	mail, haveMail := loads["mail"]
	image, haveImage := objects["ngx_http_image_filter_module"]
	if (!haveStream || !haveMail || !haveImage) && os.Getenv("CI") == "true" {
		t.Fatal("CI=true: libnginx-mod-stream, libnginx-mod-mail and libnginx-mod-http-image-filter are required (.ci/run installs them)")
	}
	var cases []string
	http := func(body string) string { return "events {}\nhttp {\n" + body + "\n}\n" }
	loc := func(line string) string {
		return http("    server {\n        listen 127.0.0.1:18960;\n        location / {\n            " + line + "\n        }\n    }")
	}
	cases = append(cases,
		loc("memcached_pass 127.0.0.1:11211;"),
		http("    map $uri $memcached_key {\n        default $uri;\n    }\n    server {\n        listen 127.0.0.1:18960;\n        location / {\n            memcached_pass 127.0.0.1:11211;\n        }\n    }"),
		http("    upstream u {\n        server app.internal:8080 resolve;\n    }"),
		http("    upstream u {\n        server 127.0.0.1:8080 route=a;\n        server 127.0.0.1:8081 drain;\n    }"),
	)
	for _, m := range []struct{ charsets, entry string }{
		{"koi8-r utf-8", "C1 D0B1;"}, {"koi8-r utf-8", "41 41;"}, {"koi8-r utf-8", "C5 D0B;"},
		{"koi8-r utf-8", "C6 D0B0E1E1;"}, {"koi8-r utf-8", "C7 D0;"}, {"koi8-r utf-8", "100 D0B0;"},
		{"koi8-r utf-8", "C9 D0B0 1;"}, {"koi8-r utf-8", "C3 D0B0F0;"}, {"koi8-r windows-1251", "C2 100;"},
		{"koi8-r windows-1251", "0 0;"}, {"koi8-u KOI8-U", ""}, {"utf-8 koi8-u", ""},
	} {
		cases = append(cases, http("    charset_map "+m.charsets+" {\n        "+m.entry+"\n    }"))
	}
	if haveImage {
		for _, v := range []string{"size", "bogus", "rotate 90", "rotate 45", "rotate $arg_r", "bogus 90", "resize 100 -",
			"crop 0 100", "resize 100 x", "rotate -", "scale 10 10"} {
			cases = append(cases, image+loc("image_filter "+v+";"))
		}
	}
	if haveStream {
		for _, srv := range []string{
			"server {\n        proxy_pass 127.0.0.1:9;\n    }",
			"server {\n        listen 127.0.0.1:18961;\n    }",
			"server {\n        listen 127.0.0.1:18962;\n        proxy_protocol on;\n    }",
			"server {\n        listen 127.0.0.1:18963;\n        return ok;\n    }",
			"server {\n        listen 127.0.0.1:18964;\n        proxy_pass 127.0.0.1:9;\n    }",
		} {
			cases = append(cases, stream+"events {}\nstream {\n    "+srv+"\n}\n")
		}
	}
	if haveMail {
		for _, body := range []string{
			"auth_http 127.0.0.1:9/auth;\n    server {\n        protocol smtp;\n    }",
			"server {\n        listen 127.0.0.1:18965;\n        protocol smtp;\n    }",
			"auth_http 127.0.0.1:9/auth;\n    server {\n        listen 127.0.0.1:18966;\n    }",
			"auth_http 127.0.0.1:9/auth;\n    server {\n        listen 127.0.0.1:18967;\n        listen 127.0.0.1:18143;\n    }",
			"auth_http 127.0.0.1:9/auth;\n    server {\n        listen 127.0.0.1:18968;\n        protocol imap;\n    }",
			"server {\n        listen 127.0.0.1:18969;\n        protocol pop3;\n        auth_http 127.0.0.1:9/auth;\n    }",
		} {
			cases = append(cases, mail+"events {}\nmail {\n    "+body+"\n}\n")
		}
	}
	reg := rules.All()
	opts := analyzer.Options{Target: analyzer.BuildTarget(info)}
	refused, accepted := 0, 0
	for _, conf := range cases {
		res, err := nginxtest.TestData(context.Background(), nginx, []byte(conf), nginxtest.Quiet())
		if err != nil {
			t.Fatal(err)
		}
		f := parser.ParseFile("/t/nginx.conf", []byte(conf), &parser.Options{Kinds: analyzer.Kinds})
		cfg := &parser.Config{Main: f, Files: []*parser.File{f}}
		var ours []*parser.Diagnostic
		for _, d := range ruleFindings(cfg, reg, opts) {
			if d.Severity == parser.Error && (strings.HasPrefix(d.Code, "NL1") || strings.HasPrefix(d.Code, "NL2")) {
				ours = append(ours, d)
			}
		}
		errs := res.Errors()
		if len(errs) == 0 {
			accepted++
			for _, d := range ours {
				t.Errorf("nginx accepts it, the rules report %q [%s]:\n%s", d.Message, d.Name, numberedLines(conf))
			}
			continue
		}
		refused++
		first := errs[0]
		found := false
		for _, d := range ours {
			found = found || d.Message == first.Text && (first.Line == 0 || f.Line(int(d.Range.Start)) == first.Line)
		}
		if !found {
			t.Errorf("nginx says %q at line %d; no error with its message there (we report %v):\n%s", first.Text, first.Line, ours, numberedLines(conf))
		}
	}
	t.Logf("%d configurations nginx refuses, %d it accepts", refused, accepted)
	if refused < 8 || accepted < 5 {
		t.Errorf("one-sided cases: %d refused, %d accepted", refused, accepted)
	}
}
