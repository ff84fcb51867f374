package lsp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf16"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/internal/testfiles"
)

// The features of issue 30, asked of the real server in a child process
// over stdio, as an editor asks.

// session is a server over stdio with a workspace of files.
type session struct {
	t   *testing.T
	c   *rpcClient
	dir string
	id  int
}

// startSession writes files under a new workspace folder and
// initializes a server there with the given initializationOptions.
func startSession(t *testing.T, files map[string]string, options map[string]any) *session {
	t.Helper()
	dir := t.TempDir()
	testfiles.Write(t, dir, files)
	c := procClient(t)
	s := &session{t: t, c: c, dir: dir, id: 100}
	res := s.ask("initialize", map[string]any{"processId": nil, "rootUri": string(pathToURI(dir)),
		"capabilities": map[string]any{}, "initializationOptions": options})
	var init struct {
		Capabilities map[string]any
	}
	if err := json.Unmarshal(res, &init); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"workspaceSymbolProvider", "semanticTokensProvider", "inlayHintProvider", "codeLensProvider",
		"documentRangeFormattingProvider", "selectionRangeProvider", "declarationProvider"} {
		if init.Capabilities[p] == nil {
			t.Errorf("initialize: no %s in %v", p, init.Capabilities)
		}
	}
	c.notify("initialized", map[string]any{})
	return s
}

// uri is the URI of a file of the workspace.
func (s *session) uri(name string) string { return string(pathToURI(filepath.Join(s.dir, name))) }

// open opens a file of the workspace with text and waits for its
// diagnostics.
func (s *session) open(name, text string) string {
	s.t.Helper()
	uri := s.uri(name)
	s.c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "nginx", "version": 1, "text": text}})
	s.c.published(uri, 1)
	return uri
}

// ask sends a request and returns its result; an error answer fails the
// test.
func (s *session) ask(method string, params any) json.RawMessage {
	s.t.Helper()
	r := s.call(method, params)
	if r.Error != nil {
		s.t.Fatalf("%s: %s", method, r.raw)
	}
	return r.Result
}

// call sends a request and returns the answer.
func (s *session) call(method string, params any) *reply {
	s.t.Helper()
	s.id++
	id := fmt.Sprint(s.id)
	s.c.request(id, method, params)
	r := s.c.answer()
	if string(r.ID) != id {
		s.t.Fatalf("%s: answer for id %s, want %s", method, r.ID, id)
	}
	return r
}

// where returns the line and UTF-16 column of the offset within needle
// (after its end when negative) of the first needle in text.
func where(t *testing.T, text, needle string, within int) (line, char int) {
	t.Helper()
	i := strings.Index(text, needle)
	if i < 0 {
		t.Fatalf("no %q in the text", needle)
	}
	if within < 0 {
		within = len(needle)
	}
	off := i + within
	line = strings.Count(text[:off], "\n")
	for _, r := range text[strings.LastIndexByte(text[:off], '\n')+1 : off] {
		char += len(utf16.Encode([]rune{r}))
	}
	return line, char
}

func at(uri string, line, char int) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": line, "character": char}}
}

func lines(from, to int) map[string]any {
	return map[string]any{"start": map[string]any{"line": from, "character": 0}, "end": map[string]any{"line": to, "character": 0}}
}

type lspRange struct {
	Start, End struct{ Line, Character int }
}

func (r lspRange) String() string {
	return fmt.Sprintf("%d:%d-%d:%d", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character)
}

const shopConf = `events {}
http {
    upstream backend { server 127.0.0.1:9000; }
    upstream Billing { server 127.0.0.1:9001; }
    limit_req_zone $binary_remote_addr zone=perip:10m rate=1r/s;
    limit_req_zone $server_name zone=perhost:10m rate=9r/s;
    limit_conn_zone $binary_remote_addr zone=conns:10m;
    proxy_cache_path /tmp/c keys_zone=pages:10m;
    map $uri $kind { '' empty; default page; ~^/api api; }
    include conf.d/*.conf;
    server {
        listen 80;
        server_name shop.example www.shop.example;
        set $who "wörld";
        location / { try_files $uri @fallback; }
        location @fallback { proxy_pass http://backend; }
        location ~ ^/(?<section>[a-z]+)/ { limit_req zone=perip; return 200 "$who $section"; }
    }
}
stream {
    upstream tcp_pool { server 127.0.0.1:5000; }
    limit_conn_zone $binary_remote_addr zone=streamconns:1m;
    server { listen 5001; proxy_pass tcp_pool; }
}
`

