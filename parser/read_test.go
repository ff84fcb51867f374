package parser_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/internal/testfiles"

	"github.com/nginx-lint/nginx-lint/parser"
)

// withTimeout runs fn and fails the test if it has not returned within
// five seconds: a read that blocks (a FIFO, a terminal) must never hang.
func withTimeout(t *testing.T, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("reading blocked for 5s")
	}
}

// loadMain writes main to a temporary nginx.conf and loads it with l.
func loadMain(t *testing.T, l *parser.Loader, main string) *parser.Config {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(p, []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	var c *parser.Config
	withTimeout(t, func() {
		var err error
		c, err = l.Load(p)
		if err != nil {
			t.Error(err)
		}
	})
	if c == nil {
		t.FailNow()
	}
	return c
}

// findings renders c's findings as "line:col code message".
func findings(c *parser.Config) []string {
	var out []string
	for _, d := range c.AllDiagnostics() {
		p := d.Start()
		out = append(out, strconv.Itoa(p.Line)+":"+strconv.Itoa(p.Column)+" "+d.Code+" "+d.Message)
	}
	return out
}

func mkfifo(t *testing.T, dir string) string {
	t.Helper()
	return testfiles.Mkfifo(t, filepath.Join(dir, "pipe.conf"))
}

func TestIncludeNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := mkfifo(t, dir)
	for _, target := range []string{"/dev/zero", "/dev/stdin", fifo, dir} {
		t.Run(target, func(t *testing.T) {
			if _, err := os.Stat(target); err != nil {
				t.Skipf("%s: %v", target, err)
			}
			c := loadMain(t, &parser.Loader{}, "events {}\ninclude "+target+";\n")
			got := findings(c)
			want := `2:9 NL1006 included file "` + target + `" is not a regular file`
			if len(got) != 1 || got[0] != want {
				t.Errorf("got %q, want [%q]", got, want)
			}
			if len(c.Files) != 1 {
				t.Errorf("%d files loaded, want the main one only", len(c.Files))
			}
		})
	}
}

// TestProcEnvironReadsEmpty: /proc files have size 0 and nginx reads
// nothing of them; the environment must not reach any finding.
func TestProcEnvironReadsEmpty(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("no /proc")
	}
	t.Setenv("NGINX_LINT_TEST_SECRET", "hunter2-secret-value")
	c := loadMain(t, &parser.Loader{}, "events {}\ninclude /proc/self/environ;\n")
	if len(c.Files) != 2 || len(c.Files[1].Src) != 0 {
		t.Fatalf("want /proc/self/environ included and empty, got %d files", len(c.Files))
	}
	for _, f := range findings(c) {
		if strings.Contains(f, "hunter2") {
			t.Errorf("environment leaked into a finding: %s", f)
		}
	}
	if got := findings(c); len(got) != 0 {
		t.Errorf("findings %q, want none (nginx reads the file as empty)", got)
	}
}

