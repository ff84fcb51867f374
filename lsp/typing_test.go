package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// This file asks the real server, in a child process over stdio, what an
// editor asks while a person types (issue 30, "Why", item 1): a directive
// half written above a block, an unclosed "if (...) {", a stray "}" and a
// quote left open leave navigation, completion, the outline and the
// diagnostics below them as they were.

// typingBase is the configuration typed into: the text of a case goes on
// line 6, above the location whose names the checks follow.
const typingBase = `events {}
http {
    upstream backend { server 127.0.0.1:9000; }
    server {
        listen 80;
        set $x 1;
%s
        location / {
            proxy_pass http://backend;
            add_header X-A $x;
            error_page 404 = @fb;
        }
        location @fb { return 204; }
    }
}
`

// lspSession is a child server with helpers for the requests the typing
// and multi-file tests make.
type lspSession struct {
	t   *testing.T
	c   *rpcClient
	ids int
}

func newSession(t *testing.T, root string, capabilities map[string]any) *lspSession {
	c := procClient(t)
	if capabilities == nil {
		c.initialize(string(pathToURI(root)))
	} else {
		c.request("1", "initialize", map[string]any{"processId": nil, "rootUri": string(pathToURI(root)), "capabilities": capabilities})
		if r := c.answer(); r.Error != nil {
			t.Fatalf("initialize: %s", r.raw)
		}
		c.notify("initialized", map[string]any{})
	}
	return &lspSession{t: t, c: c, ids: 100}
}

// ask sends a request and returns its result.
func (s *lspSession) ask(method string, params any) json.RawMessage {
	s.t.Helper()
	s.ids++
	id := fmt.Sprint(s.ids)
	s.c.request(id, method, params)
	r := s.c.answer()
	if string(r.ID) != id || r.Error != nil {
		s.t.Fatalf("%s: %s", method, r.raw)
	}
	return r.Result
}

func (s *lspSession) open(path, text string) string {
	uri := string(pathToURI(path))
	s.c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "nginx", "version": 1, "text": text}})
	return uri
}

// change replaces the lines [from, to) of uri with text, an incremental
// edit, at version.
func (s *lspSession) change(uri string, version, from, to int, text string) {
	s.c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": version},
		"contentChanges": []any{map[string]any{
			"range": map[string]any{"start": map[string]any{"line": from, "character": 0}, "end": map[string]any{"line": to, "character": 0}},
			"text":  text,
		}},
	})
}

// diagnostics waits for a publication of uri that ok accepts (its
// messages and codes) and returns it.
func (s *lspSession) diagnostics(uri string, ok func([]publishedDiag) bool) []publishedDiag {
	s.t.Helper()
	for {
		r := s.c.next()
		if r.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var p struct {
			URI         string          `json:"uri"`
			Diagnostics []publishedDiag `json:"diagnostics"`
		}
		if err := json.Unmarshal(r.Params, &p); err != nil {
			s.t.Fatal(err)
		}
		if p.URI == uri && ok(p.Diagnostics) {
			return p.Diagnostics
		}
		s.t.Logf("published for %s (want %s): %+v", p.URI, uri, p.Diagnostics)
	}
}

type publishedDiag struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Range   struct {
		Start struct{ Line, Character int }
	} `json:"range"`
}

func (s *lspSession) at(uri string, line, char int) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": line, "character": char}}
}

type location struct {
	URI   string `json:"uri"`
	Range struct {
		Start struct{ Line, Character int }
	} `json:"range"`
}

// definition returns the locations of the definition at line:char.
func (s *lspSession) definition(uri string, line, char int) []location {
	s.t.Helper()
	var locs []location
	if err := json.Unmarshal(s.ask("textDocument/definition", s.at(uri, line, char)), &locs); err != nil {
		s.t.Fatal(err)
	}
	return locs
}

// column returns the 0-based column of the first sub in line n of text,
// plus off.
func column(t *testing.T, text string, n int, sub string, off int) int {
	t.Helper()
	i := strings.Index(strings.Split(text, "\n")[n], sub)
	if i < 0 {
		t.Fatalf("line %d of the text lacks %q", n, sub)
	}
	return i + off
}

type outlineSymbol struct {
	Name     string          `json:"name"`
	Children []outlineSymbol `json:"children"`
}

func names(syms []outlineSymbol) []string {
	var out []string
	for _, s := range syms {
		out = append(out, s.Name)
		out = append(out, names(s.Children)...)
	}
	return out
}

