package rules_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// mergeCase is one configuration of the merge differential.
type mergeCase struct {
	how, src string
}

// planMergeCases writes configurations whose directives are each valid
// alone and that nginx may refuse together once it merges the blocks:
// random upstream buffer settings of proxy, fastcgi, uwsgi and scgi spread
// over http, server and location; charset and source_charset with and
// without a charset_map; proxy_redirect default before and after
// proxy_pass, with and without variables; and the "off" of proxy_redirect
// and proxy_cookie_* beside other values.
func planMergeCases(r *rand.Rand) []mergeCase {
	var out []mergeCase
	sizes := []string{"1k", "2k", "4k", "8k", "16k", "32k", "64k", "256k"}
	nums := []string{"1", "2", "3", "4", "8", "16"}
	port := 24000
	for range 240 {
		m := []string{"proxy", "fastcgi", "uwsgi", "scgi"}[r.IntN(4)]
		levels := [3][]string{}
		for _, d := range []string{"_buffers", "_buffer_size", "_busy_buffers_size", "_temp_file_write_size", "_max_temp_file_size"} {
			if r.IntN(2) == 0 {
				continue
			}
			v := sizes[r.IntN(len(sizes))]
			switch d {
			case "_buffers":
				v = nums[r.IntN(len(nums))] + " " + sizes[r.IntN(len(sizes))]
			case "_max_temp_file_size":
				if r.IntN(3) == 0 {
					v = "0"
				}
			}
			lv := r.IntN(3)
			levels[lv] = append(levels[lv], m+d+" "+v+";")
		}
		port++
		src := fmt.Sprintf("events {}\nhttp {\n    %s\n    server {\n        listen 127.0.0.1:%d;\n        %s\n        location / {\n            %s\n        }\n    }\n}\n",
			strings.Join(levels[0], "\n    "), port, strings.Join(levels[1], "\n        "), strings.Join(levels[2], "\n            "))
		out = append(out, mergeCase{"buffers of " + m, src})
	}
	charsets := []string{"utf-8", "koi8-r", "windows-1251", "UTF-8", "off"}
	for _, cs := range charsets {
		for _, src := range charsets {
			for _, withMap := range []bool{false, true} {
				port++
				m := ""
				if withMap {
					m = "    charset_map koi8-r utf-8 { C0 D18E; }\n"
				}
				out = append(out, mergeCase{fmt.Sprintf("charset %s source_charset %s map %v", cs, src, withMap),
					fmt.Sprintf("events {}\nhttp {\n%s    server {\n        listen 127.0.0.1:%d;\n        charset %s;\n        location / {\n            source_charset %s;\n        }\n    }\n}\n", m, port, cs, src)})
			}
		}
	}
	passes := []string{"proxy_pass http://127.0.0.1:9/;", "proxy_pass http://$host;", ""}
	for _, pass := range passes {
		for _, after := range []bool{false, true} {
			for _, level := range []string{"location", "server"} {
				port++
				lines := []string{"proxy_redirect default;", pass}
				if after {
					lines = []string{pass, "proxy_redirect default;"}
				}
				body := strings.Join(lines, "\n            ")
				srv := ""
				if level == "server" {
					srv, body = "proxy_redirect default;", pass
				}
				out = append(out, mergeCase{fmt.Sprintf("proxy_redirect default, %q, after %v, in %s", pass, after, level),
					fmt.Sprintf("events {}\nhttp {\n    server {\n        listen 127.0.0.1:%d;\n        %s\n        location / {\n            %s\n        }\n    }\n}\n", port, srv, body)})
			}
		}
	}
	for _, name := range []string{"proxy_redirect", "proxy_cookie_domain", "proxy_cookie_path", "proxy_cookie_flags"} {
		value := map[string]string{"proxy_redirect": "/a/ /b/", "proxy_cookie_domain": "a b", "proxy_cookie_path": "/a/ /b/", "proxy_cookie_flags": "one secure"}[name]
		for _, order := range [][]string{{"off", value}, {value, "off"}, {value, value}, {"off", "off"}, {"off"}} {
			port++
			var lines []string
			for _, v := range order {
				lines = append(lines, name+" "+v+";")
			}
			out = append(out, mergeCase{name + " " + strings.Join(order, ", then "),
				fmt.Sprintf("events {}\nhttp {\n    server {\n        listen 127.0.0.1:%d;\n        location / {\n            proxy_pass http://127.0.0.1:9;\n            %s\n        }\n    }\n}\n", port, strings.Join(lines, "\n            "))})
		}
	}
	return out
}

// mergeMessages are the messages of the checks setting-conflict and
// duplicate-directive make, as nginx words them.
var mergeMessages = []string{"\"proxy_redirect default\"", "must be", "there must be at least 2", "no \"charset_map\"", "is duplicate"}

// TestMergeParity labels the merge cases with the real nginx: where its
// first error is one of the checks above, setting-conflict or
// duplicate-directive must report an error with nginx's message (nginx
// places the merge checks at the end of the http block and the charset
// one nowhere, so the place is not compared; a proxy_redirect finding
// must be at nginx's line); where nginx accepts the configuration,
// neither may report an error.
func TestMergeParity(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nginx a few hundred times")
	}
	nginx := nginxtest.Require(t)
	cases := planMergeCases(rand.New(rand.NewPCG(18, 3)))
	dir := t.TempDir()
	paths := make([]string, len(cases))
	for i, c := range cases {
		paths[i] = filepath.Join(dir, fmt.Sprintf("m%04d", i), "nginx.conf")
		if err := os.MkdirAll(filepath.Dir(paths[i]), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(paths[i], []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	counts := map[string]int{}
	for i, run := range runAll(context.Background(), nginx, paths) {
		c := cases[i]
		if run.err != nil {
			t.Fatalf("%s: %v", c.how, run.err)
		}
		findings, err := lintValues(run.path, analyzer.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var ours []*parser.Diagnostic
		for _, d := range findings {
			if d.Severity == parser.Error && (d.Name == rules.SettingConflict.Name || d.Name == rules.DuplicateDirective.Name) {
				ours = append(ours, d)
			}
		}
		errs := run.res.Errors()
		if len(errs) == 0 {
			counts["nginx accepts"]++
			for _, d := range ours {
				t.Errorf("%s: nginx accepts it, we report %v\n%s", c.how, d, numberedLines(c.src))
			}
			continue
		}
		first := errs[0]
		ours2 := ""
		for _, m := range mergeMessages {
			if strings.Contains(first.Text, m) {
				ours2 = m
			}
		}
		if ours2 == "" {
			counts["nginx stops at another error"]++
			continue
		}
		counts["nginx refuses: "+c.how[:strings.IndexAny(c.how+" ", " ,")]]++
		found := false
		for _, d := range ours {
			if d.Message == first.Text && (!strings.Contains(first.Text, "proxy_redirect") && !strings.HasSuffix(first.Text, "is duplicate") || d.Start().Line == first.Line) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: nginx: %s; we report %v\n%s", c.how, first, ours, numberedLines(c.src))
		}
	}
	logCounts(t, "merge differential", counts)
	refused := 0
	for k, v := range counts {
		if strings.HasPrefix(k, "nginx refuses") {
			refused += v
		}
	}
	if refused < 80 || counts["nginx accepts"] < 80 {
		t.Errorf("too few or one-sided cases: %v", counts)
	}
}
