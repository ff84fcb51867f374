package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFmt(t *testing.T) {
	dir := t.TempDir()
	messy := filepath.Join(dir, "messy.conf")
	broken := filepath.Join(dir, "broken.conf")
	clean := filepath.Join(dir, "clean.conf")
	write := func(p, s string, mode os.FileMode) {
		if err := os.WriteFile(p, []byte(s), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(messy, "events{}\nhttp{server{listen 80;}}\n", 0o640)
	write(broken, "http {\n  server {\n", 0o644)
	write(clean, "events {}\n", 0o644)
	want := "events {}\nhttp {\n    server {\n        listen 80;\n    }\n}\n"

	// Printing changes nothing on disk.
	code, out, _ := runCLI(t, "", "fmt", messy)
	if code != exitClean || out != want {
		t.Fatalf("fmt: exit %d\n%s", code, out)
	}
	// --check lists what would change.
	code, out, _ = runCLI(t, "", "fmt", "--check", messy, clean)
	if code != exitFindings || strings.TrimSpace(out) != messy {
		t.Errorf("--check: exit %d, %q", code, out)
	}
	// -w rewrites in place, keeping the mode; a broken file is left alone.
	code, _, errOut := runCLI(t, "", "fmt", "-w", messy, broken, clean)
	if code != exitFindings || !strings.Contains(errOut, "broken.conf:3:1: unexpected end of file") {
		t.Errorf("-w: exit %d, stderr %q", code, errOut)
	}
	if b, _ := os.ReadFile(messy); string(b) != want {
		t.Errorf("rewritten file:\n%s", b)
	}
	if st, _ := os.Stat(messy); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", st.Mode().Perm())
	}
	if b, _ := os.ReadFile(broken); string(b) != "http {\n  server {\n" {
		t.Errorf("broken file changed: %q", b)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*nginx-lint*")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
	if code, out, _ := runCLI(t, "", "fmt", "--check", messy); code != exitClean || out != "" {
		t.Errorf("after -w, --check: exit %d %q", code, out)
	}
	// A directory formats its configuration files: --check lists the
	// messy one (clean and broken stay quiet or are reported apart).
	write(messy, "events{}\nhttp{server{listen 80;}}\n", 0o640)
	if code, out, _ := runCLI(t, "", "fmt", "--check", dir); code != exitFindings || !strings.Contains(out, "messy.conf") || strings.Contains(out, "clean.conf") {
		t.Errorf("--check DIR: exit %d, %q", code, out)
	}
	// Indentation: two spaces, tabs; no indentation is refused.
	if code, out, _ := runCLI(t, "", "fmt", "--indent", "2", messy); code != exitClean || out != "events {}\nhttp {\n  server {\n    listen 80;\n  }\n}\n" {
		t.Errorf("--indent 2: exit %d\n%s", code, out)
	}
	if code, out, _ := runCLI(t, "", "fmt", "--tabs", messy); code != exitClean || out != "events {}\nhttp {\n\tserver {\n\t\tlisten 80;\n\t}\n}\n" {
		t.Errorf("--tabs: exit %d\n%s", code, out)
	}
	if code, _, _ := runCLI(t, "", "fmt", "--indent", "0", messy); code != exitUsage {
		t.Errorf("--indent 0: exit %d, want %d", code, exitUsage)
	}
}
