//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// threeFiles writes a.conf, b.conf and c.conf holding "old a" ... in a
// new directory and returns their paths and the changes that rewrite
// them, expecting what they hold.
func threeFiles(t *testing.T) (dir string, paths []string, changes []Change) {
	t.Helper()
	dir = t.TempDir()
	for _, n := range []string{"a", "b", "c"} {
		p := filepath.Join(dir, n+".conf")
		write(t, p, "old "+n+"\n", 0o644)
		paths = append(paths, p)
		changes = append(changes, Change{Name: p, Data: []byte("new " + n + "\n"), Options: Options{Expect: []byte("old " + n + "\n")}})
	}
	return dir, paths, changes
}

func wantContents(t *testing.T, paths []string, prefix string) {
	t.Helper()
	for _, p := range paths {
		n := strings.TrimSuffix(filepath.Base(p), ".conf")
		if got := content(t, p); got != prefix+" "+n+"\n" {
			t.Errorf("%s holds %q, want %q", filepath.Base(p), got, prefix+" "+n+"\n")
		}
	}
}

// TestWriteFilesAllOrNone: a read-only file, or one changed since it was
// read, among several stops the transaction before any file is written.
func TestWriteFilesAllOrNone(t *testing.T) {
	dir, paths, changes := threeFiles(t)
	if err := os.Chmod(paths[1], 0o444); err != nil {
		t.Fatal(err)
	}
	_, err := WriteFiles(changes)
	var fe *FileError
	if !errors.As(err, &fe) || fe.Name != paths[1] || !errors.Is(err, ErrReadOnly) {
		t.Fatalf("err %v, want ErrReadOnly for b.conf", err)
	}
	wantContents(t, paths, "old")
	noTemps(t, dir)

	dir, paths, changes = threeFiles(t)
	write(t, paths[2], "edited c\n", 0o644)
	if _, err := WriteFiles(changes); !errors.Is(err, ErrChanged) {
		t.Fatalf("err %v, want ErrChanged", err)
	}
	wantContents(t, paths[:2], "old")
	noTemps(t, dir)

	// With nothing in the way, all are written.
	dir, paths, changes = threeFiles(t)
	got, err := WriteFiles(changes)
	if err != nil || len(got) != 3 {
		t.Fatalf("%v %v", got, err)
	}
	wantContents(t, paths, "new")
	noTemps(t, dir)
}

// TestWriteFilesRollBack: when the third file cannot be put in place, the
// two already replaced get their old contents back, a hard-linked one
// (rewritten in place) too.
func TestWriteFilesRollBack(t *testing.T) {
	dir, paths, changes := threeFiles(t)
	if err := os.Link(paths[1], filepath.Join(dir, "b-link.conf")); err != nil {
		t.Fatal(err)
	}
	before := stat(t, paths[0]).Ino
	beforeApply = func(target string) error {
		if target == paths[2] {
			return errors.New("disk on fire")
		}
		return nil
	}
	t.Cleanup(func() { beforeApply = nil })
	_, err := WriteFiles(changes)
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("err %v", err)
	}
	wantContents(t, paths, "old")
	if got := content(t, filepath.Join(dir, "b-link.conf")); got != "old b\n" {
		t.Errorf("the hard link holds %q", got)
	}
	if stat(t, paths[0]).Ino != before {
		t.Error("a.conf is not the file it was: its old inode was not put back")
	}
	noTemps(t, dir, os.TempDir())
}

// TestWriteFilesAlreadyWritten: a file that already holds the new
// contents (another run wrote them) counts as written, whatever Expect
// says: two formatters racing on one file both succeed.
func TestWriteFilesAlreadyWritten(t *testing.T) {
	_, paths, changes := threeFiles(t)
	write(t, paths[0], "new a\n", 0o644)
	if _, err := WriteFiles(changes); err != nil {
		t.Fatal(err)
	}
	wantContents(t, paths, "new")
	// Two different texts for one file are refused.
	_, err := WriteFiles([]Change{{Name: paths[1], Data: []byte("x\n")}, {Name: paths[1], Data: []byte("y\n")}})
	if err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("err %v", err)
	}
}

// TestWriteFilesInterrupted: SIGTERM while the files are staged abandons
// the transaction: every file keeps its old contents, no temporary file
// is left, and the process ends by the signal.
func TestWriteFilesInterrupted(t *testing.T) {
	if os.Getenv("ATOMICFILE_TXN_CHILD") != "" {
		return // the child's work is in TestMain
	}
	dir, paths, _ := threeFiles(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestWriteFilesInterrupted$")
	cmd.Env = append(os.Environ(), "ATOMICFILE_TXN_CHILD="+dir)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("child did not fail: %v\n%s", err, out)
	}
	if ws := ee.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("child ended with %v, want killed by SIGTERM\n%s", ws, out)
	}
	wantContents(t, paths, "old")
	noTemps(t, dir)
}
