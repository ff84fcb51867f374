package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nginx-lint/nginx-lint/internal/testfiles"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// client records what the server sends.
type client struct {
	mu        sync.Mutex
	published map[protocol.DocumentUri][]protocol.Diagnostic
}

func (c *client) ctx() notifier {
	return func(method string, params any) {
		if method != protocol.ServerTextDocumentPublishDiagnostics {
			return
		}
		p := params.(protocol.PublishDiagnosticsParams)
		c.mu.Lock()
		c.published[p.URI] = p.Diagnostics
		c.mu.Unlock()
	}
}

// diags returns what was last published for uri.
func (c *client) diags(uri protocol.DocumentUri) []protocol.Diagnostic {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.published[uri]
}

var bg = context.Background()

func setup(t *testing.T, files map[string]string) (*Server, *client, string) {
	t.Helper()
	dir := t.TempDir()
	testfiles.Write(t, dir, files)
	s := New()
	root := string(pathToURI(dir))
	s.initialize(&protocol.InitializeParams{RootURI: &root})
	return s, &client{published: map[protocol.DocumentUri][]protocol.Diagnostic{}}, dir
}

func open(t *testing.T, s *Server, c *client, path, text string) protocol.DocumentUri {
	t.Helper()
	uri := pathToURI(path)
	err := s.didOpen(c.ctx(), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: uri, LanguageID: "nginx", Version: 1, Text: text}})
	if err != nil {
		t.Fatal(err)
	}
	s.Settle()
	return uri
}

func TestDiagnosticsUTF16AndFix(t *testing.T) {
	s, c, dir := setup(t, nil)
	// "é" is two bytes but one UTF-16 unit; the missing ";" is after it.
	text := "events {}\nhttp {\n    server {\n        root /srv/é\n    }\n}\n"
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), text)
	ds := c.diags(uri)
	if len(ds) != 1 {
		t.Fatalf("diagnostics %+v", ds)
	}
	d := ds[0]
	if d.Code.Value != "NL1001" || d.Range.Start.Line != 4 || d.Range.Start.Character != 4 || *d.Source != "nginx-lint" {
		t.Errorf("diagnostic %+v", d)
	}
	if !strings.HasSuffix(d.CodeDescription.HRef, "/syntax-error.md") {
		t.Errorf("href %q", d.CodeDescription.HRef)
	}
	// The quick fix inserts ";" right after "é": line 3, UTF-16 column 19.
	res, err := s.codeAction(bg, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri},
		Range: protocol.Range{Start: protocol.Position{Line: 4}, End: protocol.Position{Line: 4, Character: 5}}})
	if err != nil {
		t.Fatal(err)
	}
	acts := res.([]protocol.CodeAction)
	if len(acts) != 1 {
		t.Fatalf("actions %+v", acts)
	}
	edit := acts[0].Edit.Changes[uri][0]
	if edit.NewText != ";" || edit.Range.Start.Line != 3 || edit.Range.Start.Character != 19 {
		t.Errorf("edit %+v", edit)
	}

	// Apply it as an incremental change: the diagnostics go away.
	err = s.didChange(c.ctx(), &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri}, Version: 2},
		ContentChanges: []any{protocol.TextDocumentContentChangeEvent{Range: &edit.Range, Text: ";"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Settle()
	if ds := c.diags(uri); len(ds) != 0 {
		t.Errorf("after the fix: %+v", ds)
	}
	if got := string(s.docs[uri].buf); !strings.Contains(got, "root /srv/é;\n") {
		t.Errorf("text after edit %q", got)
	}
}

func TestUnsavedIncludeIsLinted(t *testing.T) {
	s, c, dir := setup(t, map[string]string{
		"nginx.conf": "events {}\nhttp {\n    include site.conf;\n}\n",
		"site.conf":  "server { listen 80; }\n",
	})
	// The editor has an unsaved, broken site.conf open.
	open(t, s, c, filepath.Join(dir, "site.conf"), "server {\n    listen 80\n}\n")
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), "events {}\nhttp {\n    include site.conf;\n}\n")
	if ds := c.diags(uri); len(ds) != 0 {
		t.Errorf("main has findings of its own: %+v", ds)
	}
	main := s.viewOf(uri)
	if len(main.config.Files) != 2 || !strings.Contains(main.config.Files[1].Src, "listen 80\n") {
		t.Fatalf("the overlay was not used: %+v", main.config.Files)
	}
	// Definition on the include argument jumps to the file.
	res, _ := s.definition(bg, &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: protocol.Position{Line: 2, Character: 14}}})
	locs := res.([]protocol.Location)
	if len(locs) != 1 || !strings.HasSuffix(string(locs[0].URI), "/site.conf") {
		t.Errorf("definition %+v", locs)
	}
}