// TestWorkspaceSymbolsOverStdio: servers by name, upstreams, named
// locations and maps of every configuration file of the workspace, open
// or not, an open one as its buffer has it.
func TestWorkspaceSymbolsOverStdio(t *testing.T) {
	s := startSession(t, map[string]string{
		"nginx.conf":      shopConf,
		"conf.d/api.conf": "upstream api_pool { server 127.0.0.1:7000; }\nserver { server_name api.example; location @retry { return 503; } }\n",
		"notes.txt":       "upstream not_config { }\n",
	}, nil)
	type sym struct {
		Name          string
		Kind          int
		ContainerName string
		Location      struct {
			URI   string
			Range lspRange
		}
	}
	query := func(q string) []sym {
		var out []sym
		if err := json.Unmarshal(s.ask("workspace/symbol", map[string]any{"query": q}), &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	names := func(syms []sym) string {
		var n []string
		for _, x := range syms {
			n = append(n, fmt.Sprintf("%s(%d %s)", x.Name, x.Kind, filepath.Base(x.Location.URI)))
		}
		return strings.Join(n, " ")
	}
	// Exact and prefix matches first.
	if got, want := names(query("shop")), "shop.example(5 nginx.conf) www.shop.example(5 nginx.conf)"; got != want {
		t.Errorf("shop: %s, want %s", got, want)
	}
	got := query("api")
	if n := names(got); !strings.HasPrefix(n, "api.example(5 api.conf) api_pool(23 api.conf)") {
		t.Errorf("api: %s", n)
	}
	if got[0].Location.Range.String() != "1:21-1:32" {
		t.Errorf("api.example at %s, want 1:21-1:32", got[0].Location.Range)
	}
	if n := names(query("@")); n != "@fallback(6 nginx.conf) @retry(6 api.conf)" {
		t.Errorf("@: %s", n)
	}
	if n := names(query("kind")); n != "$kind(13 nginx.conf)" {
		t.Errorf("kind: %s", n)
	}
	if n := names(query("pool")); n != "api_pool(23 api.conf) tcp_pool(23 nginx.conf)" {
		t.Errorf("pool: %s", n)
	}
	if n := names(query("not_config")); n != "" {
		t.Errorf("a .txt file was read: %s", n)
	}
	// An open buffer wins over the disk.
	s.open("conf.d/api.conf", "upstream fresh_pool { server 127.0.0.1:7001; }\n")
	if n := names(query("pool")); n != "fresh_pool(23 api.conf) tcp_pool(23 nginx.conf)" {
		t.Errorf("pool with api.conf open: %s", n)
	}
}

// semantic is a decoded semantic token.
type semantic struct {
	line, char, length int
	typ                string
	mods               int
}

func decodeTokens(t *testing.T, raw json.RawMessage) []semantic {
	t.Helper()
	var res struct{ Data []int }
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Data)%5 != 0 {
		t.Fatalf("%d integers", len(res.Data))
	}
	var out []semantic
	line, char := 0, 0
	for i := 0; i < len(res.Data); i += 5 {
		d := res.Data[i : i+5]
		if d[0] > 0 {
			line, char = line+d[0], d[1]
		} else {
			char += d[1]
		}
		out = append(out, semantic{line, char, d[2], semanticLegend.TokenTypes[d[3]], d[4]})
	}
	return out
}

// TestSemanticTokensOverStdio: each word of a small configuration is
// what nginx reads it as, at UTF-16 columns; a range asks for its lines
// only.
func TestSemanticTokensOverStdio(t *testing.T) {
	s := startSession(t, nil, nil)
	text := "# é comment\n" +
		"http {\n" +
		"    map $uri $kind { ~^/a(?<x>.)$ \"é$x\"; default page; }\n" +
		"    server {\n" +
		"        location ~* \\.php$ { return 200 \"é${host}/$kind\"; } # t\n" +
		"        add_header X \"a\n" +
		"b\";\n" +
		"    }\n" +
		"}\n"
	uri := s.open("nginx.conf", text)
	toks := decodeTokens(t, s.ask("textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": uri}}))
	var got []string
	for _, k := range toks {
		got = append(got, fmt.Sprintf("%d:%d+%d %s%s", k.line, k.char, k.length, k.typ, map[int]string{0: "", 1: "*"}[k.mods]))
	}
	want := []string{
		"0:0+11 comment",
		"1:0+4 keyword",
		"2:4+3 keyword", "2:8+4 variable*", "2:13+5 variable",
		// A map's regex key, its value with a variable, and its
		// "default" keyword.
		"2:21+12 regexp", "2:34+2 parameter", "2:36+2 variable", "2:38+1 parameter",
		"2:41+7 keyword", "2:49+4 parameter",
		"3:4+6 keyword",
		"4:8+8 keyword", "4:17+2 parameter", "4:20+6 regexp",
		"4:29+6 keyword", "4:36+3 parameter", "4:40+2 parameter", "4:42+7 variable*", "4:49+1 parameter", "4:50+5 variable", "4:55+1 parameter",
		"4:60+3 comment",
		// A quoted word over two lines: one token per line.
		"5:8+10 keyword", "5:19+1 parameter", "5:21+2 parameter", "6:0+2 parameter",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tokens:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Lines 4 and 5 only (and the rest of the word that starts on 5).
	toks = decodeTokens(t, s.ask("textDocument/semanticTokens/range", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": lines(4, 6)}))
	if len(toks) != 15 || toks[0].line != 4 || toks[len(toks)-1].line != 6 {
		t.Errorf("range 4-6: %v", toks)
	}
}

// TestInlayHintsOverStdio: on a configuration with at least minServers
// servers, each listen shows its socket and each server its share of the
// startup estimate; below it, or turned off, nothing.
func TestInlayHintsOverStdio(t *testing.T) {
	text := "events {}\nhttp {\n" +
		"    server { listen 80; server_name a; }\n" +
		"    server { listen 127.0.0.2:80; server_name b; }\n" +
		"    server {\n        listen 127.0.0.3:80 bind;\n        server_name c;\n    }\n" +
		"}\n"
	type hint struct {
		Position struct{ Line, Character int }
		Label    string
		Tooltip  struct{ Value string }
	}
	var raws []json.RawMessage
	hints := func(s *session, uri string) []hint {
		var out []hint
		res := s.ask("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": lines(0, 9)})
		if err := json.Unmarshal(res, &out); err != nil {
			t.Fatal(err)
		}
		json.Unmarshal(res, &raws)
		return out
	}
	s := startSession(t, nil, map[string]any{"inlayHints": map[string]any{"minServers": 3}})
	uri := s.open("nginx.conf", text)
	got := hints(s, uri)
	var labels []string
	for _, h := range got {
		labels = append(labels, fmt.Sprintf("%d:%d %s", h.Position.Line, h.Position.Character, h.Label))
	}
	joined := strings.Join(labels, "\n")
	for _, want := range []string{
		"2:12 ≈ ", "2:22 socket 0.0.0.0:80",
		"3:12 ≈ ", "3:32 via the socket 0.0.0.0:80",
		"4:12 ≈ ", "5:32 socket 127.0.0.3:80",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("no hint %q in:\n%s", want, joined)
		}
	}
	if len(got) != 6 {
		t.Errorf("%d hints:\n%s", len(got), joined)
	}
	// The tooltips come with inlayHint/resolve.
	for i, h := range got {
		if h.Tooltip.Value != "" {
			t.Errorf("hint %q comes with its tooltip", h.Label)
		}
		var res hint
		if err := json.Unmarshal(s.ask("inlayHint/resolve", raws[i]), &res); err != nil {
			t.Fatal(err)
		}
		want := "served by the wildcard socket 0.0.0.0:80"
		switch {
		case strings.HasPrefix(h.Label, "≈"):
			want = "share of the startup estimate"
			if !strings.Contains(h.Label, "of start ≈") {
				t.Errorf("share %q", h.Label)
			}
		case !strings.HasPrefix(h.Label, "via"):
			want = "its own listening socket"
		}
		if res.Label != h.Label || !strings.Contains(res.Tooltip.Value, want) {
			t.Errorf("hint %q resolved: %q, %q; want a tooltip with %q", h.Label, res.Label, res.Tooltip.Value, want)
		}
	}

	// A hint of an older text is not resolved against the new one.
	s.c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": "# moved\n" + text}}})
	s.c.published(uri, 2)
	var stale hint
	if err := json.Unmarshal(s.ask("inlayHint/resolve", raws[0]), &stale); err != nil {
		t.Fatal(err)
	}
	if stale.Tooltip.Value != "" {
		t.Errorf("a hint of version 1 resolved against version 2: %q", stale.Tooltip.Value)
	}

	// Three servers are below the default size; turned off, none.
	for _, opts := range []map[string]any{nil, {"inlayHints": map[string]any{"enabled": false, "minServers": 1}}, {"inlay-hints": false}} {
		s := startSession(t, nil, opts)
		if h := hints(s, s.open("nginx.conf", text)); len(h) != 0 {
			t.Errorf("options %v: %d hints", opts, len(h))
		}
	}
	// The settings sent later apply.
	s = startSession(t, nil, nil)
	uri = s.open("nginx.conf", text)
	s.c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"nginx-lint": map[string]any{"inlayHints": map[string]any{"minServers": 2}}}})
	if h := hints(s, uri); len(h) != 6 {
		t.Errorf("after didChangeConfiguration: %d hints", len(h))
	}
}

