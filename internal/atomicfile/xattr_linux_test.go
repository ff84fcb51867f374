package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestXattrsKept: a file with extended attributes (here a user
// attribute; ACLs and SELinux labels are attributes too) is rewritten in
// place, so it keeps them.
func TestXattrsKept(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "site.conf")
	write(t, p, "old\n", 0o644)
	if err := syscall.Setxattr(p, "user.nginx-lint-test", []byte("kept"), 0); err != nil {
		t.Skip("no user extended attributes on this file system:", err)
	}
	ino := stat(t, p).Ino
	if _, err := WriteFile(p, []byte("new\n"), Options{}); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	n, err := syscall.Getxattr(p, "user.nginx-lint-test", buf)
	if err != nil || string(buf[:n]) != "kept" {
		t.Errorf("attribute lost: %q, %v", buf[:max(n, 0)], err)
	}
	if stat(t, p).Ino != ino {
		t.Error("the file was replaced, not rewritten")
	}
	if b, _ := os.ReadFile(p); string(b) != "new\n" {
		t.Errorf("contents %q", b)
	}
	noTemps(t, dir)
}
