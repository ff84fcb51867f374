package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
)

// TestMain lets the test binary be the server in a child process
// (NGINX_LINT_LSP_CHILD=1), so the stdio tests run the real RunStdio with
// real pipes.
//
// NGINX_LINT_LSP_CHILD=endless is a server whose only rule is endlessRule's
// (it says on standard error when its run starts and stops) and whose
// debounce is an hour: a document edited during a lint is linted again
// only when a request hurries it.
func TestMain(m *testing.M) {
	switch os.Getenv("NGINX_LINT_LSP_CHILD") {
	case "1":
		os.Exit(New().RunStdio())
	case "endless":
		s := New()
		s.Debounce = time.Hour
		reg, err := analyzer.NewRegistry(endless(
			func() { fmt.Fprintln(os.Stderr, endlessStarted) },
			func() { fmt.Fprintln(os.Stderr, endlessStopped) }))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		s.reg = reg
		os.Exit(s.RunStdio())
	}
	os.Exit(m.Run())
}

// rpcClient drives a server over a byte stream as an editor does. It
// parses what the server writes with its own strict reader, so anything
// on the stream that is not a well-formed frame fails the test.
type rpcClient struct {
	t    *testing.T
	in   io.WriteCloser
	msgs chan []byte
	// readErr is set when the server's output ended; nil for a clean end.
	readErr error
	exit    func() int
}

// reply is a decoded message from the server.
type reply struct {
	raw    []byte
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

func readFrames(t *testing.T, out io.Reader, msgs chan<- []byte, done func(error)) {
	br := bufio.NewReader(out)
	for {
		length := -1
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				if err == io.EOF && line == "" && length == -1 {
					err = nil
				}
				done(err)
				return
			}
			if !strings.HasSuffix(line, "\r\n") {
				done(fmt.Errorf("header line %q does not end in CRLF", line))
				return
			}
			line = strings.TrimSuffix(line, "\r\n")
			if line == "" {
				break
			}
			v, ok := strings.CutPrefix(line, "Content-Length: ")
			if !ok {
				done(fmt.Errorf("unexpected header %q", line))
				return
			}
			n, err := strconv.Atoi(v)
			if err != nil {
				done(err)
				return
			}
			length = n
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(br, body); err != nil {
			done(err)
			return
		}
		if !json.Valid(body) {
			done(fmt.Errorf("body is not JSON: %q", body))
			return
		}
		msgs <- body
	}
}

// pipeClient runs a server in this process over in-memory pipes.
func pipeClient(t *testing.T, s *Server) *rpcClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &rpcClient{t: t, in: inW, msgs: make(chan []byte, 4096)}
	code := make(chan int, 1)
	go func() {
		code <- s.Serve(inR, outW, io.Discard)
		outW.Close()
	}()
	var once sync.Once
	readDone := make(chan struct{})
	go readFrames(t, outR, c.msgs, func(err error) { once.Do(func() { c.readErr = err; close(readDone) }) })
	c.exit = func() int {
		inW.Close()
		select {
		case v := <-code:
			<-readDone
			return v
		case <-time.After(30 * time.Second):
			t.Fatal("the server did not end")
			return -1
		}
	}
	t.Cleanup(func() { inW.Close(); inR.Close() })
	return c
}

// procClient runs the server as a child process over stdio.
func procClient(t *testing.T) *rpcClient {
	t.Helper()
	return childClient(t, "1", nil)
}

// childClient runs the server as a child process over stdio, the kind
// of server TestMain makes for child; its standard error goes to also
// (when not nil) as well as to the test's log on failure.
func childClient(t *testing.T, child string, also io.Writer) *rpcClient {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "NGINX_LINT_LSP_CHILD="+child)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if f := os.Getenv("LSP_TEST_STDERR"); f != "" {
		w, err := os.Create(f)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = w
	}
	if also != nil {
		cmd.Stderr = io.MultiWriter(cmd.Stderr, also)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &rpcClient{t: t, in: in, msgs: make(chan []byte, 4096)}
	readDone := make(chan struct{})
	go readFrames(t, out, c.msgs, func(err error) { c.readErr = err; close(readDone) })
	waited := false
	c.exit = func() int {
		in.Close()
		timer := time.AfterFunc(30*time.Second, func() { cmd.Process.Kill() })
		defer timer.Stop()
		<-readDone
		err := cmd.Wait()
		waited = true
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	}
	t.Cleanup(func() {
		if !waited {
			in.Close()
			cmd.Process.Kill()
			cmd.Wait()
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	})
	return c
}

// raw sends bytes as they are.
func (c *rpcClient) raw(b string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, b); err != nil {
		c.t.Fatal(err)
	}
}

// frame sends body with a correct header.
func (c *rpcClient) frame(body string) {
	c.t.Helper()
	c.raw(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
}

// request sends a request with the id's raw JSON (a string of JSON).
func (c *rpcClient) request(id, method string, params any) {
	c.t.Helper()
	c.frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, id, method, mustJSON(c.t, params)))
}

// notify sends a notification.
func (c *rpcClient) notify(method string, params any) {
	c.t.Helper()
	c.frame(fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s}`, method, mustJSON(c.t, params)))
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// next returns the next message from the server.
func (c *rpcClient) next() *reply {
	c.t.Helper()
	select {
	case b := <-c.msgs:
		r := &reply{raw: b}
		if err := json.Unmarshal(b, r); err != nil {
			c.t.Fatalf("decoding %s: %v", b, err)
		}
		return r
	case <-time.After(60 * time.Second):
		// A guard against a wedged server, not a timing assertion.
		c.t.Fatalf("no message from the server in 60s (read error: %v)", c.readErr)
		return nil
	}
}

// answer returns the next reply to a request, skipping notifications
// (diagnostics, log messages).
func (c *rpcClient) answer() *reply {
	c.t.Helper()
	for {
		if r := c.next(); r.Method == "" {
			return r
		}
	}
}

// published waits for the diagnostics of uri at version.
func (c *rpcClient) published(uri string, version int) []map[string]any {
	c.t.Helper()
	for {
		r := c.next()
		if r.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var p struct {
			URI         string           `json:"uri"`
			Version     *int             `json:"version"`
			Diagnostics []map[string]any `json:"diagnostics"`
		}
		if err := json.Unmarshal(r.Params, &p); err != nil {
			c.t.Fatal(err)
		}
		if p.URI == uri && p.Version != nil && *p.Version == version {
			return p.Diagnostics
		}
	}
}

// initialize performs the handshake with rootURI as the workspace.
func (c *rpcClient) initialize(rootURI string) {
	c.t.Helper()
	var root any
	if rootURI != "" {
		root = rootURI
	}
	c.request("1", "initialize", map[string]any{"processId": nil, "rootUri": root, "capabilities": map[string]any{}})
	if r := c.answer(); r.Error != nil || string(r.ID) != "1" {
		c.t.Fatalf("initialize: %s", r.raw)
	}
	c.notify("initialized", map[string]any{})
}

// wantError checks that r is an error reply with code for id (raw JSON).
func wantError(t *testing.T, r *reply, id string, code int) {
	t.Helper()
	if r.Error == nil || r.Error.Code != code || string(r.ID) != id {
		t.Errorf("want error %d for id %s, got %s", code, id, r.raw)
	}
}
