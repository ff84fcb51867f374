package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nginx-lint/nginx-lint/internal/testfiles"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/parser"
)

// transports runs f against a server in this process over in-memory pipes
// and against one in a child process over real stdio.
func transports(t *testing.T, f func(t *testing.T, c *rpcClient)) {
	t.Run("pipe", func(t *testing.T) { f(t, pipeClient(t, New())) })
	t.Run("stdio", func(t *testing.T) { f(t, procClient(t)) })
}

// hoverParams asks about a document that is not open: the answer is a
// null result, which proves the request went through.
var hoverParams = map[string]any{"textDocument": map[string]any{"uri": "file:///nowhere/x.conf"}, "position": map[string]any{"line": 0, "character": 0}}

func TestParseErrorAndGoOn(t *testing.T) {
	transports(t, func(t *testing.T, c *rpcClient) {
		c.initialize("")
		c.frame("{this is not json")
		r := c.answer()
		if string(r.raw) != `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: the message is not JSON"}}` {
			t.Errorf("parse error answer %s", r.raw)
		}
		// Not an object, no jsonrpc, a bad id type: invalid requests.
		for _, body := range []string{`[1,2]`, `"x"`, `{"id":3,"method":"shutdown"}`, `{"jsonrpc":"2.0","id":{"a":1},"method":"x"}`, `{"jsonrpc":"2.0","id":4}`} {
			c.frame(body)
			r := c.answer()
			if r.Error == nil || r.Error.Code != codeInvalidRequest {
				t.Errorf("%s: answer %s", body, r.raw)
			}
		}
		c.request("2", "textDocument/hover", hoverParams)
		if r := c.answer(); string(r.ID) != "2" || r.Error != nil || string(r.Result) != "null" {
			t.Errorf("after the errors: %s", r.raw)
		}
		c.request("3", "shutdown", nil)
		c.answer()
		c.notify("exit", nil)
		if code := c.exit(); code != 0 {
			t.Errorf("exit status %d", code)
		}
		if c.readErr != nil {
			t.Errorf("the output was not protocol only: %v", c.readErr)
		}
	})
}

