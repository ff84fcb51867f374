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
	// --check lists what would change, and ends (on standard error, so
	// that standard output stays a list of names) with the command that
	// formats them, with the layout flags given.
	code, out, errOut := runCLI(t, "", "fmt", "--check", messy, clean)
	if code != exitFindings || strings.TrimSpace(out) != messy {
		t.Errorf("--check: exit %d, %q", code, out)
	}
	if want := "1 file would be reformatted: run nginx-lint fmt -w " + shellJoin([]string{messy}) + " to apply\n"; errOut != want {
		t.Errorf("--check: stderr %q, want %q", errOut, want)
	}
	if _, _, errOut := runCLI(t, "", "fmt", "--check", "--indent", "2", "--spacing", "single", messy); !strings.Contains(errOut, "run nginx-lint fmt -w --indent 2 --spacing single ") {
		t.Errorf("--check with layout flags: stderr %q", errOut)
	}
	if _, _, errOut := runCLI(t, "events{}\n", "fmt", "--check", "-"); errOut != "standard input would be reformatted: run nginx-lint fmt - to print it formatted\n" {
		t.Errorf("--check -: stderr %q", errOut)
	}
	if got := shellJoin([]string{"nginx-lint", "fmt", "-w", "my site.conf", "it's.conf"}); got != `nginx-lint fmt -w 'my site.conf' 'it'\''s.conf'` {
		t.Errorf("shellJoin: %s", got)
	}
	// -w rewrites in place, keeping the mode; a broken file is left alone.
	code, _, errOut = runCLI(t, "", "fmt", "-w", messy, broken, clean)
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
	if code, out, errOut := runCLI(t, "", "fmt", "--check", messy); code != exitClean || out != "" || errOut != "" {
		t.Errorf("after -w, --check: exit %d %q %q", code, out, errOut)
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

// TestFmtCheckDiff: --check names the files, --check --diff prints the
// diff instead (as gofmt -d does where gofmt -l names), both exit 1; -w
// with either is refused.
func TestFmtCheckDiff(t *testing.T) {
	dir := t.TempDir()
	messy := filepath.Join(dir, "messy.conf")
	if err := os.WriteFile(messy, []byte("http{gzip on;}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "--- " + messy + "\n+++ " + messy + "\n@@ -1 +1,3 @@\n-http{gzip on;}\n+http {\n+    gzip on;\n+}\n"
	for _, args := range [][]string{{"--check", "--diff"}, {"--diff"}} {
		code, out, _ := runCLI(t, "", append(append([]string{"fmt"}, args...), messy)...)
		if code != exitFindings || out != want {
			t.Errorf("fmt %v: exit %d\n%s\nwant\n%s", args, code, out, want)
		}
	}
	if code, out, _ := runCLI(t, "", "fmt", "--check", messy); code != exitFindings || out != messy+"\n" {
		t.Errorf("fmt --check: exit %d %q", code, out)
	}
	if code, _, _ := runCLI(t, "", "fmt", "-w", "--diff", messy); code != exitUsage {
		t.Errorf("-w --diff: exit %d, want %d", code, exitUsage)
	}
}

// TestFmtSettings: the fmt: section of .nginx-lint.yaml applies to the
// files under it, a flag wins over it, --no-config and --config choose.
func TestFmtSettings(t *testing.T) {
	dir := t.TempDir()
	site := filepath.Join(dir, "sites", "a.conf")
	os.MkdirAll(filepath.Dir(site), 0o755)
	const src = "server {\n    listen  80;\n\n\n\n    root /srv;\n}\n"
	if err := os.WriteFile(site, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	settings := filepath.Join(dir, ".nginx-lint.yaml")
	if err := os.WriteFile(settings, []byte("fmt:\n  indent: tab\n  spacing: single\n  max-blank-lines: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{nil, "server {\n\tlisten 80;\n\n\troot /srv;\n}\n"},
		{[]string{"--indent", "2"}, "server {\n  listen 80;\n\n  root /srv;\n}\n"},
		{[]string{"--spacing", "keep", "--max-blank-lines", "2"}, "server {\n\tlisten  80;\n\n\n\troot /srv;\n}\n"},
		{[]string{"--no-config"}, src},
	}
	for _, tt := range tests {
		code, out, errOut := runCLI(t, "", append(append([]string{"fmt"}, tt.args...), site)...)
		if code != exitClean || out != tt.want {
			t.Errorf("fmt %v: exit %d %s\n%q\nwant\n%q", tt.args, code, errOut, out, tt.want)
		}
	}
	other := filepath.Join(t.TempDir(), "other.yaml")
	os.WriteFile(other, []byte("fmt:\n  indent: 3\n"), 0o644)
	if code, out, _ := runCLI(t, "", "fmt", "--config", other, site); code != exitClean || out != "server {\n   listen  80;\n\n\n\n   root /srv;\n}\n" {
		t.Errorf("--config: exit %d\n%q", code, out)
	}
	// A broken fmt: section, or flag, is a usage error.
	os.WriteFile(settings, []byte("fmt:\n  indnet: tab\n"), 0o644)
	if code, _, errOut := runCLI(t, "", "fmt", site); code != exitUsage || !strings.Contains(errOut, `fmt: unknown key "indnet", did you mean "indent"?`) {
		t.Errorf("misspelt key: exit %d %q", code, errOut)
	}
	for _, args := range [][]string{{"--indent", "x"}, {"--spacing", "wide"}, {"--max-blank-lines", "-1"}, {"--tabs", "--indent", "2"}} {
		if code, _, _ := runCLI(t, "", append(append([]string{"fmt", "--no-config"}, args...), site)...); code != exitUsage {
			t.Errorf("fmt %v: exit %d, want %d", args, code, exitUsage)
		}
	}
}

// TestFmtWriteKeepsAnEdit: a file saved by someone else between fmt -w
// reading it and writing it back is not overwritten.
func TestFmtWriteKeepsAnEdit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.conf")
	if err := os.WriteFile(p, []byte("http{gzip on;}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const edit = "http{gzip off;}\n"
	beforeWrite = func(string) { os.WriteFile(p, []byte(edit), 0o644) }
	defer func() { beforeWrite = nil }()
	code, _, errOut := runCLI(t, "", "fmt", "-w", p)
	if code != exitError || !strings.Contains(errOut, "a.conf: changed since nginx-lint read it, not written") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if b, _ := os.ReadFile(p); string(b) != edit {
		t.Errorf("the edit was lost: %q", b)
	}
	beforeWrite = nil
	if code, _, errOut := runCLI(t, "", "fmt", "-w", p); code != exitClean {
		t.Errorf("second run: exit %d %q", code, errOut)
	}
	if b, _ := os.ReadFile(p); string(b) != "http {\n    gzip off;\n}\n" {
		t.Errorf("second run wrote %q", b)
	}
}
