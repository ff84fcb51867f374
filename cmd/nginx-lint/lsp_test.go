package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary stand in for nginx-lint, so the stdio test
// below runs the real command in a child process.
func TestMain(m *testing.M) {
	// Outputs must not depend on whether nginx is installed here (the
	// summary's hint): a test that wants one sets findNginx.
	findNginx = func() (string, error) { return "", errors.New("no nginx in tests") }
	if os.Getenv("NGINX_LINT_BE_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// lspClient speaks JSON-RPC with Content-Length framing, as editors do.
type lspClient struct {
	t   *testing.T
	in  io.Writer
	out *bufio.Reader
}

func (c *lspClient) send(method string, id int, params any) {
	c.t.Helper()
	msg := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
	if id > 0 {
		msg["id"] = id
	}
	b, _ := json.Marshal(msg)
	if _, err := fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(b), b); err != nil {
		c.t.Fatal(err)
	}
}

func (c *lspClient) read() map[string]any {
	c.t.Helper()
	length := 0
	for {
		line, err := c.out.ReadString('\n')
		if err != nil {
			c.t.Fatalf("reading header: %v", err)
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			length, _ = strconv.Atoi(v)
		}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(c.out, body); err != nil {
		c.t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		c.t.Fatal(err)
	}
	return m
}

// until reads messages until one satisfies ok.
func (c *lspClient) until(ok func(map[string]any) bool) map[string]any {
	c.t.Helper()
	for i := 0; i < 50; i++ {
		if m := c.read(); ok(m) {
			return m
		}
	}
	c.t.Fatal("expected message never came")
	return nil
}

// TestLSPOverStdio runs "nginx-lint lsp" as a child process and drives it
// like an editor: initialize, open a broken file, read the diagnostics,
// shut down.
func TestLSPOverStdio(t *testing.T) {
	in, c, wait, _ := lspChild(t)
	defer func() {
		if !wait(10 * time.Second) {
			t.Error("server did not exit after exit notification")
		}
	}()

	c.send("initialize", 1, map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}})
	init := c.until(func(m map[string]any) bool { return m["id"] == 1.0 })
	caps, _ := init["result"].(map[string]any)["capabilities"].(map[string]any)
	if caps["hoverProvider"] != true || caps["completionProvider"] == nil {
		t.Errorf("capabilities %v", caps)
	}
	c.send("initialized", 0, map[string]any{})

	uri := "file://" + filepath.ToSlash(filepath.Join(t.TempDir(), "nginx.conf"))
	c.send("textDocument/didOpen", 0, map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "nginx", "version": 1,
		"text": "events {}\nhttp {\n    server {\n        listen 80\n        server_name a.example;\n    }\n}\n"}})
	pub := c.until(func(m map[string]any) bool { return m["method"] == "textDocument/publishDiagnostics" })
	diags := pub["params"].(map[string]any)["diagnostics"].([]any)
	if len(diags) == 0 {
		t.Fatal("no diagnostics for a missing semicolon")
	}
	d := diags[0].(map[string]any)
	// The range is the word the ";" belongs after ("80"), which a cursor
	// can reach.
	start := d["range"].(map[string]any)["start"].(map[string]any)
	end := d["range"].(map[string]any)["end"].(map[string]any)
	if d["code"] != "NL1002" || start["line"] != 3.0 || start["character"] != 15.0 || end["character"] != 17.0 {
		t.Errorf("diagnostic %v", d)
	}

	c.send("shutdown", 2, nil)
	c.until(func(m map[string]any) bool { return m["id"] == 2.0 })
	c.send("exit", 0, nil)
	in.Close()
}
