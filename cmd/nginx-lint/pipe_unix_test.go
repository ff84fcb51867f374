//go:build unix

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestProcessSubstitution runs nginx-lint <(...) through bash, as a user
// would: the /dev/fd/N pipe is read like standard input, findings point
// at it, and relative includes resolve against the working directory.
func TestProcessSubstitution(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("skipping: no bash for a process substitution")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := writeConf(t, map[string]string{
		"snippets/site.conf": "server {\n    listen 127.0.0.1:8080;\n    root /srv\n}\n",
	})
	conf := "events {}\nhttp {\n    include snippets/site.conf;\n    server_tokens on;\n}\n"
	cmd := exec.Command("bash", "-c", `exec "$0" --format json <(printf '%s' "$CONF")`, self)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NGINX_LINT_BE_MAIN=1", "CONF="+conf)
	var out strings.Builder
	cmd.Stdout = &out
	withDeadline(t, func() { _ = cmd.Run() })
	var got struct{ Diagnostics []finding }
	if err := json.Unmarshal([]byte(out.String()), &got); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != exitFindings {
		t.Errorf("exit %d, want 1", code)
	}
	k := keys(got.Diagnostics)
	if !slices.Contains(k, "site.conf:4 syntax-error error") {
		t.Errorf("the include relative to the working directory was not read: %v", k)
	}
	var pipe string
	for _, d := range got.Diagnostics {
		if d.Name == "version-disclosure" {
			pipe = d.File
			if d.Line != 4 {
				t.Errorf("version-disclosure on line %d, want 4", d.Line)
			}
		}
	}
	if !strings.HasPrefix(pipe, "/dev/fd/") && !strings.HasPrefix(pipe, "/proc/") {
		t.Errorf("findings in the pipe are in %q, want its /dev/fd path; %v", pipe, k)
	}
}

// TestNamedPipe: a FIFO named on the command line is read to its end,
// however slowly its writer writes; within the size limit; --fix refuses
// it; and an empty one is an error rather than a clean run.
func TestNamedPipe(t *testing.T) {
	dir := t.TempDir()
	fifo := fifoIn(t, dir, "site.conf")
	// write opens the FIFO before the lint starts, then writes the chunks
	// with a pause before each and closes it. It opens read-write, which
	// never waits for a reader (Linux and the BSDs allow it on a FIFO):
	// a write-only open in the goroutine could come after the lint's, which
	// would then find no writer and read nothing.
	write := func(chunks ...string) chan error {
		f, err := os.OpenFile(fifo, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			// Closed before done is sent: a FIFO keeps what its last
			// reader left unread while any end is open, so the next
			// case's open must find this one's closed.
			for _, c := range chunks {
				time.Sleep(50 * time.Millisecond)
				if _, err := f.WriteString(c); err != nil {
					f.Close()
					done <- err
					return
				}
			}
			time.Sleep(50 * time.Millisecond)
			done <- f.Close()
		}()
		return done
	}
	done := write("events {}\nhttp {\n", "    server_tokens on;\n", "}\n")
	var code int
	var got []finding
	withDeadline(t, func() { code, got = lintJSON(t, "--no-config", "--fail-level", "warning", fifo) })
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if code != exitFindings || !slices.Equal(keys(got), []string{"site.conf:3 version-disclosure"}) {
		t.Errorf("exit %d, %v, want version-disclosure on line 3", code, keys(got))
	}

	// Over --max-file-size: file-too-large.
	done = write("events {}\n", "# "+strings.Repeat("x", 4000)+"\n")
	withDeadline(t, func() { code, got = lintJSON(t, "--no-config", "--max-file-size", "1KiB", fifo) })
	if code != exitError || !slices.Equal(keys(got), []string{"site.conf:1 file-too-large error"}) {
		t.Errorf("over the limit: exit %d, %v", code, keys(got))
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	// An empty pipe (the writer wrote nothing) is an error: a template
	// that expanded to nothing must not pass.
	done = write()
	withDeadline(t, func() { code, got = lintJSON(t, "--no-config", fifo) })
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if code != exitError || !slices.Equal(keys(got), []string{"site.conf:1 unreadable-file error"}) {
		t.Errorf("empty pipe: exit %d, %v", code, keys(got))
	}

	// --fix and --diff cannot write back to a pipe (and do not read it).
	for _, flag := range []string{"--fix", "--diff"} {
		code, _, errs := runBounded(t, "", flag, fifo)
		if code != exitUsage || !strings.Contains(errs, "not a pipe") {
			t.Errorf("%s on a pipe: exit %d, %q", flag, code, errs)
		}
	}

	// A FIFO included from a pipe stays refused.
	inner := fifoIn(t, dir, "inner.conf")
	done = write("events {}\ninclude " + inner + ";\n")
	withDeadline(t, func() { code, got = lintJSON(t, "--no-config", fifo) })
	<-done
	if code != exitFindings || !slices.Equal(keys(got), []string{"site.conf:2 not-regular-file error"}) {
		t.Errorf("FIFO included from a pipe: exit %d, %v", code, keys(got))
	}
}
