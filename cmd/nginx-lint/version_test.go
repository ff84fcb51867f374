package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestVersionOfBuiltBinary builds the command as a user would and checks that
// --version prints what the go command recorded in the binary: the module
// version and, for a build from a clone, the VCS revision.
func TestVersionOfBuiltBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build with")
	}
	bin := filepath.Join(t.TempDir(), "nginx-lint")
	if out, err := exec.Command(goCmd, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	info, err := exec.Command(goCmd, "version", "-m", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	field := func(pattern string) string {
		m := regexp.MustCompile(pattern).FindSubmatch(info)
		if m == nil {
			return ""
		}
		return string(m[1])
	}
	modVersion := field(`(?m)^\s+mod\s+\S+\s+(\S+)`)
	revision := field(`(?m)^\s+build\s+vcs\.revision=(\S+)`)
	if modVersion == "" {
		t.Fatalf("no module version in the build info:\n%s", info)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.TrimSpace(string(out))
	want := "nginx-lint " + modVersion
	if revision != "" {
		want += " revision " + revision
		if strings.Contains(string(info), "vcs.modified=true") {
			want += ", modified"
		}
	} else {
		t.Logf("this build carries no VCS stamp (GOFLAGS=-buildvcs=false, or not a git clone); --version prints %q", got)
	}
	if got != want {
		t.Errorf("--version prints %q, want %q\nbuild info:\n%s", got, want, info)
	}
}
