package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/internal/testfiles"
)

// sitesConfig is the L2c layout with its servers spread over
// sites/a.conf, b.conf and c.conf (perSite servers each): cost --fix
// --assume-host rewrites the listen of every one, so all three files
// change together. It returns the paths of nginx.conf and the sites.
func sitesConfig(t *testing.T, perSite int) (main string, sites []string) {
	t.Helper()
	head := string(layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 1}))
	head = head[:strings.Index(head, "    server {")]
	files := map[string]string{"nginx.conf": head + "    include sites/*.conf;\n}\n"}
	n := 1
	for _, s := range []string{"a", "b", "c"} {
		var b strings.Builder
		for range perSite {
			fmt.Fprintf(&b, "server {\n    listen 127.0.%d.%d:20000;\n    server_name s%d.example;\n}\n", n/250, n%250+1, n)
			n++
		}
		files["sites/"+s+".conf"] = b.String()
	}
	dir := t.TempDir()
	testfiles.Write(t, dir, files)
	for _, s := range []string{"a", "b", "c"} {
		sites = append(sites, filepath.Join(dir, "sites", s+".conf"))
	}
	return filepath.Join(dir, "nginx.conf"), sites
}

// snapshot reads paths.
func snapshot(t *testing.T, paths ...string) []string {
	t.Helper()
	out := make([]string, len(paths))
	for i, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = string(b)
	}
	return out
}

func noTempFiles(t *testing.T, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if m, _ := filepath.Glob(filepath.Join(d, ".*.nginx-lint-*")); len(m) > 0 {
			t.Errorf("temporary files left: %v", m)
		}
	}
}

// TestCostFixWritesAllOrNone: cost --fix rewrites the three site files
// together; with one of them read-only, or edited after cost read it,
// none is written and the exit status is 2.
func TestCostFixWritesAllOrNone(t *testing.T) {
	t.Run("read-only", func(t *testing.T) {
		main, sites := sitesConfig(t, 10)
		before := snapshot(t, sites...)
		if err := os.Chmod(sites[1], 0o444); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runCLI(t, "", "cost", "--fix", "--assume-host", "--wildcard", main)
		if code != exitError || !strings.Contains(errOut, "b.conf: read-only file, not written; none of the 3 files was written") {
			t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
		}
		if after := snapshot(t, sites...); strings.Join(after, "") != strings.Join(before, "") {
			t.Error("a file was written")
		}
		noTempFiles(t, filepath.Dir(sites[0]))
		// Writable again, all three are rewritten.
		os.Chmod(sites[1], 0o644)
		if code, out, errOut := runCLI(t, "", "cost", "--fix", "--assume-host", "--wildcard", main); code != exitClean {
			t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
		}
		for i, s := range snapshot(t, sites...) {
			if s == before[i] || !strings.Contains(s, "listen 20000;") {
				t.Errorf("%s not rewritten:\n%s", sites[i], s)
			}
		}
	})
	t.Run("edited meanwhile", func(t *testing.T) {
		main, sites := sitesConfig(t, 10)
		before := snapshot(t, sites...)
		edit := before[2] + "# edited while nginx-lint ran\n"
		beforeWrite = func(p string) {
			if p == sites[2] {
				os.WriteFile(p, []byte(edit), 0o644)
			}
		}
		defer func() { beforeWrite = nil }()
		code, out, errOut := runCLI(t, "", "cost", "--fix", "--assume-host", "--wildcard", main)
		if code != exitError || !strings.Contains(errOut, "c.conf: changed since nginx-lint read it") {
			t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
		}
		if after := snapshot(t, sites...); after[0] != before[0] || after[1] != before[1] || after[2] != edit {
			t.Error("the edit was overwritten, or another file written")
		}
	})
}

// TestCostFixRefusesWhatNginxRefuses: a server block inside a server is
// a configuration nginx does not start with; cost --fix, --diff and
// --verify leave it alone and say why (exit 1), where cost --fix
// rewrote it and said routing was unchanged.
func TestCostFixRefusesWhatNginxRefuses(t *testing.T) {
	src := string(layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 40}))
	i := strings.Index(src, "        server_name perf-test-00002.example;\n")
	src = src[:i] + "        server {\n            listen 127.0.0.1:8080;\n        }\n" + src[i:]
	path := writeTemp(t, "nginx.conf", src)
	for _, mode := range []string{"--fix", "--diff"} {
		code, out, errOut := runCLI(t, "", "cost", mode, path)
		if code != exitFindings || !strings.Contains(errOut, "not rewritten: nginx refuses this configuration") ||
			!strings.Contains(errOut, `nginx.conf:23: "server" directive is not allowed here (directive-not-allowed)`) || strings.Contains(out+errOut, "routing:") {
			t.Errorf("%s: exit %d\n%s\n%s", mode, code, out, errOut)
		}
	}
	if b, _ := os.ReadFile(path); string(b) != src {
		t.Error("the configuration was rewritten")
	}
}

// failingWriter fails every write, as /dev/full does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// TestCostFixOutputUnwritable: when the report cannot be written (a full
// disk, /dev/full), cost --fix exits 2 and writes no file, where it
// exited 0.
func TestCostFixOutputUnwritable(t *testing.T) {
	src := string(layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 40}))
	path := writeTemp(t, "nginx.conf", src)
	var errb strings.Builder
	code := run([]string{"cost", "--fix", "--wildcard", path}, strings.NewReader(""), failingWriter{}, &errb)
	if code != exitError || !strings.Contains(errb.String(), "cannot write the report") {
		t.Errorf("exit %d: %s", code, errb.String())
	}
	if b, _ := os.ReadFile(path); string(b) != src {
		t.Error("the configuration was rewritten without a report")
	}
	// The real /dev/full, in a child process.
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full on this system: %v", err)
	}
	defer full.Close()
	for _, args := range [][]string{{"cost", "--fix", "--wildcard", path}, {"cost", "--diff", "--wildcard", path}} {
		cmd := beMain(t, args...)
		var errOut strings.Builder
		cmd.Stdout, cmd.Stderr = full, &errOut
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != exitError {
			t.Errorf("%v > /dev/full: %v\n%s", args, err, errOut.String())
		}
	}
	if b, _ := os.ReadFile(path); string(b) != src {
		t.Error("the configuration was rewritten without a report")
	}
}