func TestTypingOverStdio(t *testing.T) {
	// Each case is typed on line 6; finished, it reads as done.
	cases := []struct {
		name, typed, done string
	}{
		{"server_tokens", "        server_tokens ", "        server_tokens off;"},
		{"include", "        include ", "        include mime.types;"},
		{"set", "        set $y", "        set $y 1;"},
		{"proxy_pass", "        proxy_pass http://", "        proxy_pass http://backend;"},
		{"unclosed if", "        if ($request_method = POST) {", "        if ($request_method = POST) { }"},
		{"stray brace", "        }", ""},
		{"unterminated quote", `        add_header X "abc`, `        add_header X "abc";`},
	}
	dir := t.TempDir()
	s := newSession(t, dir, nil)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s.t = t
			text := fmt.Sprintf(typingBase, tc.typed)
			path := filepath.Join(dir, fmt.Sprintf("case%d", i), "nginx.conf")
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			// On disk as it was before the typing; the buffer has it.
			if err := os.WriteFile(path, []byte(fmt.Sprintf(typingBase, "")), 0o644); err != nil {
				t.Fatal(err)
			}
			// The typing is an error where nginx says it is; below it,
			// the findings are those of the text finished.
			below := func(ds []publishedDiag, syntax *int) map[string]bool {
				out := map[string]bool{}
				for _, d := range ds {
					switch {
					case d.Code == "NL1001" || d.Code == "NL1002":
						*syntax++
					case d.Range.Start.Line > 6:
						out[fmt.Sprintf("%s %d:%d %s", d.Code, d.Range.Start.Line, d.Range.Start.Character, d.Message)] = true
					}
				}
				return out
			}
			donePath := filepath.Join(filepath.Dir(path), "done", "nginx.conf")
			if err := os.MkdirAll(filepath.Dir(donePath), 0o755); err != nil {
				t.Fatal(err)
			}
			doneURI := s.open(donePath, fmt.Sprintf(typingBase, tc.done))
			var doneSyntax int
			want := below(s.diagnostics(doneURI, func([]publishedDiag) bool { return true }), &doneSyntax)
			uri := s.open(path, text)
			syntax := 0
			got := below(s.diagnostics(uri, func([]publishedDiag) bool { return true }), &syntax)
			if syntax == 0 || doneSyntax != 0 {
				t.Errorf("syntax findings: %d typing %q, %d finished", syntax, tc.typed, doneSyntax)
			}
			for k := range got {
				if !want[k] {
					t.Errorf("finding below the typing: %s", k)
				}
			}
			for k := range want {
				if !got[k] {
					t.Errorf("finding below the finished text, not below the typing: %s", k)
				}
			}

			// Definition of backend, $x and @fb.
			if locs := s.definition(uri, 8, column(t, text, 8, "backend", 2)); len(locs) != 1 || locs[0].Range.Start.Line != 2 {
				t.Errorf("definition of backend: %+v", locs)
			}
			if locs := s.definition(uri, 9, column(t, text, 9, "$x", 1)); len(locs) != 1 || locs[0].Range.Start.Line != 5 {
				t.Errorf("definition of $x: %+v", locs)
			}
			if locs := s.definition(uri, 10, column(t, text, 10, "@fb", 1)); len(locs) != 1 || locs[0].Range.Start.Line != 12 {
				t.Errorf("definition of @fb: %+v", locs)
			}
			// References of backend: the upstream and the proxy_pass.
			var refs []location
			json.Unmarshal(s.ask("textDocument/references", map[string]any{
				"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 8, "character": column(t, text, 8, "backend", 2)},
				"context": map[string]any{"includeDeclaration": true}}), &refs)
			if len(refs) != 2 {
				t.Errorf("references of backend: %+v", refs)
			}
			// Hover below the typing.
			var hv struct{ Contents struct{ Value string } }
			json.Unmarshal(s.ask("textDocument/hover", s.at(uri, 9, column(t, text, 9, "$x", 1))), &hv)
			if !strings.Contains(hv.Contents.Value, "set $x 1") {
				t.Errorf("hover on $x: %q", hv.Contents.Value)
			}
			// Directive completion inside the location: its directives.
			var items []struct{ Label string }
			res := s.ask("textDocument/completion", s.at(uri, 9, 12))
			if err := json.Unmarshal(res, &items); err != nil {
				var list struct{ Items []struct{ Label string } }
				json.Unmarshal(res, &list)
				items = list.Items
			}
			labels := map[string]bool{}
			for _, it := range items {
				labels[it.Label] = true
			}
			if len(items) < 500 || !labels["proxy_pass"] || !labels["add_header"] {
				t.Errorf("completion in the location: %d items", len(items))
			}
			// The outline: the server's two locations, nothing named by
			// the typing.
			var syms []outlineSymbol
			json.Unmarshal(s.ask("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}), &syms)
			outline := strings.Join(names(syms), ", ")
			if !strings.Contains(outline, "location /, location @fb") || strings.Contains(outline, strings.TrimSpace(tc.typed)+" location") {
				t.Errorf("outline: %s", outline)
			}
		})
	}
}
