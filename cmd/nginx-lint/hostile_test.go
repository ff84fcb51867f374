package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/internal/testfiles"
)

// runBounded is runCLI that fails the test instead of hanging when a
// read blocks.
func runBounded(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	withDeadline(t, func() { code, stdout, stderr = runCLI(t, stdin, args...) })
	return code, stdout, stderr
}

// withDeadline fails the test when fn does not return within 10s.
func withDeadline(t *testing.T, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("nginx-lint did not return within 10s")
	}
}

func fifoIn(t *testing.T, dir, name string) string {
	t.Helper()
	return testfiles.Mkfifo(t, filepath.Join(dir, name))
}

// TestHostileIncludes: includes that nginx-lint must not read.
func TestHostileIncludes(t *testing.T) {
	dir := t.TempDir()
	fifo := fifoIn(t, dir, "pipe.conf")
	for _, target := range []string{"/dev/zero", "/dev/stdin", fifo, dir} {
		t.Run(target, func(t *testing.T) {
			if _, err := os.Stat(target); err != nil {
				t.Skipf("%s: %v", target, err)
			}
			main := writeConf(t, map[string]string{"nginx.conf": "events {}\ninclude " + target + ";\n"})
			var code int
			var got []finding
			withDeadline(t, func() { code, got = lintJSON(t, filepath.Join(main, "nginx.conf")) })
			if code != exitFindings || !slices.Equal(keys(got), []string{"nginx.conf:2 not-regular-file error"}) {
				t.Errorf("exit %d, %v, want 1 with not-regular-file on line 2", code, keys(got))
			}
		})
	}
}

// TestHostileProcEnviron: the environment must appear in no format.
func TestHostileProcEnviron(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("no /proc")
	}
	const secret = "nl-test-secret-3f9a"
	t.Setenv("CI_DEPLOY_TOKEN", secret)
	dir := writeConf(t, map[string]string{"nginx.conf": "events {}\ninclude /proc/self/environ;\n"})
	for _, format := range []string{"text", "json", "sarif", "github", "gitlab", "checkstyle"} {
		code, out, errOut := runBounded(t, "", "--format", format, filepath.Join(dir, "nginx.conf"))
		if strings.Contains(out+errOut, secret) {
			t.Errorf("%s: the environment leaked into the output", format)
		}
		if code != exitClean {
			t.Errorf("%s: exit %d, want 0 (nginx reads the file as empty)\n%s%s", format, code, out, errOut)
		}
	}
}

// TestHostilePaths: paths given on the command line, and files found in
// a directory, that are not regular files. A FIFO named on the command
// line is read as standard input is (pipe_unix_test.go): one without a
// writer gives nothing at once, an error, and never a wait.
func TestHostilePaths(t *testing.T) {
	dir := writeConf(t, map[string]string{"nginx.conf": "events {}\n"})
	fifo := fifoIn(t, dir, "conf.d/pipe.conf")
	var code int
	var got []finding
	withDeadline(t, func() { code, got = lintJSON(t, fifo) })
	if code != exitError || !slices.Equal(keys(got), []string{"pipe.conf:1 unreadable-file error"}) || !strings.Contains(got[0].Message, "no writer") {
		t.Errorf("FIFO without a writer: exit %d, %v", code, got)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		code, got = lintJSON(t, "/dev/zero")
		if code != exitError || !slices.Equal(keys(got), []string{"zero:1 not-regular-file error"}) {
			t.Errorf("/dev/zero: exit %d, %v", code, keys(got))
		}
	}
	// In a directory the FIFO is reported, the rest linted.
	withDeadline(t, func() { code, got = lintJSON(t, dir) })
	if code != exitError || !slices.Equal(keys(got), []string{"pipe.conf:1 not-regular-file error"}) {
		t.Errorf("directory with a FIFO: exit %d, %v", code, keys(got))
	}
	// cost and parse read through the same code.
	for _, cmd := range []string{"cost", "parse"} {
		code, _, errOut := runBounded(t, "", cmd, fifo)
		if code != exitError || !strings.Contains(errOut, "no writer") {
			t.Errorf("%s on a FIFO without a writer: exit %d, %s", cmd, code, errOut)
		}
	}
	// A device named on the command line stays refused.
	if _, err := os.Stat("/dev/null"); err == nil {
		code, got = lintJSON(t, "/dev/null")
		if code != exitError || !slices.Equal(keys(got), []string{"null:1 not-regular-file error"}) {
			t.Errorf("/dev/null: exit %d, %v", code, keys(got))
		}
	}
}

