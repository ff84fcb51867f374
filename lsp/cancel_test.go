package lsp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// endlessRule is a rule that, on a configuration holding "# endless",
// runs until its run is cancelled: a lint that can only end by
// cancellation. started and stopped receive once per such run.
func endlessRule(t *testing.T) (reg *analyzer.Registry, started, stopped chan struct{}) {
	t.Helper()
	started, stopped = make(chan struct{}, 8), make(chan struct{}, 8)
	reg, err := analyzer.NewRegistry(endless(func() { started <- struct{}{} }, func() { stopped <- struct{}{} }))
	if err != nil {
		t.Fatal(err)
	}
	return reg, started, stopped
}

// endless is endlessRule's rule, calling start and stop.
func endless(start, stop func()) *analyzer.Rule {
	return &analyzer.Rule{Code: "NL5998", Name: "endless", Title: "runs until cancelled", Severity: parser.Warning,
		Doc: analyzer.Doc{Text: "x", Bad: "x", Good: "x"},
		Run: func(p *analyzer.Pass) {
			if !strings.Contains(p.Config.Main.Src, "# endless") {
				return
			}
			start()
			defer stop()
			for {
				p.CountOps(1)
			}
		}}
}

// The lines the endless child server (TestMain) writes to standard error
// when endless's run starts and stops.
const (
	endlessStarted = "endless: started"
	endlessStopped = "endless: stopped"
)

// endlessEvents reads the endless child's standard error: each line
// endlessStarted or endlessStopped is sent on started or stopped.
type endlessEvents struct {
	line             []byte
	started, stopped chan struct{}
}

func newEndlessEvents() *endlessEvents {
	return &endlessEvents{started: make(chan struct{}, 8), stopped: make(chan struct{}, 8)}
}

func (e *endlessEvents) Write(p []byte) (int, error) {
	for _, b := range p {
		if b != '\n' {
			e.line = append(e.line, b)
			continue
		}
		switch string(e.line) {
		case endlessStarted:
			e.started <- struct{}{}
		case endlessStopped:
			e.stopped <- struct{}{}
		}
		e.line = e.line[:0]
	}
	return len(p), nil
}

// TestCancelRequestCancelsHurriedLint runs the server over stdio with a
// rule that ends only when cancelled and a debounce of an hour. An edit
// during a lint leaves the new text to be linted when typing pauses; a
// quick fix asked for meanwhile hurries that lint; $/cancelRequest of the
// quick fix answers it RequestCancelled and cancels the lint it hurried,
// which would otherwise run on and hold the one lint slot every document
// shares. The document is still linted when a request next asks.
func TestCancelRequestCancelsHurriedLint(t *testing.T) {
	ev := newEndlessEvents()
	c := childClient(t, "endless", ev)
	c.initialize("")
	uri := string(pathToURI(filepath.Join(t.TempDir(), "nginx.conf")))
	openEndless(t, c, uri)
	within(t, ev.started, "the lint of version 1 started")
	edit := func(version int, text string) {
		c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": version},
			"contentChanges": []map[string]any{{"text": text}}})
	}
	edit(2, "# endless, typed on\nevents {}\n")
	within(t, ev.stopped, "the lint of version 1 stopped")
	fix := map[string]any{"textDocument": map[string]any{"uri": uri},
		"range":   map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 0}},
		"context": map[string]any{"diagnostics": []any{}}}
	c.request(`"fix"`, "textDocument/codeAction", fix)
	within(t, ev.started, "the lint of version 2, hurried by the quick fix, started")
	c.notify("$/cancelRequest", map[string]any{"id": "fix"})
	wantError(t, c.answer(), `"fix"`, codeRequestCancelled)
	within(t, ev.stopped, "the hurried lint stopped after $/cancelRequest")
	edit(3, "events {}\n")
	c.request(`"fix2"`, "textDocument/codeAction", fix)
	// The answer and the diagnostics of version 3 come in either order.
	for answered, published := false, false; !answered || !published; {
		r := c.next()
		switch {
		case r.Method == "textDocument/publishDiagnostics":
			var p struct {
				Version     int   `json:"version"`
				Diagnostics []any `json:"diagnostics"`
			}
			if err := json.Unmarshal(r.Params, &p); err != nil {
				t.Fatal(err)
			}
			if p.Version != 3 || len(p.Diagnostics) != 0 {
				t.Errorf("published %s", r.raw)
			}
			published = true
		case r.Method == "":
			if string(r.ID) != `"fix2"` || r.Error != nil {
				t.Errorf("quick fix on version 3: %s", r.raw)
			}
			answered = true
		}
	}
	c.request("4", "shutdown", nil)
	c.answer()
	c.notify("exit", nil)
	if code := c.exit(); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// within waits for ch for up to a minute: a guard against a hang, not a
// timing assertion.
func within(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(time.Minute):
		t.Fatalf("%s: not within a minute", what)
	}
}

func openEndless(t *testing.T, c *rpcClient, uri string) {
	t.Helper()
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "nginx", "version": 1,
		"text": "# endless\nevents {}\n"}})
}

// TestLintCancelledWhenDocumentChanges: an edit cancels the lint of the
// text it replaces, so the new text's findings do not wait for it. The
// first lint here never ends unless cancelled.
func TestLintCancelledWhenDocumentChanges(t *testing.T) {
	reg, started, stopped := endlessRule(t)
	s := New()
	s.reg = reg
	c := pipeClient(t, s)
	c.initialize("")
	uri := string(pathToURI(filepath.Join(t.TempDir(), "nginx.conf")))
	openEndless(t, c, uri)
	within(t, started, "the lint of version 1 started")
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []map[string]any{{"text": "events {}\n"}}})
	within(t, stopped, "the lint of version 1 stopped")
	c.published(uri, 2)
	c.request("2", "shutdown", nil)
	c.answer()
	c.notify("exit", nil)
	if code := c.exit(); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// TestShutdownAndExitCancelLints: shutdown stops the lints under way;