// TestCodeLensOverStdio: the http block carries the estimated nginx -t,
// start and reload times; a file without it, none.
func TestCodeLensOverStdio(t *testing.T) {
	s := startSession(t, map[string]string{"conf.d/site.conf": "server { listen 80; }\n"}, nil)
	uri := s.open("nginx.conf", "events {}\n\nhttp {\n    include conf.d/*.conf;\n    server { listen 81; }\n}\n")
	var lenses []struct {
		Range   lspRange
		Command struct{ Title, Command string }
	}
	if err := json.Unmarshal(s.ask("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": uri}}), &lenses); err != nil {
		t.Fatal(err)
	}
	if len(lenses) != 1 || lenses[0].Range.String() != "2:0-2:4" {
		t.Fatalf("lenses %+v", lenses)
	}
	title := lenses[0].Command.Title
	for _, want := range []string{"nginx -t ≈ ", " · start ≈ ", " · reload ≈ ", "(2 servers, 2 listens on 2 ports)"} {
		if !strings.Contains(title, want) {
			t.Errorf("lens %q lacks %q", title, want)
		}
	}
	site := s.open("conf.d/site.conf", "server { listen 80; }\n")
	if r := s.ask("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": site}}); string(r) != "[]" {
		t.Errorf("lenses of site.conf: %s", r)
	}
}