// beMain is the command nginx-lint args, run as a child process by this
// test binary (TestMain).
func beMain(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "NGINX_LINT_BE_MAIN=1")
	return cmd
}

// TestCostFixSignalled sends SIGTERM to cost --fix at twelve moments
// spread over its run (reading, planning, writing): whenever it lands,
// the three site files are either all old or all rewritten, and no
// temporary file is left.
func TestCostFixSignalled(t *testing.T) {
	main, sites := sitesConfig(t, 400)
	before := snapshot(t, sites...)
	start := time.Now()
	if code, out, errOut := runCLI(t, "", "cost", "--diff", "--assume-host", "--wildcard", main); code != exitFindings {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	whole := time.Since(start) // about what a --fix takes before it writes
	r := rand.New(rand.NewPCG(7, 31))
	outcomes := map[string]int{}
	for i := range 12 {
		for j, s := range before {
			os.WriteFile(sites[j], []byte(s), 0o644)
		}
		cmd := beMain(t, "cost", "--fix", "--assume-host", "--wildcard", main)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// From the start to half again past the time a run takes.
		time.Sleep(time.Duration(float64(whole) * (float64(i) + r.Float64()) / 8))
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
		after := snapshot(t, sites...)
		switch {
		case strings.Join(after, "") == strings.Join(before, ""):
			outcomes["old"]++
		case !strings.Contains(strings.Join(after, ""), ":20000;"):
			outcomes["new"]++
		default:
			t.Errorf("run %d: the files are half rewritten", i)
		}
		noTempFiles(t, filepath.Dir(sites[0]), filepath.Dir(main))
	}
	t.Logf("outcomes: %v", outcomes)
}

// TestFmtWriteRace: formatters run on one file at once; the one that
// finds the file already formatted by another succeeds (it exited 2,
// "changed since nginx-lint read it", although the file ended up
// right). Once deterministically, the other run's write made just
// before ours; then six processes at once, five times.
func TestFmtWriteRace(t *testing.T) {
	var b strings.Builder
	b.WriteString("events {}\nhttp {\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "server {listen 127.0.0.1:%d;\n  server_name   s%d;}\n", 8000+i%1000, i)
	}
	b.WriteString("}\n")
	src := b.String()
	path := writeTemp(t, "x.conf", src)
	_, formatted, _ := runCLI(t, "", "fmt", path)
	beforeWrite = func(p string) { os.WriteFile(p, []byte(formatted), 0o644) }
	code, _, errOut := runCLI(t, "", "fmt", "-w", path)
	beforeWrite = nil
	if code != exitClean {
		t.Fatalf("the other run wrote first: exit %d: %s", code, errOut)
	}
	for round := range 5 {
		os.WriteFile(path, []byte(src), 0o644)
		var wg sync.WaitGroup
		codes := make([]int, 6)
		outs := make([]string, 6)
		for i := range codes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out, err := beMain(t, "fmt", "-w", path).CombinedOutput()
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					codes[i] = ee.ExitCode()
				}
				outs[i] = string(out)
			}()
		}
		wg.Wait()
		for i, c := range codes {
			if c != exitClean {
				t.Errorf("round %d, run %d: exit %d: %s", round, i, c, outs[i])
			}
		}
		if got, _ := os.ReadFile(path); string(got) != formatted {
			t.Errorf("round %d: the file is not formatted", round)
		}
	}
	noTempFiles(t, filepath.Dir(path))
}

// TestFixWritesAllOrNone: --fix across several files writes none when one
// is read-only (it wrote the others and exited 2).
func TestFixWritesAllOrNone(t *testing.T) {
	dir := writeConf(t, map[string]string{
		"nginx.conf":    "events {}\nhttp {\n    include conf.d/*.conf;\n}\n",
		"conf.d/a.conf": "server {\n    listen 127.0.0.1:8080\n    server_name a.example;\n}\n",
		"conf.d/b.conf": "server {\n    listen 127.0.0.1:8081\n    server_name b.example;\n}\n",
	})
	paths := []string{filepath.Join(dir, "conf.d/a.conf"), filepath.Join(dir, "conf.d/b.conf")}
	before := snapshot(t, paths...)
	if err := os.Chmod(paths[1], 0o444); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI(t, "", "--fix", filepath.Join(dir, "nginx.conf"))
	if code != exitError || !strings.Contains(errOut, "b.conf: read-only file, not written (--force writes it); none of the 2 files was written") || strings.Contains(errOut, "fixed ") {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if after := snapshot(t, paths...); strings.Join(after, "") != strings.Join(before, "") {
		t.Error("a file was written")
	}
	if code, _, errOut := runCLI(t, "", "--fix", "--force", filepath.Join(dir, "nginx.conf")); code != exitClean {
		t.Fatalf("--force: exit %d\n%s", code, errOut)
	}
	for i, s := range snapshot(t, paths...) {
		if !strings.Contains(s, ";\n    server_name") {
			t.Errorf("%s not fixed:\n%s", paths[i], s)
		}
	}
}