// exit, or the end of the input, ends the session while one runs, and
// stops it too.
func TestShutdownAndExitCancelLints(t *testing.T) {
	for _, end := range []string{"shutdown", "exit", "end of input"} {
		t.Run(end, func(t *testing.T) {
			reg, started, stopped := endlessRule(t)
			s := New()
			s.reg = reg
			c := pipeClient(t, s)
			c.initialize("")
			openEndless(t, c, string(pathToURI(filepath.Join(t.TempDir(), "nginx.conf"))))
			within(t, started, "the lint started")
			want := 1
			switch end {
			case "shutdown":
				c.request("2", "shutdown", nil)
				if r := c.answer(); string(r.ID) != "2" || r.Error != nil {
					t.Fatalf("shutdown: %s", r.raw)
				}
				within(t, stopped, "the lint stopped after shutdown")
				c.notify("exit", nil)
				want = 0
			case "exit":
				c.notify("exit", nil)
			}
			// exit() closes the input; for "end of input" that is all.
			if code := c.exit(); code != want {
				t.Errorf("exit status %d, want %d", code, want)
			}
			if end != "shutdown" {
				within(t, stopped, "the lint stopped")
			}
		})
	}
}

// exitBound is how soon the server process must be gone after exit, or
// after its input ends, while a slow lint runs. The issue asks for a
// second; the server returns at once (it waits up to exitGrace, 300 ms,
// for requests under way, and here there are none), so on a quiet
// machine it is gone in tens of milliseconds (TestExitDuringSlowLint logs
// it). The bound is twice the second so that a loaded two-core machine
// (every helper's tests at once) cannot fail it, while waiting for the
// lint, as the server did, takes the lint's five seconds or more.
const exitBound = 2 * time.Second

// TestExitDuringSlowLint runs the server as a child process over stdio,
// opens a 15 MiB document whose lint takes seconds, and ends the session
// (exit, or closing the input) while the lint runs: the process is gone
// within exitBound, without publishing the stale findings.
func TestExitDuringSlowLint(t *testing.T) {
	var b strings.Builder
	b.WriteString("events {}\nhttp {\n")
	for i := 0; b.Len() < 15<<20; i++ {
		fmt.Fprintf(&b, "server { listen 127.0.0.%d:%d; server_name s%d.example; location / { return 200; } }\n", i%250+1, 10000+i%50000, i)
	}
	b.WriteString("}\n")
	text := b.String()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, end := range []string{"exit", "end of input"} {
		t.Run(end, func(t *testing.T) {
			cmd := exec.Command(exe)
			cmd.Env = append(os.Environ(), "NGINX_LINT_LSP_CHILD=1")
			in, _ := cmd.StdinPipe()
			out, _ := cmd.StdoutPipe()
			cmd.Stderr = io.Discard
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			gone := make(chan struct{})
			go func() { cmd.Wait(); close(gone) }()
			t.Cleanup(func() {
				cmd.Process.Kill()
				<-gone
			})
			msgs := make(chan []byte, 64)
			go readFrames(t, bufio.NewReader(out), msgs, func(error) {})
			c := &rpcClient{t: t, in: in, msgs: msgs}
			c.initialize("")
			uri := string(pathToURI(filepath.Join(t.TempDir(), "nginx.conf")))
			c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "nginx", "version": 1, "text": text}})
			// A request answered after didOpen: the loop has taken the
			// document in and started its lint (which takes seconds).
			c.request("2", "textDocument/hover", hoverParams)
			c.answer()
			time.Sleep(200 * time.Millisecond)
			start := time.Now()
			if end == "exit" {
				c.notify("exit", nil)
			} else {
				in.Close()
			}
			select {
			case <-gone:
				t.Logf("gone %v after %s", time.Since(start).Round(time.Millisecond), end)
			case <-time.After(exitBound):
				t.Fatalf("the server still runs %v after %s", exitBound, end)
			}
			for {
				select {
				case m := <-msgs:
					if strings.Contains(string(m), "publishDiagnostics") {
						t.Fatal("the lint finished before the session ended: the test checked nothing (a faster lint?)")
					}
					continue
				default:
				}
				break
			}
		})
	}
}

// TestPortRangeDiagnostics: in the editor too, servers that share a port
// range get one finding about the range, not one per port (65,535, and
// 21 s before they were published).
func TestPortRangeDiagnostics(t *testing.T) {
	c := pipeClient(t, New())
	c.initialize("")
	uri := string(pathToURI(filepath.Join(t.TempDir(), "nginx.conf")))
	text := "events {}\nhttp {\n" + strings.Repeat("    server {\n        listen 127.0.0.1:1-65535;\n        return 200;\n    }\n", 2) + "}\n"
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "nginx", "version": 1, "text": text}})
	diags := c.published(uri, 1)
	ranged := 0
	for _, d := range diags {
		if d["code"] == "NL2054" {
			ranged++
			if m, _ := d["message"].(string); !strings.Contains(m, "127.0.0.1:1-65535") {
				t.Errorf("message %q", m)
			}
		}
	}
	if ranged != 1 || len(diags) > 10 {
		t.Errorf("%d findings, %d about the shared range: %v", len(diags), ranged, diags)
	}
}
