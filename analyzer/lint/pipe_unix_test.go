//go:build unix

package lint_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/internal/testfiles"
)

// TestPipeTarget: a FIFO named as a target is marked Pipe, with the
// working directory as its prefix; it is read once, and a second lint of
// the same workspace gets the same text rather than an empty pipe.
func TestPipeTarget(t *testing.T) {
	dir := t.TempDir()
	fifo := testfiles.Mkfifo(t, filepath.Join(dir, "in.conf"))
	regular := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(regular, []byte("events {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ts, err := lint.Targets([]string{fifo, regular, "-"})
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if len(ts) != 3 || !ts[0].Pipe || ts[0].Prefix != wd || ts[1].Pipe || ts[2].Pipe {
		t.Fatalf("targets %+v", ts)
	}

	// Opened read-write: the data stays in the pipe until the lint reads
	// it, and the close after it is the end of the text.
	f, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("events {}\nhttp {\n    server_tokens on;\n}\n"); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		f.Close()
	}()
	w := &lint.Workspace{NoSettings: true, MaxTotalSize: 1 << 20}
	var first []string
	for round := range 2 {
		rep, err := w.Lint(ts[:1])
		if err != nil {
			t.Fatal(err)
		}
		got := codes(rep.Findings)
		if len(rep.Unreadable) > 0 || !slices.Equal(got, []string{"NL3009 in.conf"}) {
			t.Errorf("round %d: findings %v, unreadable %v", round, got, rep.Unreadable)
		}
		// The text counts in each run's total, read or remembered.
		if rep.Read != int64(len("events {}\nhttp {\n    server_tokens on;\n}\n")) {
			t.Errorf("round %d: %d bytes read", round, rep.Read)
		}
		if round == 0 {
			first = got
		} else if !slices.Equal(got, first) {
			t.Errorf("second lint %v, first %v", got, first)
		}
	}
}