func TestBadHeadersRecover(t *testing.T) {
	transports(t, func(t *testing.T, c *rpcClient) {
		c.initialize("")
		body := `{"jsonrpc":"2.0","id":9,"method":"textDocument/hover","params":` + mustJSON(t, hoverParams) + `}`
		for i, bad := range []string{
			"garbage without a header\r\n",
			"Content-Length: abc\r\n\r\n",
			"Content-Length: -5\r\n\r\n",
			"Content-Type: application/vscode-jsonrpc\r\n\r\n", // no length
			"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", // two lengths
			"Content-Length: 2\r\nno colon here\r\n\r\n{}",     // malformed line
			"Content-Length: 2\r\nContent-Type: text/x; charset=latin1\r\n\r\n{}",
			"Content-Length: " + strings.Repeat("9", 5000) + "\r\n\r\n", // a huge header line
			"\r\n\r\n",
		} {
			c.raw(bad)
			// Each time the next good message is answered.
			c.raw(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
			if r := c.answer(); string(r.ID) != "9" || r.Error != nil {
				t.Errorf("case %d (%q): answer %s", i, bad, r.raw)
			}
		}
		// A body glued to the next header, and a header in lower case
		// with a bare newline.
		c.raw(`{"lost":"body"}` + fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
		if r := c.answer(); string(r.ID) != "9" {
			t.Errorf("glued: %s", r.raw)
		}
		c.raw(fmt.Sprintf("content-length: %d\n\n%s", len(body), body))
		if r := c.answer(); string(r.ID) != "9" {
			t.Errorf("lower case: %s", r.raw)
		}
		c.notify("exit", nil)
		if code := c.exit(); code != 1 {
			t.Errorf("exit without shutdown: status %d, want 1", code)
		}
	})
}

// TestFrameLimit: a message over the size limit is skipped without being
// buffered, and the next one is read.
func TestFrameLimit(t *testing.T) {
	big := strings.Repeat("x", 1000)
	in := fmt.Sprintf("Content-Length: %d\r\n\r\n%sContent-Length: 2\r\n\r\n{}", len(big), big)
	fr := newFrameReader(strings.NewReader(in))
	fr.max = 100
	_, err := fr.next()
	var fe *frameError
	if !errors.As(err, &fe) || !strings.Contains(fe.msg, "over the limit") {
		t.Fatalf("first: %v", err)
	}
	if b, err := fr.next(); err != nil || string(b) != "{}" {
		t.Fatalf("second: %q %v", b, err)
	}
	if _, err := fr.next(); err != io.EOF {
		t.Fatalf("end: %v", err)
	}
	// A truncated body ends the stream cleanly.
	fr = newFrameReader(strings.NewReader("Content-Length: 10\r\n\r\n{}"))
	if _, err := fr.next(); err != io.EOF {
		t.Fatalf("truncated: %v", err)
	}
}

func TestIDsRoundTrip(t *testing.T) {
	transports(t, func(t *testing.T, c *rpcClient) {
		c.initialize("")
		for _, id := range []string{"18446744073709551615", "-2147483648", "1.5", "0", "-0", "1e3", "123456789012345678901234567890",
			`"x"`, `""`, `"<&>"`, `"\u00e9\n"`, "null"} {
			c.request(id, "textDocument/hover", hoverParams)
			r := c.answer()
			if !bytes.HasPrefix(r.raw, []byte(`{"jsonrpc":"2.0","id":`+id+`,"result":null}`)) {
				t.Errorf("id %s came back as %s", id, r.raw)
			}
		}
		// Errors carry the id too.
		c.request("18446744073709551615", "no/such", map[string]any{})
		wantError(t, c.answer(), "18446744073709551615", codeMethodNotFound)
	})
}

func TestLifecycle(t *testing.T) {
	transports(t, func(t *testing.T, c *rpcClient) {
		// Before initialize: requests get -32002, notifications are
		// dropped (the didOpen below is never linted).
		c.request("1", "textDocument/hover", hoverParams)
		wantError(t, c.answer(), "1", codeServerNotInitialized)
		c.request("2", "shutdown", nil)
		wantError(t, c.answer(), "2", codeServerNotInitialized)
		c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "file:///early/x.conf", "languageId": "nginx", "version": 1, "text": "http {"}})
		c.initialize("")
		c.request("3", "initialize", map[string]any{"capabilities": map[string]any{}})
		wantError(t, c.answer(), "3", codeInvalidRequest)
		// Unknown methods: requests get -32601; notifications (with or
		// without "$/") are ignored: the next answer is for id 6.
		c.request("4", "textDocument/moniker", map[string]any{})
		wantError(t, c.answer(), "4", codeMethodNotFound)
		c.request("5", "$/unknownRequest", map[string]any{})
		wantError(t, c.answer(), "5", codeMethodNotFound)
		c.notify("$/progress", map[string]any{"token": 1})
		c.notify("custom/thing", map[string]any{})
		// A notification method sent as a request is not a request.
		c.request("6", "textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": "file:///x"}})
		wantError(t, c.answer(), "6", codeMethodNotFound)
		// Invalid params: wrong types, missing, negative and overflowing
		// positions.
		for i, params := range []string{`{"textDocument":5,"position":{"line":0,"character":0}}`, `null`,
			`{"textDocument":{"uri":"file:///x"},"position":{"line":-1,"character":0}}`,
			`{"textDocument":{"uri":"file:///x"},"position":{"line":4294967296,"character":0}}`, `3`} {
			c.frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"textDocument/hover","params":%s}`, 10+i, params))
			wantError(t, c.answer(), fmt.Sprint(10+i), codeInvalidParams)
		}
		c.request("20", "shutdown", nil)
		if r := c.answer(); r.Error != nil || string(r.Result) != "null" {
			t.Errorf("shutdown: %s", r.raw)
		}
		c.request("21", "textDocument/hover", hoverParams)
		wantError(t, c.answer(), "21", codeInvalidRequest)
		c.notify("exit", nil)
		if code := c.exit(); code != 0 {
			t.Errorf("exit after shutdown: status %d", code)
		}
		// Only the early didOpen could have published; nothing did.
		for {
			select {
			case b := <-c.msgs:
				if bytes.Contains(b, []byte("early")) {
					t.Errorf("a notification before initialize was acted on: %s", b)
				}
				continue
			default:
			}
			break
		}
	})
}

func TestExitStatus(t *testing.T) {
	for _, tc := range []struct {
		name     string
		shutdown bool
		exit     bool
		want     int
	}{{"exit after shutdown", true, true, 0}, {"exit alone", false, true, 1}, {"end of input", false, false, 1}, {"end of input after shutdown", true, false, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			transports(t, func(t *testing.T, c *rpcClient) {
				c.initialize("")
				if tc.shutdown {
					c.request("2", "shutdown", nil)
					c.answer()
				}
				if tc.exit {
					c.notify("exit", nil)
				}
				if code := c.exit(); code != tc.want {
					t.Errorf("status %d, want %d", code, tc.want)
				}
			})
		})
	}
}

// blockingMethod is a request that waits until cancelled or released: it
// stands for a slow handler, so cancellation is tested without timing.
func blockingMethod(release <-chan struct{}, started chan<- struct{}) method {
	return request(func(_ *Server, ctx context.Context, _ *struct{}) (any, error) {
		started <- struct{}{}
		select {
		case <-ctx.Done():
			return "late", nil
		case <-release:
			return "done", nil
		}
	})
}

func TestCancelRequest(t *testing.T) {
	release, started := make(chan struct{}), make(chan struct{}, 4)
	methods["test/block"] = blockingMethod(release, started)
	t.Cleanup(func() { delete(methods, "test/block") })
	c := pipeClient(t, New())
	c.initialize("")
	c.request(`"slow"`, "test/block", map[string]any{})
	<-started
	// The loop is free while the request runs: another one is answered.
	c.request("2", "textDocument/hover", hoverParams)
	if r := c.answer(); string(r.ID) != "2" {
		t.Fatalf("answer %s while a request runs", r.raw)
	}
	c.notify("$/cancelRequest", map[string]any{"id": "slow"})
	wantError(t, c.answer(), `"slow"`, codeRequestCancelled)
	// Exactly one answer: the next one is for id 3. Cancelling what is
	// done, or unknown, does nothing.
	c.notify("$/cancelRequest", map[string]any{"id": "slow"})
	c.notify("$/cancelRequest", map[string]any{"id": 77})
	c.request("3", "test/block", map[string]any{})
	<-started
	close(release)
	if r := c.answer(); string(r.ID) != "3" || string(r.Result) != `"done"` {
		t.Errorf("answer %s", r.raw)
	}
}

// gatedFS blocks the first read of one path until released, so a lint can
// be held in the middle while other requests come.
type gatedFS struct {
	parser.FileSystem
	path    string
	held    atomic.Bool
	entered chan struct{}
	release chan struct{}
}

func (g *gatedFS) ReadFile(p string) ([]byte, error) {
	// Only the first read waits (sync.Once would hold the others too).
	if p == g.path && g.held.CompareAndSwap(false, true) {
		close(g.entered)
		<-g.release
	}
	return g.FileSystem.ReadFile(p)
}

// TestSlowLintDoesNotBlockHover: while a lint is stuck reading an
// include, hover and completion on the document are answered.
func TestSlowLintDoesNotBlockHover(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, map[string]string{"slow.conf": "gzip on;\n"})
	g := &gatedFS{FileSystem: parser.OSFS{}, path: filepath.Join(dir, "slow.conf"), entered: make(chan struct{}), release: make(chan struct{})}
	s := New()
	s.FS = g
	c := pipeClient(t, s)
	c.initialize(string(pathToURI(dir)))
	uri := string(pathToURI(filepath.Join(dir, "nginx.conf")))
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "nginx", "version": 1,
		"text": "events {}\nhttp {\n    include slow.conf;\n    server { listen 80; }\n}\n"}})
	<-g.entered // the lint is now held
	c.request("2", "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 3, "character": 15}})
	r := c.answer()
	if string(r.ID) != "2" || !strings.Contains(string(r.Result), "listen") {
		t.Errorf("hover while linting: %s", r.raw)
	}
	c.request("3", "textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 3, "character": 4}})
	if r := c.answer(); string(r.ID) != "3" || !strings.Contains(string(r.Result), `"label":"server",`) {
		t.Errorf("completion while linting: %.200s", r.raw)
	}
	close(g.release)
	if ds := c.published(uri, 1); len(ds) != 0 {
		t.Errorf("diagnostics %v", ds)
	}
}

// TestHostileMessages: none of these crash or wedge the server; each is
// followed by a request that must be answered, and the diagnostics say
// what they should.
func TestHostileMessages(t *testing.T) {
	transports(t, func(t *testing.T, c *rpcClient) {
		dir := t.TempDir()
		c.initialize(string(pathToURI(dir)))
		alive := func(what string) {
			t.Helper()
			c.request("99", "textDocument/hover", hoverParams)
			if r := c.answer(); string(r.ID) != "99" {
				t.Fatalf("after %s: %s", what, r.raw)
			}
		}
		// didChange and didClose of a document never opened.
		c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": "file:///never/opened.conf", "version": 2},
			"contentChanges": []any{map[string]any{"text": "x"}}})
		c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": "file:///never/opened.conf"}})
		alive("didChange of an unopened document")

		// Invalid UTF-8 in a document (raw bytes in the JSON string).
		bad := string(pathToURI(filepath.Join(dir, "bad.conf")))
		c.frame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"` + bad +
			`","languageId":"nginx","version":1,"text":"server_name ` + "\xff\xfe\xc3" + `;\nlisten 80\n"}}}`)
		if ds := c.published(bad, 1); len(ds) == 0 {
			t.Errorf("no diagnostics for the invalid UTF-8 document")
		}
		// Out-of-range positions: clamped, answered.
		for _, pos := range []map[string]any{{"line": 100000, "character": 5}, {"line": 0, "character": 4000000000}} {
			c.request("7", "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": bad}, "position": pos})
			if r := c.answer(); string(r.ID) != "7" || r.Error != nil {
				t.Errorf("hover at %v: %s", pos, r.raw)
			}
		}
		// The features added since: out-of-range positions, and a
		// document that is not open, get an answer, never an error.
		for _, uri := range []string{bad, "file:///never/opened.conf"} {
			for _, pos := range []map[string]any{{"line": 100000, "character": 5}, {"line": 0, "character": 4000000000}, {"line": 1, "character": 3}} {
				for _, req := range featureRequests(uri, pos) {
					c.request("10", req.method, req.params)
					if r := c.answer(); string(r.ID) != "10" || r.Error != nil {
						t.Errorf("%s on %s at %v: %s", req.method, uri, pos, r.raw)
					}
				}
			}
		}
		c.request("8", "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": bad},
			"range": map[string]any{"start": map[string]any{"line": 9, "character": 9}, "end": map[string]any{"line": 0, "character": 0}}, "context": map[string]any{"diagnostics": []any{}}})
		if r := c.answer(); string(r.ID) != "8" || r.Error != nil {
			t.Errorf("codeAction with a reversed range: %s", r.raw)
		}
		c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": bad, "version": 2},
			"contentChanges": []any{map[string]any{"range": map[string]any{"start": map[string]any{"line": 50, "character": 0}, "end": map[string]any{"line": 2, "character": 99}}, "text": "}"}}})
		c.published(bad, 2)

		// A 50 MB document: reported as too large, not parsed.
		huge := string(pathToURI(filepath.Join(dir, "huge.conf")))
		c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": huge, "languageId": "nginx", "version": 1,
			"text": strings.Repeat("server { listen 80; }\n", 50<<20/22)}})
		ds := c.published(huge, 1)
		if len(ds) != 1 || !strings.Contains(fmt.Sprint(ds[0]["message"]), "too large") {
			t.Errorf("50 MB document: %v", ds)
		}
		c.request("9", "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": huge}, "position": map[string]any{"line": 0, "character": 1}})
		if r := c.answer(); string(r.Result) != "null" {
			t.Errorf("hover on the huge document: %.200s", r.raw)
		}
		for _, req := range featureRequests(huge, map[string]any{"line": 0, "character": 3}) {
			c.request("11", req.method, req.params)
			if r := c.answer(); string(r.Result) != "null" || r.Error != nil {
				t.Errorf("%s on the huge document: %.200s", req.method, r.raw)
			}
		}
		// Editing it down below the limit makes it a document again.
		c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": huge, "version": 2},
			"contentChanges": []any{map[string]any{"text": "server { listen 80 }\n"}}})
		if ds := c.published(huge, 2); len(ds) != 1 || ds[0]["code"] != "NL1001" {
			t.Errorf("after shrinking: %v", ds)
		}
		alive("the large document")
	})
}