func TestReadConfigFile(t *testing.T) {
	dir := t.TempDir()
	fifo := mkfifo(t, dir)
	withTimeout(t, func() {
		for _, p := range []string{fifo, dir, "/dev/zero"} {
			if _, err := parser.ReadConfigFile(p, 0); !errors.Is(err, parser.ErrNotRegular) {
				t.Errorf("%s: err %v, want ErrNotRegular", p, err)
			}
		}
	})
	big := filepath.Join(dir, "big.conf")
	if err := os.WriteFile(big, make([]byte, 2000), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := parser.ReadConfigFile(big, 1000)
	var tl *parser.TooLargeError
	if !errors.As(err, &tl) || tl.Size != 2000 || tl.Limit != 1000 {
		t.Errorf("err %v, want TooLargeError 2000 > 1000", err)
	}
	if b, err := parser.ReadConfigFile(big, 2000); err != nil || len(b) != 2000 {
		t.Errorf("at the limit: %d bytes, %v", len(b), err)
	}
	if _, err := parser.ReadConfigFile(filepath.Join(dir, "missing"), 0); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestIncludeTooLargeAndBudget(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, n int) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("# "+strings.Repeat("x", n-3)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("big.conf", 3000)
	write("a.conf", 600)
	write("b.conf", 600)
	main := filepath.Join(dir, "nginx.conf")
	src := "events {}\ninclude " + filepath.Join(dir, "big.conf") + ";\ninclude " + filepath.Join(dir, "a.conf") + ";\ninclude " + filepath.Join(dir, "b.conf") + ";\n"
	if err := os.WriteFile(main, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := (&parser.Loader{MaxFileSize: 2048}).Load(main)
	if err != nil {
		t.Fatal(err)
	}
	got := findings(c)
	if len(got) != 1 || !strings.HasPrefix(got[0], "2:9 NL1007 ") || !strings.Contains(got[0], "over the 2 KiB limit") {
		t.Errorf("got %q, want one NL1007 at 2:9", got)
	}
	// The main file (~150 bytes) and a.conf fit in 1000 bytes; b.conf
	// does not. big.conf is refused by the per-file limit first.
	budget := &parser.ReadBudget{Max: 1000}
	c, err = (&parser.Loader{MaxFileSize: 2048, Budget: budget}).Load(main)
	if err != nil {
		t.Fatal(err)
	}
	got = findings(c)
	if len(got) != 2 || !strings.HasPrefix(got[1], "4:9 NL1008 ") {
		t.Errorf("got %q, want NL1007 at 2:9 and NL1008 at 4:9", got)
	}
	// A main file over the limit is an error from Load.
	if _, err := (&parser.Loader{MaxFileSize: 10}).Load(main); !errors.As(err, new(*parser.TooLargeError)) {
		t.Errorf("main over the limit: %v", err)
	}
}

// TestOverlayReadsSafely is the language server's path: unsaved buffers
// in an Overlay over the disk; includes that reach the disk are read
// with the same checks, and a buffer over the limit is refused too.
func TestOverlayReadsSafely(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "nginx.conf")
	snippet := filepath.Join(dir, "big.conf")
	ov := &parser.Overlay{Base: parser.OSFS{}, Files: map[string][]byte{
		snippet: []byte(strings.Repeat("#\n", 100)),
	}}
	l := &parser.Loader{FS: ov, MaxFileSize: 100}
	var c *parser.Config
	withTimeout(t, func() {
		c = l.LoadSource(main, []byte("events {}\ninclude /dev/zero;\ninclude "+snippet+";\n"), nil)
	})
	got := findings(c)
	if len(got) != 2 || !strings.HasPrefix(got[0], "2:9 NL1006 ") || !strings.HasPrefix(got[1], "3:9 NL1007 ") {
		t.Errorf("got %q, want NL1006 at 2:9 and NL1007 at 3:9", got)
	}
}

func TestReadStream(t *testing.T) {
	if b, err := parser.ReadStream("<stdin>", strings.NewReader("events {}\n"), 100); err != nil || string(b) != "events {}\n" {
		t.Errorf("got %q, %v", b, err)
	}
	_, err := parser.ReadStream("<stdin>", strings.NewReader(strings.Repeat("x", 101)), 100)
	var tl *parser.TooLargeError
	if !errors.As(err, &tl) || tl.Size != -1 {
		t.Errorf("err %v, want TooLargeError of unknown size", err)
	}
}

func TestLooksBinary(t *testing.T) {
	for src, want := range map[string]bool{
		"events {}\n":             false,
		"":                        false,
		"# caf\xe9 latin-1\n":     false,
		"events {}\x00\n":         true,
		"\x01\x02\x03\x04abc\x05": true,
	} {
		if got := parser.LooksBinary([]byte(src)); got != want {
			t.Errorf("LooksBinary(%q) = %v, want %v", src, got, want)
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"16MiB": 16 << 20, "16 M": 16 << 20, "512k": 512 << 10, "1GB": 1 << 30, "1000": 1000, "7b": 7} {
		if got, err := parser.ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "MiB", "16 TB", "-1", "99999999999999999999"} {
		if _, err := parser.ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) accepted", in)
		}
	}
}

// TestOpenNamedPipe: only a FIFO is opened, and without waiting for a
// writer: with none, the read ends at once, empty.
func TestOpenNamedPipe(t *testing.T) {
	dir := t.TempDir()
	fifo := mkfifo(t, dir)
	regular := filepath.Join(dir, "a.conf")
	if err := os.WriteFile(regular, []byte("events {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	withTimeout(t, func() {
		for _, p := range []string{regular, dir, "/dev/zero"} {
			if f, err := parser.OpenNamedPipe(p); !errors.Is(err, parser.ErrNotRegular) {
				t.Errorf("%s: err %v, want ErrNotRegular", p, err)
				if f != nil {
					f.Close()
				}
			}
		}
		f, err := parser.OpenNamedPipe(fifo)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		b, err := parser.ReadStream(fifo, f, 0)
		if err != nil || len(b) != 0 {
			t.Errorf("FIFO without a writer: %q, %v; want empty", b, err)
		}
	})
	if parser.IsNamedPipe(regular) || !parser.IsNamedPipe(fifo) {
		t.Error("IsNamedPipe")
	}
}

// TestGlobSkipsHiddenDirectories: like glob(3) without GLOB_PERIOD, a
// wildcard matches no leading "." in any segment, directories included:
// conf.d/*/x.conf does not read conf.d/.old/x.conf (nginx does not).
func TestGlobSkipsHiddenDirectories(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"conf.d/.old/x.conf", "conf.d/site/x.conf", ".d/y.conf"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte("gzip on;\n"), 0o644)
	}
	got, err := parser.OSFS{}.Glob(filepath.Join(dir, "conf.d", "*", "x.conf"))
	if err != nil || len(got) != 1 || filepath.Base(filepath.Dir(got[0])) != "site" {
		t.Errorf("conf.d/*/x.conf: %v %v", got, err)
	}
	if got, _ := (parser.OSFS{}).Glob(filepath.Join(dir, ".d", "*.conf")); len(got) != 1 {
		t.Errorf("a pattern naming the hidden directory itself: %v", got)
	}
}
