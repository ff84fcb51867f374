// Package corpustest locates the shared conformance corpus for tests.
//
// The corpus (real-world configs labelled with what nginx -t said) lives in
// ../shared/corpus beside a developer's or CI's clone, never inside the
// repository. A user's clone does not have it: tests that need it skip with
// a clear message, except under CI=true, where its absence is a failure.
package corpustest

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Root returns the absolute path of the corpus directory, or skips the test
// (fails it when CI=true) if the corpus is absent. NGINX_LINT_CORPUS
// overrides the location.
func Root(t testing.TB) string {
	t.Helper()
	if dir, ok := Find(); ok {
		return dir
	}
	msg := "conformance corpus not found (expected ../shared/corpus beside the repository, or NGINX_LINT_CORPUS)"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + "; CI must provide it")
	}
	t.Skip(msg)
	return ""
}

// Find returns the corpus directory and whether it exists, without
// involving a test (fuzz targets use it for optional seeds).
func Find() (string, bool) {
	dir := os.Getenv("NGINX_LINT_CORPUS")
	if dir == "" {
		top, err := repoRoot()
		if err != nil {
			return "", false
		}
		dir = filepath.Join(top, "..", "shared", "corpus")
	}
	if st, err := os.Stat(filepath.Join(dir, "MANIFEST.tsv")); err != nil || st.IsDir() {
		return "", false
	}
	abs, err := filepath.Abs(dir)
	return abs, err == nil
}

// repoRoot walks up from the working directory to the directory with go.mod.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}

// Entry is one row of MANIFEST.tsv, keyed by column name.
type Entry map[string]string

// Manifest reads MANIFEST.tsv.
func Manifest(t testing.TB) []Entry {
	t.Helper()
	root := Root(t)
	f, err := os.Open(filepath.Join(root, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var header []string
	var out []Entry
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if header == nil {
			header = cols
			continue
		}
		e := Entry{}
		for i, h := range header {
			if i < len(cols) {
				e[h] = cols[i]
			}
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
