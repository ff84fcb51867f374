package fix_test

import (
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/fix"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
)

// memLinter lints an in-memory tree whose main file is /t/nginx.conf with
// every rule, as the command line does.
func memLinter(files map[string]string) fix.Linter {
	return memLinterFor(files, analyzer.Options{})
}

func memLinterFor(files map[string]string, opts analyzer.Options) fix.Linter {
	return func(overlay map[string][]byte) ([]*parser.Diagnostic, error) {
		fs := &parser.Overlay{Files: map[string][]byte{}}
		for p, s := range files {
			fs.Files[p] = []byte(s)
		}
		for p, b := range overlay {
			fs.Files[p] = b
		}
		main := "/t/nginx.conf"
		c := analyzer.LoadInferred(&parser.Loader{FS: fs, Kinds: analyzer.Kinds}, main, fs.Files[main])
		ds, _ := lint.Run(c, rules.All(), opts)
		return ds, nil
	}
}

func TestRunFixesAndIsIdempotent(t *testing.T) {
	files := map[string]string{
		"/t/nginx.conf": "events {}\nhttp {\n    server_tokens on;\n    include /t/site.conf;\n}\n",
		"/t/site.conf":  "server {\n    listen 80\n    server_name a.example;\n    locaton / { return 204; }\n}\n",
	}
	res, err := fix.Run(memLinter(files))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Fixed["/t/nginx.conf"]); !strings.Contains(got, "server_tokens off;") {
		t.Errorf("server_tokens not fixed:\n%s", got)
	}
	site := string(res.Fixed["/t/site.conf"])
	if !strings.Contains(site, "listen 80;") {
		t.Errorf("missing semicolon not inserted:\n%s", site)
	}
	if !strings.Contains(site, "location / {") {
		t.Errorf("misspelt directive not corrected:\n%s", site)
	}
	if len(res.Refused) != 0 {
		t.Errorf("refused: %v", res.Refused)
	}
	names := map[string]bool{}
	for _, c := range res.Changes {
		names[c.Name] = true
	}
	for _, want := range []string{"version-disclosure", "missing-semicolon", "unknown-directive"} {
		if !names[want] {
			t.Errorf("no change by %s in %+v", want, res.Changes)
		}
	}
	if string(res.Original["/t/site.conf"]) != files["/t/site.conf"] {
		t.Errorf("Original does not hold the text before the first round")
	}

	// A second --fix over the result changes nothing.
	for p, b := range res.Fixed {
		files[p] = string(b)
	}
	again, err := fix.Run(memLinter(files))
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Fixed) != 0 || len(again.Changes) != 0 {
		t.Errorf("second run changed %v: %+v", again.Paths(), again.Changes)
	}
}

func diag(f *parser.File, code string, edits ...parser.Edit) *parser.Diagnostic {
	for i := range edits {
		edits[i].File = f
	}
	return &parser.Diagnostic{File: f, Path: f.Path, Code: code, Name: code, Range: edits[0].Range, Edits: edits}
}

func TestPlanDefersOverlapsByRuleOrder(t *testing.T) {
	f := parser.ParseString("/t/a.conf", "server_tokens on;\n", nil)
	on := parser.Range{Start: 14, End: 16}
	late := diag(f, "NL3009", parser.Edit{Range: on, NewText: "off"})
	early := diag(f, "NL2001", parser.Edit{Range: parser.Range{Start: 13, End: 16}, NewText: " build"})
	apart := diag(f, "NL5000", parser.Edit{Range: parser.Range{Start: 0, End: 0}, NewText: "# x\n"})
	dup := diag(f, "NL3009", parser.Edit{Range: on, NewText: "off"})
	chosen, deferred := fix.Plan([]*parser.Diagnostic{late, apart, early, dup})
	if len(chosen) != 2 || chosen[0] != early || chosen[1] != apart {
		t.Fatalf("chosen %v, want the NL2001 edit then the insertion", chosen)
	}
	if len(deferred) != 1 || deferred[0] != late {
		t.Fatalf("deferred %v, want the NL3009 edit (its duplicate dropped)", deferred)
	}
	out, err := fix.Apply(chosen)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(out["/t/a.conf"]); got != "# x\nserver_tokens build;\n" {
		t.Errorf("Apply = %q", got)
	}
}

