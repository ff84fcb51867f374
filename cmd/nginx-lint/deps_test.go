package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The binary must not carry test machinery: the nginx runtime it needs
// for calibrate lives in internal/nginxrun, and parser/nginxtest, which
// imports testing, is for tests.
func TestBinaryLinksNoTesting(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		switch {
		case pkg == "testing", strings.HasPrefix(pkg, "testing/"),
			strings.HasSuffix(pkg, "/nginxtest"), strings.HasSuffix(pkg, "/analysistest"),
			strings.HasSuffix(pkg, "/internal/testfiles"):
			t.Errorf("nginx-lint links %s", pkg)
		}
	}
}