func TestHoverCompletionSymbols(t *testing.T) {
	s, c, dir := setup(t, nil)
	text := "events {}\nhttp {\n    upstream app { server 127.0.0.1:9000; }\n    server {\n        listen 80;\n        server_name example.com;\n        location / { proxy_pass http://app; return 200 $host; }\n        \n    }\n}\n"
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), text)
	pos := func(line, char int) protocol.TextDocumentPositionParams {
		return protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri},
			Position: protocol.Position{Line: protocol.UInteger(line), Character: protocol.UInteger(char)}}
	}
	h, err := s.hover(bg, &protocol.HoverParams{TextDocumentPositionParams: pos(4, 10)})
	if err != nil || h == nil {
		t.Fatalf("hover %v %v", h, err)
	}
	if v := h.Contents.(protocol.MarkupContent).Value; !strings.Contains(v, "**listen**") || !strings.Contains(v, "nginx.org") {
		t.Errorf("hover text %q", v)
	}
	hv, _ := s.hover(bg, &protocol.HoverParams{TextDocumentPositionParams: pos(6, 56)})
	if hv == nil || !strings.Contains(hv.Contents.(protocol.MarkupContent).Value, "$host") {
		t.Errorf("variable hover %+v", hv)
	}

	res, _ := s.completion(bg, &protocol.CompletionParams{TextDocumentPositionParams: pos(7, 8)})
	items := res.([]protocol.CompletionItem)
	labels := map[string]bool{}
	for _, it := range items {
		labels[it.Label] = true
	}
	if !labels["listen"] || !labels["server_name"] || labels["worker_processes"] || labels["http"] {
		t.Errorf("server-block completion has %d items; listen %v worker_processes %v", len(items), labels["listen"], labels["worker_processes"])
	}

	sres, _ := s.documentSymbol(bg, &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	b, _ := json.Marshal(sres)
	for _, want := range []string{`"name":"http"`, `"name":"server example.com","detail":"example.com 80"`, `"name":"location /","detail":"/"`, `"name":"upstream app","detail":"app"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("symbols lack %s: %s", want, b)
		}
	}

	def, _ := s.definition(bg, &protocol.DefinitionParams{TextDocumentPositionParams: pos(6, 36)})
	if locs := def.([]protocol.Location); len(locs) != 1 || locs[0].Range.Start.Line != 2 {
		t.Errorf("upstream definition %+v", def)
	}
}

func TestOffsetOf(t *testing.T) {
	text := "ab\n😀x\n"
	cases := []struct {
		line, char protocol.UInteger
		want       int
	}{{0, 0, 0}, {0, 2, 2}, {0, 9, 2}, {1, 2, 7}, {1, 3, 8}, {5, 0, len(text)}}
	for _, c := range cases {
		if got := offsetOf(text, protocol.Position{Line: c.line, Character: c.char}); got != c.want {
			t.Errorf("offsetOf(%d,%d) = %d, want %d", c.line, c.char, got, c.want)
		}
	}
}

// TestSettingsAndSuppression: the editor sees what the command line sees,
// .nginx-lint.yaml and ignore comments included.
func TestSettingsAndSuppression(t *testing.T) {
	s, c, dir := setup(t, map[string]string{".nginx-lint.yaml": "rules:\n  missing-semicolon: off\n"})
	text := "events {}\nhttp {\n    server {\n        listen 80\n        server_name a.example;\n        # nginx-lint ignore=unknown-directive vendor module\n        vts_status on;\n        gzip_typo on;\n    }\n}\n"
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), text)
	var codes []string
	for _, d := range c.diags(uri) {
		codes = append(codes, fmt.Sprintf("%v@%d", d.Code.Value, d.Range.Start.Line))
	}
	if got := strings.Join(codes, " "); got != "NL2001@7" {
		t.Errorf("findings %s, want only the unknown gzip_typo (NL2001@7)", got)
	}
}

func TestFormatting(t *testing.T) {
	s, c, dir := setup(t, nil)
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), "events{}\nhttp{gzip on;}\n")
	edits, err := s.formatting(bg, &protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	if err != nil || len(edits) != 1 {
		t.Fatalf("edits %v %v", edits, err)
	}
	if edits[0].NewText != "events {}\nhttp {\n    gzip on;\n}\n" || edits[0].Range.End.Line != 2 {
		t.Errorf("edit %+v", edits[0])
	}
	// The editor's indentation: two spaces, then tabs.
	for _, o := range []struct {
		opts protocol.FormattingOptions
		want string
	}{
		{protocol.FormattingOptions{"tabSize": float64(2), "insertSpaces": true}, "events {}\nhttp {\n  gzip on;\n}\n"},
		{protocol.FormattingOptions{"tabSize": float64(8), "insertSpaces": false}, "events {}\nhttp {\n\tgzip on;\n}\n"},
	} {
		edits, err := s.formatting(bg, &protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Options: o.opts})
		if err != nil || len(edits) != 1 || edits[0].NewText != o.want {
			t.Errorf("options %v: edits %+v %v", o.opts, edits, err)
		}
	}
	broken := open(t, s, c, filepath.Join(dir, "b.conf"), "http {\n")
	if edits, _ := s.formatting(bg, &protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: broken}}); len(edits) != 0 {
		t.Errorf("a broken document was formatted: %v", edits)
	}
}

// TestFormattingKeepsTheFile formats Debian's tab-indented site file as
// Emacs with eglot asks (insertSpaces true, tabSize 8): its own tabs,
// alignment and blank lines stay, so there is no edit; a settings file's
// fmt: section wins over the file.
func TestFormattingKeepsTheFile(t *testing.T) {
	site, err := os.ReadFile(filepath.Join("..", "testdata", "layouts", "debian", "etc", "nginx", "sites-available", "default"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(site), "\n\tlisten 80 default_server;") {
		t.Fatalf("the Debian site file is not tab-indented any more:\n%s", site)
	}
	eglot := protocol.FormattingOptions{"tabSize": float64(8), "insertSpaces": true}
	s, c, dir := setup(t, map[string]string{"sites-available/default": string(site)})
	uri := open(t, s, c, filepath.Join(dir, "sites-available", "default"), string(site))
	edits, err := s.formatting(bg, &protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Options: eglot})
	if err != nil || len(edits) != 0 {
		t.Errorf("Debian's site file formatted: %v %+v", err, edits)
	}
	// Every stock file, as three editors ask: no edit.
	layouts := filepath.Join("..", "testdata", "layouts")
	n := 0
	filepath.WalkDir(layouts, func(p string, e os.DirEntry, err error) error {
		if err != nil || !e.Type().IsRegular() || filepath.Base(p) == "README.md" {
			return err
		}
		text, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(layouts, p)
		uri := open(t, s, c, filepath.Join(dir, "layouts", rel), string(text))
		for _, o := range []protocol.FormattingOptions{eglot, {"tabSize": float64(4), "insertSpaces": true}, {"tabSize": float64(8), "insertSpaces": false}} {
			edits, err := s.formatting(bg, &protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Options: o})
			if err != nil || len(edits) != 0 {
				t.Errorf("%s with %v: %v, edits %+v", rel, o, err, edits)
			}
		}
		n++
		return nil
	})
	if n < 48 {
		t.Errorf("formatted %d stock files, want at least 48", n)
	}

	// A messy file with tabs keeps tabs, whatever the editor says.
	messy := open(t, s, c, filepath.Join(dir, "sites-available", "messy"), "server {\n\tlisten 80;\n  root /srv;\n\tlocation / { try_files $uri =404; }\n}\n")
	edits, err = s.formatting(bg, &protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: messy}, Options: eglot})
	if want := "server {\n\tlisten 80;\n\troot /srv;\n\tlocation / {\n\t\ttry_files $uri =404;\n\t}\n}\n"; err != nil || len(edits) != 1 || edits[0].NewText != want {
		t.Errorf("messy tab file: %v %+v", err, edits)
	}

	// fmt: in the settings file decides over the file and the editor.
	s, c, dir = setup(t, map[string]string{".nginx-lint.yaml": "fmt:\n  indent: 2\n  spacing: single\n", "sites-available/default": string(site)})
	uri = open(t, s, c, filepath.Join(dir, "sites-available", "default"), string(site))
	edits, err = s.formatting(bg, &protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Options: eglot})
	if err != nil || len(edits) != 1 || !strings.Contains(edits[0].NewText, "\n  listen 80 default_server;\n") || strings.Contains(edits[0].NewText, "\n\tlisten") {
		t.Errorf("fmt: indent: 2 not applied: %v %+v", err, edits)
	}
}

func TestCostHover(t *testing.T) {
	s, c, dir := setup(t, nil)
	text := "events {}\nhttp {\n    server_names_hash_bucket_size 32;\n" +
		"    server { listen 127.0.0.1:8080; server_name a-name-much-longer-than-thirty-two-bytes.example; }\n" +
		"    server { listen 127.0.0.2:8080; }\n" +
		"    server { listen 127.0.0.1:8080; server_name b.example; }\n}\n"
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), text)
	hover := func(line, char int) string {
		t.Helper()
		h, err := s.hover(bg, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: uri},
			Position:     protocol.Position{Line: protocol.UInteger(line), Character: protocol.UInteger(char)}}})
		if err != nil || h == nil {
			t.Fatalf("hover %d:%d: %v %v", line, char, h, err)
		}
		return h.Contents.(protocol.MarkupContent).Value
	}
	// On the address of the second server's listen. Port 8080 has two
	// addresses: .2 is new after 1 compare, the third server finds .1 at
	// the first: 2 compares; no wildcard, so each address is a socket.
	v := hover(4, 25)
	for _, want := range []string{"`127.0.0.2:8080`: 1 server, its own listening socket", "port 8080: 2 addresses", ": 2 compares", "; 2 listening sockets"} {
		if !strings.Contains(v, want) {
			t.Errorf("listen hover lacks %q:\n%s", want, v)
		}
	}
	// On server_name: nginx aligns the bucket size to the cache line (64),
	// which the 47-byte name does not fit: 128 does.
	v = hover(3, 40)
	for _, want := range []string{"names hash of `127.0.0.1:8080`: 2 names", "could not build server_names_hash, you should increase server_names_hash_bucket_size: 64", "`server_names_hash_bucket_size 128;` avoids it"} {
		if !strings.Contains(v, want) {
			t.Errorf("server_name hover lacks %q:\n%s", want, v)
		}
	}
	// The directive documentation is still there on the name.
	if v := hover(3, 16); !strings.Contains(v, "**listen**") || !strings.Contains(v, "**Startup cost**") {
		t.Errorf("listen name hover:\n%s", v)
	}
}

// TestCostHoverSettings: the hover's model takes the cost rules' options
// from the settings file: as a non-root user, servers without listen get
// *:8000.
func TestCostHoverSettings(t *testing.T) {
	s, c, dir := setup(t, map[string]string{".nginx-lint.yaml": "rules:\n  listen-port-aggregation:\n    options: {nonroot: true}\n"})
	text := "events {}\nhttp {\n    server { server_name a.example; }\n    server { server_name b.example; }\n}\n"
	uri := open(t, s, c, filepath.Join(dir, "nginx.conf"), text)
	h, err := s.hover(bg, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: protocol.Position{Line: 2, Character: 16}}})
	if err != nil || h == nil {
		t.Fatalf("hover %v %v", h, err)
	}
	if v := h.Contents.(protocol.MarkupContent).Value; !strings.Contains(v, "names hash of `0.0.0.0:8000`: 2 names") {
		t.Errorf("hover:\n%s", v)
	}
}

// TestIncludedFileInItsRoot: a file that a nearby nginx.conf includes is
// checked where nginx reads it: listen included straight into http is
// misplaced, which the file alone (a fine server fragment) cannot show.
func TestIncludedFileInItsRoot(t *testing.T) {
	s, c, dir := setup(t, map[string]string{
		"nginx.conf": "events {}\nhttp {\n    include conf.d/*.conf;\n}\n",
	})
	uri := open(t, s, c, filepath.Join(dir, "conf.d", "a.conf"), "listen 80;\nserver_name a.example;\n")
	var got []string
	for _, d := range c.diags(uri) {
		got = append(got, fmt.Sprintf("%v@%d", d.Code.Value, d.Range.Start.Line))
	}
	if strings.Join(got, " ") != "NL2002@0 NL2002@1" {
		t.Errorf("diagnostics %v, want listen and server_name not allowed in http (NL2002 on lines 0 and 1)", got)
	}
	// A file no nginx.conf includes is a fragment in its inferred context.
	other := open(t, s, c, filepath.Join(dir, "snippets", "b.conf"), "listen 80;\nserver_name b.example;\n")
	if len(c.diags(other)) != 0 {
		t.Errorf("fragment diagnostics %v", c.diags(other))
	}
}

// TestIncludedTwiceReportedOnce: a snippet included in two servers has a
// finding per inclusion; the editor shows it once.
func TestIncludedTwiceReportedOnce(t *testing.T) {
	s, c, dir := setup(t, map[string]string{
		"nginx.conf": "events {}\nhttp {\n    server { listen 80; include snippets/s.conf; }\n    server { listen 81; include snippets/s.conf; }\n}\n",
	})
	uri := open(t, s, c, filepath.Join(dir, "snippets", "s.conf"), "gzipp on;\n")
	if n := len(c.diags(uri)); n != 1 {
		t.Errorf("%d diagnostics, want 1: %+v", n, c.diags(uri))
	}
}

// TestDumpDocument: nginx -T output opened in the editor is linted as
// the command line reads it (its files include each other), and each
// finding lands on the dump's own line.
func TestDumpDocument(t *testing.T) {
	s, c, dir := setup(t, nil)
	text := "nginx: the configuration file /etc/nginx/nginx.conf syntax is ok\n" +
		"# configuration file /etc/nginx/nginx.conf:\n" +
		"events {}\nhttp {\n    include /etc/nginx/conf.d/a.conf;\n}\n\n" +
		"# configuration file /etc/nginx/conf.d/a.conf:\n" +
		"server {\n    listen 80;\n    gzipp on;\n}\n\n"
	uri := open(t, s, c, filepath.Join(dir, "dump.txt"), text)
	ds := c.diags(uri)
	if len(ds) != 1 || ds[0].Code.Value != "NL2001" || ds[0].Range.Start.Line != 10 || ds[0].Range.Start.Character != 4 {
		t.Errorf("diagnostics %+v, want NL2001 at 10:4", ds)
	}
	// A dump has no tree for editor features, whether the view is the
	// lint's or one parsed for the request (the lint's dropped here).
	for _, drop := range []bool{false, true} {
		if drop {
			s.mu.Lock()
			s.docs[uri].view = nil
			s.mu.Unlock()
		}
		if r, err := s.foldingRange(bg, &protocol.FoldingRangeParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}); r != nil || err != nil {
			t.Errorf("foldingRange on the dump (view dropped %v): %v %v", drop, r, err)
		}
		if r, err := s.documentSymbol(bg, &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}); r != nil || err != nil {
			t.Errorf("documentSymbol on the dump (view dropped %v): %v %v", drop, r, err)
		}
	}
}
