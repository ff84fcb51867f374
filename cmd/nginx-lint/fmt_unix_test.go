//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFmtWriteSafety checks what fmt -w does around the file it writes;
// internal/atomicfile tests each case in depth.
func TestFmtWriteSafety(t *testing.T) {
	const messy, want = "events{}\n", "events {}\n"
	dir := t.TempDir()
	write := func(p string, mode os.FileMode) {
		t.Helper()
		if err := os.WriteFile(p, []byte(messy), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, mode)
	}
	read := func(p string) string { b, _ := os.ReadFile(p); return string(b) }

	// A read-only file is refused (exit 2) unless --force.
	ro := filepath.Join(dir, "ro.conf")
	write(ro, 0o444)
	code, _, errOut := runCLI(t, "", "fmt", "-w", ro)
	if code != exitError || !strings.Contains(errOut, "read-only file, not written (--force writes it)") || read(ro) != messy {
		t.Errorf("read-only: exit %d, %q, file %q", code, errOut, read(ro))
	}
	if code, _, errOut := runCLI(t, "", "fmt", "-w", "--force", ro); code != exitClean || read(ro) != want {
		t.Errorf("--force: exit %d, %q, file %q", code, errOut, read(ro))
	}

	// A hard link still shares the new contents.
	a, b := filepath.Join(dir, "a.conf"), filepath.Join(dir, "b.conf")
	write(a, 0o644)
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "", "fmt", "-w", a); code != exitClean || read(b) != want {
		t.Errorf("hard link: exit %d, %q, other link reads %q", code, errOut, read(b))
	}

	// The owner stays (as root: chown it away first).
	if os.Geteuid() == 0 {
		o := filepath.Join(dir, "owned.conf")
		write(o, 0o640)
		if err := os.Chown(o, 4242, 4343); err != nil {
			t.Fatal(err)
		}
		if code, _, errOut := runCLI(t, "", "fmt", "-w", o); code != exitClean {
			t.Errorf("owned: exit %d, %q", code, errOut)
		}
		fi, _ := os.Stat(o)
		if st := fi.Sys().(*syscall.Stat_t); st.Uid != 4242 || st.Gid != 4343 || fi.Mode().Perm() != 0o640 || read(o) != want {
			t.Errorf("owner %d:%d mode %v after fmt -w, want 4242:4343 0640", st.Uid, st.Gid, fi.Mode().Perm())
		}
	}

	// In a directory walk, a link out of the tree is not followed for
	// writing; its target outside stays as it was, and the link a link.
	outside := filepath.Join(dir, "outside.conf")
	write(outside, 0o644)
	tree := filepath.Join(dir, "tree")
	os.Mkdir(tree, 0o755)
	if err := os.Symlink("../outside.conf", filepath.Join(tree, "site.conf")); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI(t, "", "fmt", "-w", tree)
	if code != exitError || !strings.Contains(errOut, "outside "+tree+": not written") || read(outside) != messy {
		t.Errorf("link out of the tree: exit %d, %q, target %q", code, errOut, read(outside))
	}
	if l, err := os.Readlink(filepath.Join(tree, "site.conf")); err != nil || l != "../outside.conf" {
		t.Errorf("link became %q, %v", l, err)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*nginx-lint*")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
}