// TestRangeFormattingOverStdio: only the lines of the range change;
// formatting a document with a syntax error says where it is.
func TestRangeFormattingOverStdio(t *testing.T) {
	s := startSession(t, nil, nil)
	text := "http {\n    server {\n  listen 80;\n        server_name a;\n   root /srv;\n    }\n}\n"
	uri := s.open("nginx.conf", text)
	opts := map[string]any{"tabSize": 4, "insertSpaces": true}
	var edits []struct {
		Range   lspRange
		NewText string
	}
	if err := json.Unmarshal(s.ask("textDocument/rangeFormatting", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": lines(4, 5), "options": opts}), &edits); err != nil {
		t.Fatal(err)
	}
	if len(edits) != 1 || edits[0].Range.String() != "4:0-5:0" || edits[0].NewText != "        root /srv;\n" {
		t.Errorf("edits %+v", edits)
	}

	// A change of the formatter that spans lines outside the range (the
	// one-line location below is laid out on several): only its part on
	// the range's lines.
	siteText := "server {\n    listen 80;\n  server_name a;\n    location / { return 200; }\n}\n"
	site := s.open("site.conf", siteText)
	edits = nil
	if err := json.Unmarshal(s.ask("textDocument/rangeFormatting", map[string]any{"textDocument": map[string]any{"uri": site}, "range": lines(2, 3), "options": opts}), &edits); err != nil {
		t.Fatal(err)
	}
	// (Applied from the last: the edits do not overlap.)
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		from := offsetOf(siteText, protocol.Position{Line: protocol.UInteger(e.Range.Start.Line), Character: protocol.UInteger(e.Range.Start.Character)})
		to := offsetOf(siteText, protocol.Position{Line: protocol.UInteger(e.Range.End.Line), Character: protocol.UInteger(e.Range.End.Character)})
		siteText = siteText[:from] + e.NewText + siteText[to:]
	}
	if want := "server {\n    listen 80;\n    server_name a;\n    location / { return 200; }\n}\n"; siteText != want {
		t.Errorf("line 2 formatted: %q, want %q (edits %+v)", siteText, want, edits)
	}

	bad := s.open("bad.conf", "http {\n    server {\n        listen 80\n    }\n}\n")
	for _, m := range []string{"textDocument/formatting", "textDocument/rangeFormatting"} {
		r := s.call(m, map[string]any{"textDocument": map[string]any{"uri": bad}, "range": lines(0, 1), "options": opts})
		if r.Error == nil || r.Error.Code != codeRequestFailed || !strings.Contains(r.Error.Message, "bad.conf:4:5") {
			t.Errorf("%s of a broken file: %s", m, r.raw)
		}
	}
}