func TestPlanInsertionsAtOneOffsetOverlap(t *testing.T) {
	f := parser.ParseString("/t/a.conf", "a b\n", nil)
	one := diag(f, "NL1", parser.Edit{Range: parser.Range{Start: 3, End: 3}, NewText: ";"})
	two := diag(f, "NL2", parser.Edit{Range: parser.Range{Start: 3, End: 3}, NewText: " c"})
	chosen, deferred := fix.Plan([]*parser.Diagnostic{two, one})
	if len(chosen) != 1 || chosen[0] != one || len(deferred) != 1 {
		t.Fatalf("chosen %v deferred %v", chosen, deferred)
	}
}

func TestPlanDropsEditsOutsideTheFile(t *testing.T) {
	f := parser.ParseString("/t/a.conf", "a;\n", nil)
	bad := diag(f, "NL1", parser.Edit{Range: parser.Range{Start: 2, End: 40}, NewText: ""})
	if chosen, _ := fix.Plan([]*parser.Diagnostic{bad}); len(chosen) != 0 {
		t.Fatalf("an edit past the end of the file was chosen")
	}
}

// A fix whose result parses worse than the original is refused and the
// file left as it was.
func TestRunRefusesBrokenResult(t *testing.T) {
	src := "events {}\n"
	lint := func(overlay map[string][]byte) ([]*parser.Diagnostic, error) {
		text := src
		if b, ok := overlay["/t/nginx.conf"]; ok {
			text = string(b)
		}
		f := parser.ParseString("/t/nginx.conf", text, nil)
		if strings.Contains(text, "{{") {
			return nil, nil
		}
		return []*parser.Diagnostic{diag(f, "NL9", parser.Edit{Range: parser.Range{Start: 8, End: 8}, NewText: "{"})}, nil
	}
	res, err := fix.Run(lint)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Fixed) != 0 || len(res.Refused) != 1 || res.Refused[0] != "/t/nginx.conf" {
		t.Fatalf("Fixed %v Refused %v", res.Paths(), res.Refused)
	}
}

// A rule that offers a new edit after every round stops at MaxRounds.
func TestRunStopsAfterMaxRounds(t *testing.T) {
	lint := func(overlay map[string][]byte) ([]*parser.Diagnostic, error) {
		text := "a;\n"
		if b, ok := overlay["/t/nginx.conf"]; ok {
			text = string(b)
		}
		f := parser.ParseString("/t/nginx.conf", text, nil)
		return []*parser.Diagnostic{diag(f, "NL9", parser.Edit{Range: parser.Range{Start: 0, End: 0}, NewText: "a;"})}, nil
	}
	res, err := fix.Run(lint)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rounds != fix.MaxRounds {
		t.Fatalf("rounds = %d, want %d", res.Rounds, fix.MaxRounds)
	}
	if got := strings.Count(string(res.Fixed["/t/nginx.conf"]), "a;"); got != fix.MaxRounds+1 {
		t.Fatalf("%d copies, want %d", got, fix.MaxRounds+1)
	}
}

// FuzzFix checks on arbitrary text that a fixed file never parses worse
// than the input and that fixing the result again changes nothing.
func FuzzFix(f *testing.F) {
	for _, r := range rules.All().Rules() {
		f.Add(r.Doc.Bad)
	}
	f.Add("events {}\nhttp {\n    server_tokens on;\n    server { listen 80\n locaton / {} }\n}\n")
	f.Fuzz(func(t *testing.T, src string) {
		files := map[string]string{"/t/nginx.conf": src}
		res, err := fix.Run(memLinter(files))
		if err != nil {
			t.Fatal(err)
		}
		out, ok := res.Fixed["/t/nginx.conf"]
		if !ok {
			return
		}
		before := len(parser.ParseString("/t/nginx.conf", src, nil).Diagnostics)
		if after := len(parser.ParseFile("/t/nginx.conf", out, nil).Diagnostics); after > before {
			t.Fatalf("fixed text has %d syntax errors, input %d\ninput:\n%s\noutput:\n%s", after, before, src, out)
		}
		if res.Rounds == fix.MaxRounds || len(res.Refused) > 0 {
			return
		}
		files["/t/nginx.conf"] = string(out)
		again, err := fix.Run(memLinter(files))
		if err != nil {
			t.Fatal(err)
		}
		if len(again.Fixed) != 0 {
			t.Fatalf("second run changed the file:\ninput:\n%s\nfirst:\n%s\nsecond:\n%s", src, out, again.Fixed["/t/nginx.conf"])
		}
	})
}

