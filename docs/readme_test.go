package docs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxReadmeLines is the README's budget (issue 19): what nginx-lint is,
// install, a first lint, CI and pre-commit, editors, and where to read
// more; the rest belongs in the pages here.
const maxReadmeLines = 400

func TestReadmeShort(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(string(b), "\n")
	if n == 0 {
		t.Fatal("README.md is empty")
	}
	if n > maxReadmeLines {
		t.Errorf("README.md has %d lines, more than %d: move the detail to a page under docs/", n, maxReadmeLines)
	}
}
