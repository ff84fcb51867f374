package report

import (
	"path/filepath"
	"strings"
)

// DisplayPath is how every output format names a file: relative to the
// working directory when it is under it (GitHub matches annotation paths
// against the checkout, and reports read better so), absolute otherwise,
// with forward slashes; standard input is "<stdin>" (the loader names it
// so in the working directory).
func DisplayPath(path, cwd string) string {
	if cwd == "" {
		return filepath.ToSlash(path)
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(cwd, path)
	}
	rel, err := filepath.Rel(cwd, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}
