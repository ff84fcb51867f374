//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func write(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // past the umask
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func content(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func isLink(t *testing.T, path, want string) {
	t.Helper()
	got, err := os.Readlink(path)
	if err != nil {
		t.Errorf("%s is no longer a symbolic link: %v", path, err)
	} else if got != want {
		t.Errorf("%s -> %s, want -> %s", path, got, want)
	}
}

// noTemps fails when a temporary or backup file is left in any of dirs.
func noTemps(t *testing.T, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		m, _ := filepath.Glob(filepath.Join(d, ".*.nginx-lint-*"))
		if len(m) > 0 {
			t.Errorf("temporary files left: %v", m)
		}
	}
}

func stat(t *testing.T, path string) *syscall.Stat_t {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Sys().(*syscall.Stat_t)
}

func TestSymlinkChain(t *testing.T) {
	// tree/sites-enabled/a -> ../links/b -> ../real/sites-available/a,
	// where real is itself a link to a directory (Debian's layout with
	// one hop more, and a linked directory in the middle).
	root := t.TempDir()
	tree := filepath.Join(root, "tree")
	write(t, filepath.Join(root, "store", "sites-available", "a"), "old\n", 0o644)
	symlink(t, "../store", filepath.Join(tree, "real"))
	symlink(t, "../real/sites-available/a", filepath.Join(tree, "links", "b"))
	symlink(t, "../links/b", filepath.Join(tree, "sites-enabled", "a"))

	got, err := WriteFile(filepath.Join(tree, "sites-enabled", "a"), []byte("new\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(filepath.Join(root, "store", "sites-available", "a"))
	if got != want {
		t.Errorf("wrote %s, want %s", got, want)
	}
	isLink(t, filepath.Join(tree, "sites-enabled", "a"), "../links/b")
	isLink(t, filepath.Join(tree, "links", "b"), "../real/sites-available/a")
	if c := content(t, want); c != "new\n" {
		t.Errorf("target holds %q", c)
	}
	noTemps(t, filepath.Join(root, "store", "sites-available"), filepath.Join(tree, "sites-enabled"))

	// A loop is an error, not a hang.
	symlink(t, "loop2", filepath.Join(root, "loop1"))
	symlink(t, "loop1", filepath.Join(root, "loop2"))
	if _, err := WriteFile(filepath.Join(root, "loop1"), []byte("x"), Options{}); err == nil {
		t.Error("a symlink loop was written")
	}
}

func TestDanglingLink(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "baseline.json")
	symlink(t, "shared/baseline.json", link)
	if err := os.Mkdir(filepath.Join(dir, "shared"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The link's target is created, as a shell's "> link" would.
	if _, err := WriteFile(link, []byte("{}\n"), Options{Perm: 0o600}); err != nil {
		t.Fatal(err)
	}
	isLink(t, link, "shared/baseline.json")
	if c := content(t, filepath.Join(dir, "shared", "baseline.json")); c != "{}\n" {
		t.Errorf("target holds %q", c)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "shared", "baseline.json")); fi.Mode().Perm() != 0o600 {
		t.Errorf("new file mode %v, want 0600", fi.Mode().Perm())
	}
	// A link into a directory that does not exist is an error.
	bad := filepath.Join(dir, "bad")
	symlink(t, "nowhere/x", bad)
	if _, err := WriteFile(bad, []byte("x"), Options{}); err == nil {
		t.Error("a link into a missing directory was written")
	}
	isLink(t, bad, "nowhere/x")
}

func TestLinkOutsideRoot(t *testing.T) {
	root := t.TempDir()
	tree := filepath.Join(root, "tree")
	outside := filepath.Join(root, "outside", "default")
	write(t, outside, "old\n", 0o644)
	link := filepath.Join(tree, "sites-enabled", "default")
	symlink(t, "../../outside/default", link)

	_, err := WriteFile(link, []byte("new\n"), Options{Root: tree})
	if !errors.Is(err, ErrOutsideRoot) {
		t.Errorf("err = %v, want ErrOutsideRoot", err)
	}
	if c := content(t, outside); c != "old\n" {
		t.Errorf("file outside the tree changed: %q", c)
	}
	// Named explicitly (no root): written, and the link stays.
	if _, err := WriteFile(link, []byte("new\n"), Options{}); err != nil {
		t.Fatal(err)
	}
	if c := content(t, outside); c != "new\n" {
		t.Errorf("explicit write: %q", c)
	}
	isLink(t, link, "../../outside/default")
	// A link inside the tree is fine with a root.
	symlink(t, "default", filepath.Join(tree, "sites-enabled", "alias"))
	write(t, filepath.Join(tree, "sites-enabled", "x"), "a\n", 0o644)
	if _, err := WriteFile(filepath.Join(tree, "sites-enabled", "x"), []byte("b\n"), Options{Root: tree}); err != nil {
		t.Errorf("file inside the tree: %v", err)
	}
}

func TestHardLink(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.conf"), filepath.Join(dir, "b.conf")
	write(t, a, "old contents\n", 0o640)
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	ino := stat(t, a).Ino
	if _, err := WriteFile(a, []byte("new\n"), Options{}); err != nil {
		t.Fatal(err)
	}
	if c := content(t, b); c != "new\n" {
		t.Errorf("the other link reads %q: the link was broken", c)
	}
	if st := stat(t, a); st.Ino != ino || st.Nlink != 2 {
		t.Errorf("inode %d (was %d), %d links", st.Ino, ino, st.Nlink)
	}
	if fi, _ := os.Stat(a); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	noTemps(t, dir, os.TempDir())
}

func TestOwnerAndModeKept(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("changing a file's owner needs root")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "site.conf")
	write(t, p, "old\n", 0o640)
	if err := os.Chown(p, 12345, 23456); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o640|os.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteFile(p, []byte("new\n"), Options{}); err != nil {
		t.Fatal(err)
	}
	st := stat(t, p)
	if st.Uid != 12345 || st.Gid != 23456 {
		t.Errorf("owner %d:%d, want 12345:23456", st.Uid, st.Gid)
	}
	fi, _ := os.Stat(p)
	if fi.Mode()&(os.ModePerm|os.ModeSetgid) != 0o640|os.ModeSetgid {
		t.Errorf("mode %v, want 0640 with setgid", fi.Mode())
	}
	if c := content(t, p); c != "new\n" {
		t.Errorf("contents %q", c)
	}
	noTemps(t, dir)
}

func TestModeKept(t *testing.T) {
	dir := t.TempDir()
	for _, mode := range []os.FileMode{0o600, 0o640, 0o755} {
		p := filepath.Join(dir, "f-"+mode.String())
		write(t, p, "old\n", mode)
		if _, err := WriteFile(p, []byte("new\n"), Options{}); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(p); fi.Mode().Perm() != mode {
			t.Errorf("mode %v, want %v", fi.Mode().Perm(), mode)
		}
	}
	noTemps(t, dir)
}

func TestReadOnly(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "ro.conf")
	write(t, p, "old\n", 0o444)
	_, err := WriteFile(p, []byte("new\n"), Options{})
	if !errors.Is(err, ErrReadOnly) {
		t.Errorf("err = %v, want ErrReadOnly", err)
	}
	if c := content(t, p); c != "old\n" {
		t.Errorf("read-only file changed: %q", c)
	}
	// --force writes it and leaves it read-only.
	if _, err := WriteFile(p, []byte("new\n"), Options{Force: true}); err != nil {
		t.Fatal(err)
	}
	if c := content(t, p); c != "new\n" {
		t.Errorf("forced write: %q", c)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o444 {
		t.Errorf("mode after --force %v, want 0444", fi.Mode().Perm())
	}
	// The same through a hard link (the in-place path).
	if err := os.Link(p, filepath.Join(dir, "ro2.conf")); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteFile(p, []byte("newer\n"), Options{}); !errors.Is(err, ErrReadOnly) {
		t.Errorf("hard-linked read-only file: err = %v", err)
	}
	if _, err := WriteFile(p, []byte("newer\n"), Options{Force: true}); err != nil {
		t.Fatal(err)
	}
	if c := content(t, filepath.Join(dir, "ro2.conf")); c != "newer\n" {
		t.Errorf("forced in-place write: %q", c)
	}
	noTemps(t, dir)
}

func TestNotRegular(t *testing.T) {
	dir := t.TempDir()
	if _, err := WriteFile(dir, []byte("x"), Options{}); !errors.Is(err, ErrNotRegular) {
		t.Errorf("directory: err = %v", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := WriteFile(fifo, []byte("x"), Options{}); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("FIFO: err = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("writing a FIFO hangs")
	}
}

// TestInterrupted sends SIGTERM to a child process while its write has a
// temporary file on disk (the test hook runs then). The child must still
// die of the signal, but only after the write: no temporary file stays,
// and the file holds the old or the new contents whole.
// TestExpect checks that a file changed since the caller read it is not
// written: not through a link, not with several hard links (the in-place
// path), not when it was deleted; the unchanged file is.
func TestExpect(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.conf")
	write(t, p, "edited;\n", 0o644)
	symlink(t, "a.conf", filepath.Join(dir, "link.conf"))
	for _, name := range []string{p, filepath.Join(dir, "link.conf")} {
		if _, err := WriteFile(name, []byte("formatted;\n"), Options{Expect: []byte("read;\n")}); !errors.Is(err, ErrChanged) {
			t.Errorf("%s: err %v, want ErrChanged", name, err)
		}
		if got := content(t, p); got != "edited;\n" {
			t.Errorf("%s: the edit was overwritten: %q", name, got)
		}
	}
	if err := os.Link(p, filepath.Join(dir, "hard.conf")); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteFile(p, []byte("formatted;\n"), Options{Expect: []byte("read;\n")}); !errors.Is(err, ErrChanged) || content(t, p) != "edited;\n" {
		t.Errorf("hard link: err %v, file %q", err, content(t, p))
	}
	if _, err := WriteFile(p, []byte("formatted;\n"), Options{Expect: []byte("edited;\n")}); err != nil || content(t, p) != "formatted;\n" {
		t.Errorf("unchanged file: err %v, file %q", err, content(t, p))
	}
	gone := filepath.Join(dir, "gone.conf")
	if _, err := WriteFile(gone, []byte("formatted;\n"), Options{Expect: []byte("read;\n")}); !errors.Is(err, ErrChanged) {
		t.Errorf("deleted file: err %v, want ErrChanged", err)
	}
	if _, err := os.Stat(gone); err == nil {
		t.Errorf("a deleted file was created again")
	}
}

func TestInterrupted(t *testing.T) {
	if os.Getenv("ATOMICFILE_CHILD") != "" {
		return // the child's work is in TestMain
	}
	for _, hardLink := range []bool{false, true} {
		dir := t.TempDir()
		p := filepath.Join(dir, "site.conf")
		write(t, p, "old\n", 0o644)
		if hardLink {
			if err := os.Link(p, filepath.Join(dir, "other.conf")); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestInterrupted$")
		cmd.Env = append(os.Environ(), "ATOMICFILE_CHILD="+p)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("hard link %v: child did not fail: %v\n%s", hardLink, err, out)
		}
		ws := ee.Sys().(syscall.WaitStatus)
		if !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
			t.Errorf("hard link %v: child ended with %v, want killed by SIGTERM\n%s", hardLink, ws, out)
		}
		// A signal while the new contents are staged abandons the write;
		// one during an in-place rewrite (several hard links: the hook
		// runs once the backup is made) lets it finish.
		want := "old\n"
		if hardLink {
			want = "new\n"
		}
		if c := content(t, p); c != want {
			t.Errorf("hard link %v: file holds %q, want %q", hardLink, c, want)
		}
		noTemps(t, dir, os.TempDir())
	}
}

func TestMain(m *testing.M) {
	if p := os.Getenv("ATOMICFILE_WRITE"); p != "" {
		// A plain write, as whatever user the parent made this process.
		if _, err := WriteFile(p, []byte("new\n"), Options{}); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	if dir := os.Getenv("ATOMICFILE_TXN_CHILD"); dir != "" {
		// SIGTERM once the second of three files is staged.
		staged := 0
		testHook = func(string) {
			if staged++; staged == 2 {
				syscall.Kill(os.Getpid(), syscall.SIGTERM)
				time.Sleep(500 * time.Millisecond)
			}
		}
		var changes []Change
		for _, n := range []string{"a", "b", "c"} {
			changes = append(changes, Change{Name: filepath.Join(dir, n+".conf"), Data: []byte("new " + n + "\n")})
		}
		WriteFiles(changes)
		time.Sleep(2 * time.Second) // the re-raised signal ends the process before this
		os.Exit(0)
	}
	if p := os.Getenv("ATOMICFILE_CHILD"); p != "" {
		testHook = func(string) {
			syscall.Kill(os.Getpid(), syscall.SIGTERM)
			// Without the handler the default action ends the process
			// here, with the temporary file on disk.
			time.Sleep(500 * time.Millisecond)
		}
		WriteFile(p, []byte("new\n"), Options{})
		time.Sleep(2 * time.Second) // the re-raised signal ends the process before this
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestRelativeNames(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	abs, _ := filepath.EvalSymlinks(root)
	write(t, "tree/store/site", "old\n", 0o644)
	// An absolute link that stays inside a tree named relatively.
	symlink(t, filepath.Join(abs, "tree", "store", "site"), "tree/site.conf")
	got, err := WriteFile("tree/site.conf", []byte("new\n"), Options{Root: "tree"})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(abs, "tree", "store", "site"); got != want {
		t.Errorf("wrote %s, want %s", got, want)
	}
	if c := content(t, "tree/store/site"); c != "new\n" {
		t.Errorf("target holds %q", c)
	}
	write(t, "outside", "old\n", 0o644)
	symlink(t, "../outside", "tree/out.conf")
	if _, err := WriteFile("tree/out.conf", []byte("new\n"), Options{Root: "tree"}); !errors.Is(err, ErrOutsideRoot) {
		t.Errorf("relative link out of a relative root: err = %v", err)
	}
}

// TestOtherUsersFile has a user who may write a file but not give a new
// one its owner (someone else's group-writable file) write it: the file
// is rewritten in place and keeps its owner. Needs root to set this up.
func TestOtherUsersFile(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run a child as another user")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for d := dir; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o777|os.ModeSticky); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "child")
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	// A writable file of another user in a directory we may write, and
	// one in a directory we may not create files in.
	locked := filepath.Join(dir, "locked")
	if err := os.Mkdir(locked, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "shared.conf"), filepath.Join(locked, "shared.conf")} {
		write(t, p, "old\n", 0o666)
		if err := os.Chown(p, 23456, 23456); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin)
		cmd.Env = append(os.Environ(), "ATOMICFILE_WRITE="+p)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 12345, Gid: 12345}}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: child as uid 12345: %v\n%s", p, err, out)
		}
		st := stat(t, p)
		if st.Uid != 23456 || st.Gid != 23456 {
			t.Errorf("%s: owner %d:%d, want 23456:23456", p, st.Uid, st.Gid)
		}
		if c := content(t, p); c != "new\n" {
			t.Errorf("%s: contents %q", p, c)
		}
		noTemps(t, filepath.Dir(p), os.TempDir())
	}
}