// TestSelectionRangeOverStdio: from a variable in an argument out to the
// file.
func TestSelectionRangeOverStdio(t *testing.T) {
	s := startSession(t, nil, nil)
	text := "http {\n    server {\n        location / { return 200 \"a $host b\"; }\n    }\n}\n"
	uri := s.open("nginx.conf", text)
	var res []json.RawMessage
	hl, hc := where(t, text, "$host", 2)
	ll, lc := where(t, text, "location", 1)
	if err := json.Unmarshal(s.ask("textDocument/selectionRange", map[string]any{"textDocument": map[string]any{"uri": uri},
		"positions": []map[string]any{{"line": hl, "character": hc}, {"line": ll, "character": lc}}}), &res); err != nil {
		t.Fatal(err)
	}
	chain := func(raw json.RawMessage) []string {
		var out []string
		for raw != nil && string(raw) != "null" {
			var sr struct {
				Range  lspRange
				Parent json.RawMessage
			}
			if err := json.Unmarshal(raw, &sr); err != nil {
				t.Fatal(err)
			}
			out = append(out, sr.Range.String())
			raw = sr.Parent
		}
		return out
	}
	// $host, its word, return, the location's body, the location, the
	// server's body, the server, http's body, http, the file.
	want := []string{"2:35-2:40", "2:32-2:43", "2:21-2:44", "2:20-2:45", "2:8-2:46", "1:12-3:4", "1:4-3:5", "0:6-4:0", "0:0-4:1", "0:0-5:0"}
	if got := chain(res[0]); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("from $host: %v\nwant %v", got, want)
	}
	if got := chain(res[1]); strings.Join(got, " ") != strings.Join(append([]string{"2:8-2:16"}, want[4:]...), " ") {
		t.Errorf("from location: %v", got)
	}
}

// TestDeclarationOverStdio: declaration (was "method not found") reaches
// where nginx defines a name: an upstream, a variable of set or map, a
// named location, a zone; an include has none.
func TestDeclarationOverStdio(t *testing.T) {
	s := startSession(t, nil, nil)
	uri := s.open("nginx.conf", shopConf)
	decl := func(line, char int) string {
		var locs []struct{ Range lspRange }
		if err := json.Unmarshal(s.ask("textDocument/declaration", at(uri, line, char)), &locs); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, l := range locs {
			out = append(out, l.Range.String())
		}
		return strings.Join(out, " ")
	}
	span := func(needle string, within, n int) string {
		l, c := where(t, shopConf, needle, within)
		return lspRange{Start: struct{ Line, Character int }{l, c}, End: struct{ Line, Character int }{l, c + n}}.String()
	}
	type declCase struct {
		what   string
		needle string
		within int
		want   string
	}
	cases := []declCase{
		{"backend in proxy_pass", "http://backend", 9, span("upstream backend", 9, 7)},
		{"@fallback in try_files", "$uri @fallback", 7, span("location @fallback", 10, 8)},
		{"$who", "\"$who $section", 3, span("set $who", 5, 3)},
		{"$kind", "$uri $kind", 7, span("$uri $kind", 6, 4)},
		{"zone=perip in limit_req", "limit_req zone=perip", 17, span("zone=perip:", 5, 5)},
		{"the include", "include conf.d", 10, ""},
	}
	for _, c := range cases {
		l, ch := where(t, shopConf, c.needle, c.within)
		if got := decl(l, ch); got != c.want {
			t.Errorf("%s: %q, want %q", c.what, got, c.want)
		}
	}
}

