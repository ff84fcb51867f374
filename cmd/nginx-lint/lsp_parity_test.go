package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/internal/testfiles"

	"github.com/nginx-lint/nginx-lint/lsp"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/corpustest"
)

// TestCLIAndServerAgree lints one workspace with the command line and
// with the language server (each file opened in the editor) and requires
// the same findings: the settings' include-paths map, the target build
// from the settings file (nginx-build) and rule settings apply alike.
func TestCLIAndServerAgree(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		// The config is deployed to /etc/nginx; here it is checked out
		// in dir.
		".nginx-lint.yaml": "include-paths:\n  /etc/nginx/: ./\nnginx-build: ./nginx-V.txt\nrules:\n  version-disclosure: error\n",
		// A build without the gzip module: gzip is unknown to it.
		"nginx-V.txt":      "nginx version: nginx/1.22.1\nbuilt by gcc 12.2.0\nconfigure arguments: --prefix=/etc/nginx --without-http_gzip_module\n",
		"nginx.conf":       "events {}\nhttp {\n    include /etc/nginx/snippets/x.conf;\n    include /etc/nginx/conf.d/*.conf;\n}\n",
		"snippets/x.conf":  "server_tokens on;\ngzip on;\n",
		"conf.d/site.conf": "server {\n    listen 80;\n    server_name a.example;\n    gzipp on;\n}\n",
	}
	testfiles.Write(t, dir, files)

	// The command line.
	var out, errb bytes.Buffer
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	code := run([]string{"-f", "json", "--fail-level", "none", filepath.Join(dir, "nginx.conf")}, strings.NewReader(""), &out, &errb)
	os.Chdir(wd)
	if code != 0 {
		t.Fatalf("cli exit %d: %s", code, errb.String())
	}
	var rep struct {
		Diagnostics []struct {
			File     string `json:"file"`
			Line     int    `json:"line"`
			Column   int    `json:"column"`
			Code     string `json:"code"`
			Severity string `json:"severity"`
			Message  string `json:"message"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	var cli []string
	for _, d := range rep.Diagnostics {
		p := d.File
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		cli = append(cli, fmt.Sprintf("%s:%d:%d %s %s %s", p, d.Line, d.Column, d.Code, d.Severity, d.Message))
	}

	// The server, every file opened.
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := lsp.New()
	go func() { s.Serve(inR, outW, io.Discard); outW.Close() }()
	c := &lspClient{t: t, in: inW, out: bufio.NewReader(outR)}
	c.send("initialize", 1, map[string]any{"rootUri": "file://" + filepath.ToSlash(dir), "capabilities": map[string]any{}})
	c.until(func(m map[string]any) bool { return m["id"] == 1.0 })
	c.send("initialized", 0, map[string]any{})
	var server []string
	for _, name := range []string{"nginx.conf", "snippets/x.conf", "conf.d/site.conf"} {
		p := filepath.Join(dir, name)
		uri := "file://" + filepath.ToSlash(p)
		c.send("textDocument/didOpen", 0, map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "nginx", "version": 1, "text": files[name]}})
		pub := c.until(func(m map[string]any) bool {
			return m["method"] == "textDocument/publishDiagnostics" && m["params"].(map[string]any)["uri"] == uri
		})
		for _, d := range pub["params"].(map[string]any)["diagnostics"].([]any) {
			d := d.(map[string]any)
			start := d["range"].(map[string]any)["start"].(map[string]any)
			msg, _, _ := strings.Cut(d["message"].(string), "\n")
			sev := map[float64]string{1: "error", 2: "warning", 3: "info"}[d["severity"].(float64)]
			server = append(server, fmt.Sprintf("%s:%d:%d %s %s %s", p, int(start["line"].(float64))+1, int(start["character"].(float64))+1, d["code"], sev, msg))
		}
	}
	c.send("shutdown", 2, nil)
	c.until(func(m map[string]any) bool { return m["id"] == 2.0 })
	c.send("exit", 0, nil)
	inW.Close()

	sort.Strings(cli)
	sort.Strings(server)
	if strings.Join(cli, "\n") != strings.Join(server, "\n") {
		t.Errorf("the CLI and the server disagree\ncli:\n%s\nserver:\n%s", strings.Join(cli, "\n"), strings.Join(server, "\n"))
	}
	// And the findings are the expected ones: no include-not-found (the
	// map works), gzip unknown to the build, server_tokens reported,
	// the typo in the globbed site.
	all := strings.Join(cli, "\n")
	for _, want := range []string{"x.conf:1:15 NL3009 error", "x.conf:2:1 NL2001", "site.conf:4:5 NL2001"} {
		if !strings.Contains(all, want) {
			t.Errorf("findings lack %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "NL1003") {
		t.Errorf("include-paths not applied:\n%s", all)
	}
}

// TestLSPCommandProtocol runs "nginx-lint lsp" as a child process: a body
// that is not JSON is answered with -32700 and the session goes on, and
// exit without shutdown ends with status 1, as the protocol says.
func TestLSPCommandProtocol(t *testing.T) {
	in, c, wait, _, exit := lspChildExit(t)
	c.send("initialize", 1, map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}})
	c.until(func(m map[string]any) bool { return m["id"] == 1.0 })
	fmt.Fprintf(in, "Content-Length: 17\r\n\r\n{this is not json")
	m := c.until(func(m map[string]any) bool { return m["error"] != nil })
	if m["id"] != nil || m["error"].(map[string]any)["code"] != -32700.0 {
		t.Errorf("parse error answer %v", m)
	}
	c.send("textDocument/hover", 2, map[string]any{"textDocument": map[string]any{"uri": "file:///x.conf"}, "position": map[string]any{"line": 0, "character": 0}})
	c.until(func(m map[string]any) bool { return m["id"] == 2.0 })
	c.send("exit", 0, nil)
	in.Close()
	if !wait(30 * time.Second) {
		t.Fatal("the server did not exit")
	}
	if ee, ok := (*exit).(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("exit without shutdown: %v, want status 1", *exit)
	}
}

// TestCLIAndServerAgreeOnCorpus opens every main configuration of the
// shared corpus in the server (its directory as the workspace) and
// requires the findings the command line reports for that file. A file
// that an nginx.conf beside it may include is left out: the server checks
// it through that nginx.conf, the command line (given the file alone)
// does not. An nginx -T dump's findings are compared at the dump's lines.
func TestCLIAndServerAgreeOnCorpus(t *testing.T) {
	root := corpustest.Root(t)
	n, findings := 0, 0
	for _, e := range corpustest.Manifest(t) {
		if e["kind"] != "main" {
			continue
		}
		path := filepath.Join(root, e["path"])
		if filepath.Base(path) != "nginx.conf" {
			if _, err := os.Stat(filepath.Join(filepath.Dir(path), "nginx.conf")); err == nil {
				continue
			}
		}
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// The command line reports each file of an nginx -T dump under
		// its own path and lines; the server shows them in the dump.
		dumped := map[string]int{}
		if files, ok := parser.SplitDump(text); ok {
			for _, f := range files {
				dumped[f.Path] = f.Line
			}
		}
		var out, errb bytes.Buffer
		run([]string{"-f", "json", "--fail-level", "none", path}, strings.NewReader(""), &out, &errb)
		var rep struct {
			Diagnostics []struct {
				File    string `json:"file"`
				Line    int    `json:"line"`
				Column  int    `json:"column"`
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"diagnostics"`
		}
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatalf("%s: %v: %s %s", e["path"], err, out.String(), errb.String())
		}
		var cli []string
		for _, d := range rep.Diagnostics {
			p := d.File
			if !filepath.IsAbs(p) {
				wd, _ := os.Getwd()
				p = filepath.Join(wd, p)
			}
			line := d.Line
			if start, ok := dumped[d.File]; ok {
				line += start - 1
			} else if p != path {
				continue
			}
			cli = append(cli, fmt.Sprintf("%d:%d %s %s", line, d.Column, d.Code, d.Message))
		}

		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		s := lsp.New()
		go func() { s.Serve(inR, outW, io.Discard); outW.Close() }()
		c := &lspClient{t: t, in: inW, out: bufio.NewReader(outR)}
		c.send("initialize", 1, map[string]any{"rootUri": "file://" + filepath.ToSlash(filepath.Dir(path)), "capabilities": map[string]any{}})
		c.until(func(m map[string]any) bool { return m["id"] == 1.0 })
		uri := "file://" + filepath.ToSlash(path)
		c.send("textDocument/didOpen", 0, map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "nginx", "version": 1, "text": string(text)}})
		pub := c.until(func(m map[string]any) bool { return m["method"] == "textDocument/publishDiagnostics" })
		var server []string
		for _, d := range pub["params"].(map[string]any)["diagnostics"].([]any) {
			d := d.(map[string]any)
			start := d["range"].(map[string]any)["start"].(map[string]any)
			msg, _, _ := strings.Cut(d["message"].(string), "\n")
			server = append(server, fmt.Sprintf("%d:%d %s %s", int(start["line"].(float64))+1, int(start["character"].(float64))+1, d["code"], msg))
		}
		c.send("exit", 0, nil)
		inW.Close()
		sort.Strings(cli)
		sort.Strings(server)
		if strings.Join(cli, "\n") != strings.Join(server, "\n") {
			t.Errorf("%s: the CLI and the server disagree\ncli:\n%s\nserver:\n%s", e["path"], strings.Join(cli, "\n"), strings.Join(server, "\n"))
		}
		n++
		findings += len(cli)
	}
	t.Logf("%d main configurations compared, %d findings", n, findings)
	if n < 100 || findings < 100 {
		t.Errorf("only %d main configurations and %d findings compared", n, findings)
	}
}
