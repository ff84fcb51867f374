package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteBaselineSafely checks that --write-baseline prints nothing
// and writes as fmt -w does: through a symbolic link, keeping the mode,
// refusing a read-only file.
func TestWriteBaselineSafely(t *testing.T) {
	dir := writeConf(t, map[string]string{"nginx.conf": "events {}\nhttp {\n    gzipp on;\n}\n"})
	chdir(t, dir)
	if err := os.Mkdir("shared", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("shared/baseline.json", []byte("{}\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("shared/baseline.json", "baseline.json"); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "", "--write-baseline", "baseline.json", "nginx.conf")
	if code != exitClean || out != "" || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if l, err := os.Readlink("baseline.json"); err != nil || l != "shared/baseline.json" {
		t.Errorf("baseline.json is no longer the link: %q, %v", l, err)
	}
	b, _ := os.ReadFile("shared/baseline.json")
	if !strings.Contains(string(b), `"file": "nginx.conf"`) {
		t.Errorf("link target:\n%s", b)
	}
	if fi, _ := os.Stat("shared/baseline.json"); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", fi.Mode().Perm())
	}
	if code, _, _ := runCLI(t, "", "--baseline", "baseline.json", "nginx.conf"); code != exitClean {
		t.Errorf("the baseline written through the link does not filter: exit %d", code)
	}

	// A read-only baseline is not replaced (exit 2, said on stderr).
	if err := os.Chmod("shared/baseline.json", 0o444); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI(t, "", "--write-baseline", "baseline.json", "nginx.conf")
	if code != exitError || !strings.Contains(errOut, "read-only file") {
		t.Errorf("read-only baseline: exit %d, %q", code, errOut)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*", ".*nginx-lint*")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
}