type featureRequest struct {
	method string
	params map[string]any
}

// featureRequests are a request of every editor feature at pos in uri.
func featureRequests(uri string, pos map[string]any) []featureRequest {
	doc := map[string]any{"uri": uri}
	at := func(extra map[string]any) map[string]any {
		p := map[string]any{"textDocument": doc, "position": pos}
		for k, v := range extra {
			p[k] = v
		}
		return p
	}
	return []featureRequest{
		{"textDocument/foldingRange", map[string]any{"textDocument": doc}},
		{"textDocument/documentLink", map[string]any{"textDocument": doc}},
		{"textDocument/references", at(map[string]any{"context": map[string]any{"includeDeclaration": true}})},
		{"textDocument/documentHighlight", at(nil)},
		{"textDocument/prepareRename", at(nil)},
		{"textDocument/rename", at(map[string]any{"newName": "x"})},
		{"textDocument/signatureHelp", at(nil)},
	}
}

// TestRapidEdits: 1,000 edits in a row are gathered (the last text is
// what gets published) and the memory they used is given back.
func TestRapidEdits(t *testing.T) {
	dir := t.TempDir()
	s := New()
	c := pipeClient(t, s)
	c.initialize(string(pathToURI(dir)))
	uri := string(pathToURI(filepath.Join(dir, "nginx.conf")))
	var b strings.Builder
	b.WriteString("events {}\nhttp {\n")
	for i := range 300 {
		fmt.Fprintf(&b, "    server { listen %d; server_name s%d.example; location / { return 200; } }\n", 8000+i, i)
	}
	b.WriteString("}\n")
	text := b.String()
	open := func(version int) {
		c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "nginx", "version": version, "text": text}})
		c.published(uri, version)
	}
	heap := func() uint64 {
		s.Settle()
		var m runtime.MemStats
		for range 3 {
			runtime.GC()
		}
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	open(1)
	before := heap()
	const n = 1000
	for i := 2; i <= n+1; i++ {
		// Alternate a broken and a fixed first server: the ";" after
		// "listen 8000" (column 24) becomes " " and back.
		edit := ";"
		if i%2 == 0 {
			edit = " "
		}
		c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": i},
			"contentChanges": []any{map[string]any{"range": map[string]any{"start": map[string]any{"line": 2, "character": 24}, "end": map[string]any{"line": 2, "character": 25}}, "text": edit}}})
	}
	// The last version is published, with the last text's findings:
	// version n+1 is odd, so its edit put ";" back.
	if ds := c.published(uri, n+1); len(ds) != 0 {
		t.Errorf("last version's diagnostics %v", ds)
	}
	after := heap()
	t.Logf("heap before %d KiB, after %d KiB", before>>10, after>>10)
	if after > before+8<<20 {
		t.Errorf("heap grew from %d to %d bytes over %d edits", before, after, n)
	}
}

