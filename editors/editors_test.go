//go:build unix

// Package editors_test drives the editor packages in editors/ against the
// real `nginx-lint lsp`: headless Neovim with the shipped nvim/nginx-lint.lua,
// and the VS Code package's node tests (grammar snapshots, a language client
// speaking as VS Code does). Each test skips when its editor or runtime is
// missing and CI is unset, and fails under CI=true, where .ci/run installs
// them.
package editors_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/internal/testfiles"
)

// require returns the path of tool, skipping the test when it is missing
// (failing it under CI=true: CI installs every tool these tests use).
func require(t *testing.T, tool, install string) string {
	t.Helper()
	p, err := exec.LookPath(tool)
	if err != nil {
		missing(t, "%s not found (%s)", tool, install)
	}
	return p
}

// missing skips, or fails under CI=true, for a missing prerequisite.
func missing(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true: "+format, args...)
	}
	t.Skipf("skipping: "+format, args...)
}

// buildServer builds nginx-lint from this checkout into a temporary
// directory and returns that directory, so the editors start the code under
// test and not whatever is on PATH.
func buildServer(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", filepath.Join(dir, "nginx-lint"), "github.com/nginx-lint/nginx-lint/cmd/nginx-lint")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir
}

// runNvim runs a headless Neovim test script, which logs its steps to
// logPath and a line PASS at the end, and fails t unless it got there.
func runNvim(t *testing.T, timeout time.Duration, cmd *exec.Cmd, logPath string) {
	t.Helper()
	out, err := run(t, timeout, cmd)
	steps, rerr := os.ReadFile(logPath)
	if rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
		t.Fatal(rerr)
	}
	t.Logf("steps:\n%s", steps)
	if err != nil || !bytes.Contains(steps, []byte("\nPASS\n")) {
		t.Fatalf("nvim: %v\noutput:\n%s", err, out)
	}
}

// runEmacs runs the eglot test script emacs/test/NAME in batch Emacs
// with the shipped emacs/nginx-lint.el, in top with the server bin and
// NGINX_LINT_TEST_ROOT=root, and fails t unless it ends with PASS.
func runEmacs(t *testing.T, timeout time.Duration, emacs, bin, top, root, name string) {
	t.Helper()
	el, err := filepath.Abs(filepath.Join("emacs", "nginx-lint.el"))
	if err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs(filepath.Join("emacs", "test", name))
	if err != nil {
		t.Fatal(err)
	}
	// -q, not -Q: Debian's site-start puts the elpa packages (eglot on
	// Emacs 28) on the load path.
	cmd := exec.Command(emacs, "--batch", "-q", "-l", el, "-l", script)
	cmd.Dir = top
	cmd.Env = append(env(t, bin), "NGINX_LINT_TEST_ROOT="+root)
	out, err := run(t, timeout, cmd)
	t.Logf("emacs:\n%s", out)
	if err != nil || !bytes.HasSuffix(bytes.TrimSpace(out), []byte("PASS")) {
		t.Fatalf("emacs: %v", err)
	}
}

// run runs cmd, bounded by timeout, and returns its combined output; a
// command still running then is killed with everything it started (the
// editor's language server, node's test processes) and the test fails.
func run(t *testing.T, timeout time.Duration, cmd *exec.Cmd) ([]byte, error) {
	t.Helper()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Stdin = nil
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// Stop waiting for pipes a killed process's children may still hold.
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: %v", cmd.Path, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return out.Bytes(), err
	case <-time.After(timeout):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // its process group
		<-done
		t.Fatalf("%s did not finish in %v; output:\n%s", cmd.Path, timeout, out.Bytes())
		return nil, nil
	}
}

// env returns the environment with PATH led by dir and the editors'
// per-user state (config, data, cache, shada, logs) in a temporary home.
func env(t *testing.T, dir string) []string {
	home := t.TempDir()
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "PATH", "HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "VIMINIT", "NVIM_APPNAME", "NVIM", "NVIM_LISTEN_ADDRESS":
			continue
		}
		out = append(out, kv)
	}
	return append(out,
		"PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"XDG_STATE_HOME="+filepath.Join(home, ".local", "state"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
	)
}