// TestFileSizeLimits: the per-file limit from the flag and the settings
// file, the total limit, and standard input.
func TestFileSizeLimits(t *testing.T) {
	pad := "# " + strings.Repeat("x", 3000) + "\n"
	dir := writeConf(t, map[string]string{
		"nginx.conf":   "events {}\ninclude big.conf;\n",
		"big.conf":     pad,
		"other/a.conf": "events {}\n" + pad,
	})
	main := filepath.Join(dir, "nginx.conf")
	code, got := lintJSON(t, "--max-file-size", "2KiB", main)
	if code != exitFindings || !slices.Equal(keys(got), []string{"nginx.conf:2 file-too-large error"}) {
		t.Errorf("included file over the limit: exit %d, %v", code, keys(got))
	}
	code, got = lintJSON(t, "--max-file-size", "2KiB", filepath.Join(dir, "big.conf"))
	if code != exitError || !slices.Equal(keys(got), []string{"big.conf:1 file-too-large error"}) || !strings.Contains(got[0].Message, "over the 2 KiB limit") {
		t.Errorf("linted file over the limit: exit %d, %v", code, got)
	}
	if code, _ = lintJSON(t, main); code != exitClean {
		t.Errorf("default limit: exit %d, want 0", code)
	}
	// The settings file sets the limit; the flag wins over it.
	if err := os.WriteFile(filepath.Join(dir, ".nginx-lint.yaml"), []byte("max-file-size: 1KiB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, got = lintJSON(t, main); code != exitFindings || !slices.Equal(keys(got), []string{"nginx.conf:2 file-too-large error"}) {
		t.Errorf("settings max-file-size: exit %d, %v", code, keys(got))
	}
	if code, _ = lintJSON(t, "--max-file-size", "1MiB", main); code != exitClean {
		t.Errorf("flag over settings: exit %d", code)
	}
	// Total: nginx.conf + big.conf fit in 4 KiB, other/a.conf does not.
	code, got = lintJSON(t, "--no-config", "--max-total-size", "4KiB", main, filepath.Join(dir, "other", "a.conf"))
	if code != exitError || !slices.Equal(keys(got), []string{"a.conf:1 total-size-limit error"}) {
		t.Errorf("total limit: exit %d, %v", code, keys(got))
	}
	// Standard input stays supported, within the limit.
	if code, out, _ := runBounded(t, "events {}\n", "--no-config", "-"); code != exitClean {
		t.Errorf("stdin: exit %d\n%s", code, out)
	}
	if code, out, _ := runBounded(t, "events {}\n"+pad, "--no-config", "--max-file-size", "1KiB", "-"); code != exitError || !strings.Contains(out, "NL1007") {
		t.Errorf("stdin over the limit: exit %d\n%s", code, out)
	}
	for _, bad := range []string{"lots", "0", "16TB"} {
		if code, _, _ := runBounded(t, "", "--max-file-size", bad, main); code != exitUsage {
			t.Errorf("--max-file-size %s: exit %d, want 3", bad, code)
		}
	}
}

// TestBinaryInDirectory: a binary file named like a configuration in a
// linted directory is skipped with an info finding; named alone it is
// linted.
func TestBinaryInDirectory(t *testing.T) {
	dir := writeConf(t, map[string]string{
		"nginx.conf":             "events {}\n",
		"conf.d/blob.conf":       "\x7fELF\x02\x01\x01\x00\x00\x00{;;}\n",
		"sites-enabled/.swp":     "\x00\x00",
		"sites-enabled/mysite":   "server { listen 80; }\n",
		"sites-enabled/image.gz": "\x1f\x8b\x08\x00\x00\x00\x00\x00",
	})
	code, got := lintJSON(t, "--no-config", dir)
	want := []string{"blob.conf:1 binary-file info", "image.gz:1 binary-file info"}
	if code != exitClean || !slices.Equal(keys(got, "binary-file", "syntax-error"), want) {
		t.Errorf("exit %d, %v, want 0 and %v", code, keys(got), want)
	}
	code, got = lintJSON(t, "--no-config", filepath.Join(dir, "conf.d", "blob.conf"))
	if code == exitClean || len(keys(got, "binary-file")) != 0 {
		t.Errorf("a binary file named alone is linted: exit %d, %v", code, keys(got))
	}
}

// TestCostOfWhatNginxCannotRead: cost of a configuration nginx cannot
// read (an unterminated block, a stray "}") printed an estimate and
// exited 0; it still estimates what could be read, names the first error
// with its position, and exits 1.
func TestCostOfWhatNginxCannotRead(t *testing.T) {
	for name, src := range map[string]string{
		"unterminated.conf": "events {}\nhttp {\n    server {\n        listen 80;\n",
		"stray.conf":        "events {}\nhttp {\n    server {\n        listen 80;\n    }\n}\n}\n",
	} {
		path := writeTemp(t, name, src)
		code, out, errOut := runCLI(t, "", "cost", path)
		if code != exitFindings || !strings.Contains(out, "1 server") {
			t.Errorf("%s: exit %d, stdout %q", name, code, out)
		}
		if !strings.Contains(errOut, ": nginx refuses this configuration: "+path+":") || !strings.Contains(errOut, "(syntax-error)") {
			t.Errorf("%s: %s", name, errOut)
		}
	}
	path := writeTemp(t, "ok.conf", "events {}\nhttp {\n    server {\n        listen 80;\n    }\n}\n")
	if code, _, errOut := runCLI(t, "", "cost", path); code != exitClean {
		t.Errorf("ok.conf: exit %d: %s", code, errOut)
	}
}

// TestRouteAndDiffOfWhatNginxCannotRead: route and diff answered for a
// configuration nginx cannot read (random bytes, an unterminated block)
// and exited 0; they still answer for what could be read, but name its
// first error with its position and exit 1.
func TestRouteAndDiffOfWhatNginxCannotRead(t *testing.T) {
	good := writeTemp(t, "good.conf", "events {}\nhttp {\n    server {\n        listen 80;\n        return 200;\n    }\n}\n")
	bad := writeTemp(t, "bad.conf", "events {}\nhttp {\n    server {\n        listen 80;\n        return 200;\n")
	for _, args := range [][]string{{"route", bad, "http://a/"}, {"diff", good, bad}, {"diff", bad, good}} {
		code, out, errOut := runCLI(t, "", args...)
		if code != exitFindings || out == "" || !strings.Contains(errOut, ": nginx refuses this configuration: "+bad+":6:1: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args[0], code, out, errOut)
		}
	}
	for _, args := range [][]string{{"route", good, "http://a/"}, {"diff", good, good}} {
		if code, _, errOut := runCLI(t, "", args...); code != exitClean {
			t.Errorf("%v: exit %d: %s", args, code, errOut)
		}
	}
}