// The mechanical fixes the rules offer, each applied through Run.
func TestRuleFixes(t *testing.T) {
	head := "events {}\nhttp {\n    server_tokens off;\n"
	for _, tc := range []struct {
		name     string
		target   *analyzer.Target
		in, want string
	}{
		// No target: the newest nginx is assumed, but a fix may not need
		// a newer one than the configuration already does.
		{"listen http2 kept with no target", nil,
			"    server {\n        listen 127.0.0.1:8443 ssl http2;\n        ssl_certificate a.pem;\n        ssl_certificate_key a.key;\n    }\n}\n",
			""},
		{"listen http2 to http2 on for 1.25.1", &analyzer.Target{Version: "1.25.1"},
			"    server {\n        listen 127.0.0.1:8443 ssl http2;\n        listen [::1]:8443 ssl http2;\n        ssl_certificate a.pem;\n        ssl_certificate_key a.key;\n    }\n}\n",
			"    server {\n        listen 127.0.0.1:8443 ssl;\n        http2 on;\n        listen [::1]:8443 ssl;\n        ssl_certificate a.pem;\n        ssl_certificate_key a.key;\n    }\n}\n"},
		{"listen http2 kept for 1.22.1", &analyzer.Target{Version: "1.22.1"},
			"    server {\n        listen 127.0.0.1:8443 ssl http2;\n        ssl_certificate a.pem;\n        ssl_certificate_key a.key;\n    }\n}\n",
			""},
		{"listen http2 with http2 on already", nil,
			"    server {\n        http2 on;\n        listen 127.0.0.1:8443 ssl http2;\n        ssl_certificate a.pem;\n        ssl_certificate_key a.key;\n    }\n}\n",
			"    server {\n        http2 on;\n        listen 127.0.0.1:8443 ssl;\n        ssl_certificate a.pem;\n        ssl_certificate_key a.key;\n    }\n}\n"},
		{"ssl on moves to the listens", &analyzer.Target{Version: "1.22.1"},
			"    server {\n        listen 127.0.0.1:443;\n        listen 127.0.0.1:8443 ssl;\n        ssl on;\n        ssl_certificate a.pem;\n        ssl_certificate_key a.key;\n    }\n}\n",
			"    server {\n        listen 127.0.0.1:443 ssl;\n        listen 127.0.0.1:8443 ssl;\n        ssl_certificate a.pem;\n        ssl_certificate_key a.key;\n    }\n}\n"},
		{"weak protocols dropped", nil,
			"    ssl_protocols TLSv1 TLSv1.1 TLSv1.2;\n}\n",
			"    ssl_protocols TLSv1.2;\n}\n"},
		{"only weak protocols", nil,
			"    ssl_protocols SSLv3 TLSv1;\n}\n",
			"    ssl_protocols TLSv1.2 TLSv1.3;\n}\n"},
		{"only weak protocols, for a target before TLSv1.3", &analyzer.Target{Version: "1.12.2"},
			"    ssl_protocols SSLv3 TLSv1;\n}\n",
			"    ssl_protocols TLSv1.2;\n}\n"},
		{"only weak protocols, for the first target with TLSv1.3", &analyzer.Target{Version: "1.13.0"},
			"    ssl_protocols SSLv3 TLSv1;\n}\n",
			"    ssl_protocols TLSv1.2 TLSv1.3;\n}\n"},
		{"cipher keywords get the missing exclusions", nil,
			"    ssl_ciphers HIGH:!MD5;\n}\n",
			"    ssl_ciphers HIGH:!MD5:!aNULL;\n}\n"},
		{"named weak suite dropped; one a later exclusion bans is kept", nil,
			"    ssl_ciphers 'RC4-SHA:AES256-SHA:DES-CBC3-SHA:!RC4';\n}\n",
			"    ssl_ciphers 'RC4-SHA:AES256-SHA:!RC4';\n}\n"},
		{"hsts gets always", nil,
			"    add_header Strict-Transport-Security \"max-age=63072000\";\n}\n",
			"    add_header Strict-Transport-Security \"max-age=63072000\" always;\n}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"/t/nginx.conf": head + tc.in}
			res, err := fix.Run(memLinterFor(files, analyzer.Options{Target: tc.target}))
			if err != nil {
				t.Fatal(err)
			}
			got, changed := res.Fixed["/t/nginx.conf"]
			if tc.want == "" {
				if changed {
					t.Fatalf("changed to:\n%s", got)
				}
				return
			}
			if string(got) != head+tc.want {
				t.Fatalf("got:\n%s\nwant:\n%s%s", got, head, tc.want)
			}
		})
	}
}