// nginxConf is the configuration the Neovim test opens; the line numbers
// matter to nvim/test/lsp_test.lua: the missing ";" on line 8 is reported on
// line 9, the include is on line 3 and server_name on line 6.
const nginxConf = `events {}
http {
    include snippets/gzip.conf;
    server {
        listen 8080;
        server_name example.com;
        location / {
            root /var/www
        }
    }
}
`

// TestNeovim runs headless Neovim with the shipped nvim/nginx-lint.lua,
// unchanged, installed the two ways the README gives (as the configuration
// file, and in the plugin directory, where it loads after Neovim's own
// filetype rules), and nvim/test/lsp_test.lua, which opens a configuration
// with an error and checks diagnostics on open and after edits, a quick fix
// applied, hover, completion, formatting and go to definition on an include.
func TestNeovim(t *testing.T) {
	nvim := require(t, "nvim", "apt-get install neovim")
	bin := buildServer(t)
	script, err := filepath.Abs(filepath.Join("nvim", "test", "lsp_test.lua"))
	if err != nil {
		t.Fatal(err)
	}
	plugin, err := filepath.Abs(filepath.Join("nvim", "nginx-lint.lua"))
	if err != nil {
		t.Fatal(err)
	}
	for _, install := range []string{"init", "plugin"} {
		t.Run(install, func(t *testing.T) {
			top := t.TempDir()
			root := filepath.Join(top, "etc", "nginx")
			testfiles.Write(t, root, map[string]string{
				"nginx.conf":         nginxConf,
				"snippets/gzip.conf": "gzip on;\n",
			})
			logPath := filepath.Join(top, "steps.log")
			args := []string{"--headless", "-n", "-i", "NONE"}
			environ := append(env(t, bin), "NGINX_LINT_TEST_ROOT="+root, "NGINX_LINT_TEST_LOG="+logPath)
			switch install {
			case "init":
				args = append(args, "-u", plugin)
			case "plugin":
				// ~/.config/nvim/plugin/nginx-lint.lua, as a link to the
				// shipped file; later entries of Env win.
				config := filepath.Join(top, "config")
				if err := os.MkdirAll(filepath.Join(config, "nvim", "plugin"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(plugin, filepath.Join(config, "nvim", "plugin", "nginx-lint.lua")); err != nil {
					t.Fatal(err)
				}
				environ = append(environ, "XDG_CONFIG_HOME="+config)
			}
			cmd := exec.Command(nvim, append(args, "-c", "luafile "+script)...)
			cmd.Dir = top
			cmd.Env = environ
			runNvim(t, 2*time.Minute, cmd, logPath)
		})
	}
}

// TestVSCode runs the VS Code package's node tests (grammar assertions and
// snapshots, the language configuration, the settings sent to the server,
// and a vscode-jsonrpc client that initializes the server as VS Code 1.9x
// does and uses every feature) against the server built from this
// checkout, and checks that the .vsix would hold the bundle the extension
// loads and what VS Code reads, and nothing else. .ci/run installs node and
// npm and runs `npm ci` first.
func TestVSCode(t *testing.T) {
	node := require(t, "node", "apt-get install nodejs npm")
	dir, err := filepath.Abs("vscode")
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range []string{"vscode-jsonrpc", "vscode-tmgrammar-test", "@vscode/vsce", "vscode-languageclient", "esbuild"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", dep, "package.json")); err != nil {
			missing(t, "%s is not installed in editors/vscode (run `npm ci` there)", dep)
		}
	}
	tests, err := filepath.Glob(filepath.Join(dir, "test", "*.test.js"))
	if err != nil || len(tests) == 0 {
		t.Fatalf("no node tests in %s: %v", dir, err)
	}
	bin := buildServer(t)

	cmd := exec.Command(node, append([]string{"--test", "--test-reporter=tap"}, tests...)...)
	cmd.Dir = dir
	cmd.Env = append(env(t, bin), "NGINX_LINT_BIN="+filepath.Join(bin, "nginx-lint"))
	out, err := run(t, 3*time.Minute, cmd)
	t.Logf("node --test:\n%s", out)
	if err != nil {
		t.Fatalf("node --test: %v", err)
	}
	// A runner that found nothing also exits 0.
	if !bytes.Contains(out, []byte("\n# pass ")) || bytes.Contains(out, []byte("\n# pass 0\n")) {
		t.Fatalf("node --test ran no test")
	}

	// vsce ls lists the files `vsce package` puts in the .vsix, after
	// vscode:prepublish (node build.js) has built the bundle; ls does not
	// run it.
	cmd = exec.Command(node, "build.js")
	cmd.Dir = dir
	cmd.Env = env(t, bin)
	if out, err := run(t, 2*time.Minute, cmd); err != nil {
		t.Fatalf("node build.js: %v\n%s", err, out)
	}
	cmd = exec.Command(filepath.Join(dir, "node_modules", ".bin", "vsce"), "ls")
	cmd.Dir = dir
	cmd.Env = env(t, bin)
	out, err = run(t, 2*time.Minute, cmd)
	if err != nil {
		t.Fatalf("vsce ls: %v\n%s", err, out)
	}
	// The .vsix holds the manifest, the one bundle (the client and
	// vscode-languageclient) and the script the client runs beside it, the
	// grammar, the language configuration, README and LICENSE: no
	// node_modules, sources, tests or build tools.
	want := map[string]bool{
		"package.json": true, "dist/extension.js": true, "dist/terminateProcess.sh": true, "language-configuration.json": true,
		"syntaxes/nginx.tmLanguage.json": true, "README.md": true, "LICENSE": true,
	}
	files := map[string]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.TrimSpace(l); f != "" {
			files[f] = true
		}
	}
	for f := range want {
		if !files[f] {
			t.Errorf("the .vsix would not hold %s", f)
		}
	}
	for f := range files {
		if !want[f] {
			t.Errorf("the .vsix would hold %s (only the bundle and what VS Code reads belong there)", f)
		}
	}
}