// TestNameCompletionOverStdio: where a directive expects a name the
// configuration defines, those names: upstreams after http:// (http's
// only; stream's in stream), the server's named locations after @, zones
// of the right kind.
func TestNameCompletionOverStdio(t *testing.T) {
	s := startSession(t, nil, nil)
	text := shopConf[:strings.Index(shopConf, "    }\n}\nstream")] +
		"        location /t { proxy_pass http://b; }\n" + // line 18
		"        location /u { try_files $uri @; }\n" + // 19
		"        location /v { limit_req zone=; }\n" + // 20
		"        location /w { limit_conn ; proxy_cache ; }\n" + // 21
		"    }\n    server { location @other { } }\n}\n" +
		"stream {\n    upstream tcp_pool { server 127.0.0.1:5000; }\n    server { listen 5001; proxy_pass t; }\n}\n" // 27
	uri := s.open("nginx.conf", text)
	complete := func(line, char int) (labels []string, edit string) {
		var items []struct {
			Label    string
			TextEdit struct {
				Range   lspRange
				NewText string
			}
		}
		if err := json.Unmarshal(s.ask("textDocument/completion", at(uri, line, char)), &items); err != nil {
			t.Fatal(err)
		}
		for _, it := range items {
			labels = append(labels, it.Label)
			edit = it.TextEdit.Range.String()
		}
		sort.Strings(labels)
		return labels, edit
	}
	// Each case: the text before the cursor, and the typed name the
	// items replace.
	cases := []struct{ before, typed, want string }{
		{"proxy_pass http://b", "b", "Billing backend"},
		{"try_files $uri @", "@", "@fallback"},
		{"limit_req zone=", "", "perhost perip"},
		{"limit_conn ", "", "conns"},
		{"proxy_cache ", "", "off pages"},
		{"proxy_pass t", "t", "tcp_pool"},
	}
	for _, c := range cases {
		l, ch := where(t, text, c.before, -1)
		labels, edit := complete(l, ch)
		want := lspRange{Start: struct{ Line, Character int }{l, ch - len(c.typed)}, End: struct{ Line, Character int }{l, ch}}
		if strings.Join(labels, " ") != c.want || edit != want.String() {
			t.Errorf("%s|: %v at %s, want %s at %s", c.before, labels, edit, c.want, want)
		}
	}
}

// TestDirectiveRankingOverStdio: in a location, "r" offers root before
// rds_json (a third-party module nothing loads), the directives the
// configuration uses first; a named nginx version leaves out what it
// does not have yet.
func TestDirectiveRankingOverStdio(t *testing.T) {
	text := "events {}\nhttp {\n    server {\n        location / {\n            r\n        }\n        location /x { rewrite ^ /y; }\n        \n    }\n}\n"
	complete := func(s *session, uri string, line, char int) map[string]string {
		var items []struct{ Label, SortText string }
		if err := json.Unmarshal(s.ask("textDocument/completion", at(uri, line, char)), &items); err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, it := range items {
			out[it.Label] = it.SortText
		}
		return out
	}
	s := startSession(t, nil, nil)
	uri := s.open("nginx.conf", text)
	got := complete(s, uri, 4, 13)
	if got["root"] == "" || got["rds_json"] == "" || !(got["root"] < got["rds_json"]) {
		t.Errorf("root %q, rds_json %q", got["root"], got["rds_json"])
	}
	// rewrite is used in the configuration: before root.
	if !(got["rewrite"] < got["root"]) || !(got["ssl_ciphers"] == "") {
		t.Errorf("rewrite %q, root %q; ssl_ciphers offered in location: %q", got["rewrite"], got["root"], got["ssl_ciphers"])
	}
	if got["proxy_ssl_certificate_cache"] == "" || got["ssl_reject_handshake"] != "" {
		t.Errorf("proxy_ssl_certificate_cache %q, ssl_reject_handshake %q", got["proxy_ssl_certificate_cache"], got["ssl_reject_handshake"])
	}
	if srv := complete(s, uri, 7, 8); srv["ssl_reject_handshake"] == "" {
		t.Errorf("ssl_reject_handshake is not offered in server")
	}
	// nginx 1.18: neither ssl_reject_handshake (1.19.4) nor
	// proxy_ssl_certificate_cache (1.27.4).
	s = startSession(t, nil, map[string]any{"nginxVersion": "1.18.0"})
	uri = s.open("nginx.conf", text)
	if got := complete(s, uri, 7, 8); got["ssl_reject_handshake"] != "" || got["root"] == "" {
		t.Errorf("for nginx 1.18: ssl_reject_handshake %q, root %q", got["ssl_reject_handshake"], got["root"])
	}
	if got := complete(s, uri, 4, 13); got["proxy_ssl_certificate_cache"] != "" {
		t.Errorf("for nginx 1.18: proxy_ssl_certificate_cache %q", got["proxy_ssl_certificate_cache"])
	}
}

