package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSymbolFeaturesOverStdio: issue 19's done-means, asked of the real
// server in a child process over stdio as an editor asks.
func TestSymbolFeaturesOverStdio(t *testing.T) {
	c := procClient(t)
	dir := t.TempDir()
	c.initialize(string(pathToURI(dir)))
	text := "events {}\n" +
		"http {\n" +
		"    upstream Backend { server 127.0.0.1:9000; }\n" +
		"    map $uri $kind { default page; ~^/api api; }\n" +
		"    server {\n" +
		"        listen 80;\n" +
		"        server_name shop.example www.shop.example;\n" +
		"        set $who \"world\";\n" +
		"        location ~ \\.php$ { proxy_pass http://backend; }\n" +
		"        location / { return 200 \"$who $kind\"; }\n" +
		"        server_tokens \n" +
		"    }\n" +
		"}\n"
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	uri := string(pathToURI(path))
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "nginx", "version": 1, "text": text}})
	c.published(uri, 1)
	pos := func(line, char int) map[string]any {
		return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": line, "character": char}}
	}
	ask := func(id, method string, params map[string]any) json.RawMessage {
		t.Helper()
		c.request(id, method, params)
		r := c.answer()
		if string(r.ID) != id || r.Error != nil {
			t.Fatalf("%s: %s", method, r.raw)
		}
		return r.Result
	}
	type loc struct {
		Range struct {
			Start struct{ Line, Character int }
		}
	}
	defAt := func(id string, line, char int) []loc {
		var locs []loc
		if err := json.Unmarshal(ask(id, "textDocument/definition", pos(line, char)), &locs); err != nil {
			t.Fatal(err)
		}
		return locs
	}
	// From "backend" in proxy_pass (nginx folds the case of upstream
	// names) and from the "http://" before it: upstream Backend.
	for _, char := range []int{50, 42} {
		if locs := defAt("10", 8, char); len(locs) != 1 || locs[0].Range.Start.Line != 2 || locs[0].Range.Start.Character != 13 {
			t.Errorf("definition from proxy_pass (char %d): %+v", char, locs)
		}
	}
	// $who reaches its set; $kind its map.
	if locs := defAt("11", 9, 34); len(locs) != 1 || locs[0].Range.Start.Line != 7 || locs[0].Range.Start.Character != 13 {
		t.Errorf("definition of $who: %+v", locs)
	}
	if locs := defAt("12", 9, 39); len(locs) != 1 || locs[0].Range.Start.Line != 3 {
		t.Errorf("definition of $kind: %+v", locs)
	}
	// Hover on $who says its set and what it gives; on $kind, the map's
	// lines.
	var hv struct{ Contents struct{ Value string } }
	json.Unmarshal(ask("13", "textDocument/hover", pos(9, 34)), &hv)
	if v := hv.Contents.Value; !strings.Contains(v, "set $who world") || !strings.Contains(v, "nginx.conf:8") {
		t.Errorf("hover on $who: %q", v)
	}
	json.Unmarshal(ask("14", "textDocument/hover", pos(9, 39)), &hv)
	if v := hv.Contents.Value; !strings.Contains(v, "map $uri $kind") || !strings.Contains(v, "~^/api api") {
		t.Errorf("hover on $kind: %q", v)
	}
	// Completion after "server_tokens ": its values, each with a textEdit.
	var items []struct {
		Label    string
		TextEdit *struct{ NewText string }
	}
	json.Unmarshal(ask("15", "textDocument/completion", pos(10, 22)), &items)
	var labels []string
	for _, it := range items {
		labels = append(labels, it.Label)
		if it.TextEdit == nil || it.TextEdit.NewText != it.Label {
			t.Errorf("item %q has no textEdit", it.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "off on build" {
		t.Errorf("completion after server_tokens: %s", got)
	}
	// The server's symbol is named with its server_name, the location
	// with its regex.
	syms := string(ask("16", "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}))
	for _, want := range []string{`"name":"server shop.example"`, `"name":"location ~ \\.php$"`} {
		if !strings.Contains(syms, want) {
			t.Errorf("symbols lack %s: %.300s", want, syms)
		}
	}
}