// TestNeovimAPILevels checks the branches of nvim/nginx-lint.lua for the
// APIs of Neovim releases newer than the one installed (0.8-0.10's
// vim.filetype.add and vim.lsp.start, 0.11's vim.lsp.config and
// vim.lsp.enable) and 0.7's, with recording stand-ins for those functions:
// which are called, with which configuration and root. TestNeovim drives
// the installed Neovim for real.
func TestNeovimAPILevels(t *testing.T) {
	nvim := require(t, "nvim", "apt-get install neovim")
	top := t.TempDir()
	root := filepath.Join(top, "nginx")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "nginx.conf"), []byte(nginxConf), 0o644); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs(filepath.Join("nvim", "test", "api_test.lua"))
	if err != nil {
		t.Fatal(err)
	}
	plugin, err := filepath.Abs(filepath.Join("nvim", "nginx-lint.lua"))
	if err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(top, "steps.log")
	cmd := exec.Command(nvim, "--headless", "-n", "-i", "NONE", "-u", "NONE", "-c", "luafile "+script)
	cmd.Dir = top
	cmd.Env = append(env(t, t.TempDir()), "NGINX_LINT_PLUGIN="+plugin, "NGINX_LINT_TEST_ROOT="+root, "NGINX_LINT_TEST_LOG="+logPath)
	out, err := run(t, time.Minute, cmd)
	steps, _ := os.ReadFile(logPath)
	t.Logf("steps:\n%s", steps)
	if err != nil || !bytes.HasSuffix(steps, []byte("\nPASS\n")) {
		t.Fatalf("nvim: %v\noutput:\n%s", err, out)
	}
}