// TestDirectiveCompletionFollowsTheBuild: with a build named (saved
// "nginx -V"), completion offers its modules only, and a module it
// builds as a shared object last, until a load_module loads it.
func TestDirectiveCompletionFollowsTheBuild(t *testing.T) {
	build := "nginx version: nginx/1.24.0\nbuilt with OpenSSL 3.0.11\n" +
		"configure arguments: --prefix=/etc/nginx --with-http_geoip_module=dynamic --without-http_gzip_module\n"
	s := startSession(t, map[string]string{"nginx-V.txt": build}, nil)
	s = startSession(t, nil, map[string]any{"nginxBuild": filepath.Join(s.dir, "nginx-V.txt")})
	complete := func(text string) map[string]string {
		uri := s.open("nginx.conf", text)
		defer s.c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
		l, c := where(t, text, "http {\n", -1)
		var items []struct{ Label, SortText string }
		if err := json.Unmarshal(s.ask("textDocument/completion", at(uri, l, c)), &items); err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, it := range items {
			out[it.Label] = it.SortText
		}
		return out
	}
	got := complete("events {}\nhttp {\n\n}\n")
	if got["root"] == "" || got["ssl_certificate"] != "" || got["gzip"] != "" {
		t.Errorf("root %q, ssl_certificate %q (no --with-http_ssl_module), gzip %q (--without-http_gzip_module)", got["root"], got["ssl_certificate"], got["gzip"])
	}
	if !strings.HasPrefix(got["geoip_country"], "3") {
		t.Errorf("geoip_country, a shared object nothing loads: %q", got["geoip_country"])
	}
	got = complete("load_module modules/ngx_http_geoip_module.so;\nevents {}\nhttp {\n\n}\n")
	if !(got["geoip_country"] < "2") {
		t.Errorf("geoip_country, loaded: %q", got["geoip_country"])
	}
}

// TestMissingSemicolonFixFromItsLine: the quick fix that inserts a
// missing ";" is offered on the line that lost it, not only at the "}"
// where nginx reports it.
func TestMissingSemicolonFixFromItsLine(t *testing.T) {
	s := startSession(t, nil, nil)
	uri := s.open("nginx.conf", "events {}\nhttp {\n    server {\n        root /var/www\n    }\n}\n")
	var acts []struct {
		Title string
		Edit  struct {
			Changes map[string][]struct {
				Range   lspRange
				NewText string
			}
		}
	}
	if err := json.Unmarshal(s.ask("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range":   map[string]any{"start": map[string]any{"line": 3, "character": 12}, "end": map[string]any{"line": 3, "character": 12}},
		"context": map[string]any{"diagnostics": []any{}}}), &acts); err != nil {
		t.Fatal(err)
	}
	if len(acts) != 1 || acts[0].Title != `Insert ";"` || acts[0].Edit.Changes[uri][0].Range.String() != "3:21-3:21" {
		t.Errorf("actions on the line of root: %+v", acts)
	}
}

// TestMapHoverEveryKey: hover on a map's variable lists its lines as
// written, the empty key (two quotes) too.
func TestMapHoverEveryKey(t *testing.T) {
	s := startSession(t, nil, nil)
	uri := s.open("nginx.conf", shopConf)
	var h struct{ Contents struct{ Value string } }
	if err := json.Unmarshal(s.ask("textDocument/hover", at(uri, 8, 14)), &h); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"- `'' empty`", "- `default page`", "- `~^/api api`"} {
		if !strings.Contains(h.Contents.Value, want) {
			t.Errorf("hover lacks %s:\n%s", want, h.Contents.Value)
		}
	}
}