func TestInitializeOptionsAndCapabilities(t *testing.T) {
	s := New()
	res := s.initialize(&protocol.InitializeParams{})
	b, _ := json.Marshal(res)
	for _, want := range []string{`"hoverProvider":true`, `"definitionProvider":true`, `"documentFormattingProvider":true`, `"change":2`, `"didRename":{"filters":[{"pattern":{"glob":"**/*"}}]}`,
		`"foldingRangeProvider":true`, `"documentLinkProvider":{}`, `"referencesProvider":true`, `"documentHighlightProvider":true`,
		`"renameProvider":{"prepareProvider":true}`, `"signatureHelpProvider":{"triggerCharacters":[" "]}`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("capabilities lack %s: %s", want, b)
		}
	}
}

// panicFS panics on every read: it stands for a bug deep in the pipeline.
type panicFS struct{ parser.FileSystem }

func (panicFS) ReadFile(p string) ([]byte, error) { panic("read " + p) }

// TestLintPanicIsAFinding: a crash inside a lint becomes an
// internal-error finding on the document, a crash inside a request an
// internal error answer, and the server goes on.
func TestLintPanicIsAFinding(t *testing.T) {
	dir := t.TempDir()
	s := New()
	s.FS = panicFS{parser.OSFS{}}
	c := pipeClient(t, s)
	c.initialize(string(pathToURI(dir)))
	uri := string(pathToURI(filepath.Join(dir, "nginx.conf")))
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "nginx", "version": 1,
		"text": "events {}\nhttp {\n    include x.conf;\n}\n"}})
	ds := c.published(uri, 1)
	if len(ds) != 1 || ds[0]["code"] != "NL1000" || !strings.Contains(fmt.Sprint(ds[0]["message"]), "read ") {
		t.Errorf("diagnostics %v", ds)
	}
	// Features have no tree to work on: an empty answer.
	c.request("2", "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}})
	if r := c.answer(); r.Error != nil || string(r.Result) != "null" {
		t.Errorf("documentSymbol after a failed lint: %s", r.raw)
	}
	// A handler that panics is answered with an internal error.
	methods["test/panic"] = request(func(*Server, context.Context, *struct{}) (any, error) { panic("boom") })
	t.Cleanup(func() { delete(methods, "test/panic") })
	c.request("4", "test/panic", map[string]any{})
	wantError(t, c.answer(), "4", codeInternalError)
	c.request("3", "shutdown", nil)
	if r := c.answer(); string(r.ID) != "3" || r.Error != nil {
		t.Errorf("shutdown after the panics: %s", r.raw)
	}
}
