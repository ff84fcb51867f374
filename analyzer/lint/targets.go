package lint

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nginx-lint/nginx-lint/parser"
)

// Targets replaces each directory among paths with the configuration
// files under it, sorted: every *.conf, and every file of a sites-enabled
// or sites-available directory (Debian's layout, where sites have no
// extension). Hidden files and directories are skipped, and so are
// ModSecurity's rules files (see modSecurityFile), which share the .conf
// extension in /etc/nginx but which nginx never reads. A directory with
// none is a UsageError: linting nothing must not pass a CI gate. Paths
// that are not directories (or cannot be read) are kept as given; reading
// them says what is wrong.
func Targets(paths []string) ([]Target, error) {
	var out []Target
	for _, p := range paths {
		st, err := os.Stat(p)
		if p == "-" || err != nil || !st.IsDir() {
			out = append(out, FileTarget(p))
			continue
		}
		n := len(out)
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if strings.HasPrefix(name, ".") && path != p {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				return nil
			}
			dir := filepath.Base(filepath.Dir(path))
			if strings.HasSuffix(name, ".conf") || dir == "sites-enabled" || dir == "sites-available" {
				// A symlink to a directory is not a configuration. A
				// FIFO, socket or device is kept: reading refuses it
				// with a not-regular-file finding.
				if st, err := os.Stat(path); err == nil && !st.IsDir() && !(st.Mode().IsRegular() && modSecurityFile(path)) {
					out = append(out, Target{Path: path, FromDir: true, Prefix: confPrefix(p, filepath.Dir(path)), Root: p})
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(out) == n {
			return nil, &UsageError{"no configuration files (*.conf, sites-enabled/*) under " + p}
		}
	}
	return out, nil
}

// modSecurityFile reports whether a file met in a directory is
// ModSecurity's rather than nginx's: Debian's libnginx-mod-http-modsecurity
// installs /etc/nginx/modsecurity.conf (SecRuleEngine, SecRule, ...) and
// modsecurity_includes.conf (ModSecurity's own "include FILE", without a
// ";"), which the module reads through modsecurity_rules_file. nginx's
// parser never sees them, so linting or formatting them as nginx's would
// report a syntax error nginx never gives. A file is ModSecurity's when
// its name is modsecurity*.conf or its first directive is one of
// ModSecurity's (they all start with "Sec"). A main configuration that
// includes such a file with nginx's include still has it read, and its
// errors reported, as nginx reads it.
func modSecurityFile(path string) bool {
	if name := filepath.Base(path); strings.HasPrefix(name, "modsecurity") && strings.HasSuffix(name, ".conf") {
		return true
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, buf)
	for _, line := range strings.Split(string(buf[:n]), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		word, _, _ := strings.Cut(line, " ")
		word, _, _ = strings.Cut(word, "\t")
		return len(word) > 3 && strings.HasPrefix(word, "Sec") && word[3] >= 'A' && word[3] <= 'Z' && !strings.ContainsAny(word, ";{}")
	}
	return false
}

// FileTarget is the target for a path named on the command line that is
// not a directory: a FIFO (a process substitution's /dev/fd/N) is marked
// Pipe and gets the working directory as its conf prefix, as standard
// input does; anything else is read as a file.
func FileTarget(path string) Target {
	if path == "-" || !parser.IsNamedPipe(path) {
		return Target{Path: path}
	}
	t := Target{Path: path, Pipe: true}
	if wd, err := os.Getwd(); err == nil {
		t.Prefix = wd
	}
	return t
}

// confPrefix returns the nearest directory from dir up to root that
// holds an nginx.conf, else root.
func confPrefix(root, dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if st, err := os.Stat(filepath.Join(d, "nginx.conf")); err == nil && st.Mode().IsRegular() {
			return d
		}
		if d == filepath.Clean(root) || d == filepath.Dir(d) {
			return root
		}
	}
}

// Within reports whether path is dir or under it (both clean and
// absolute, or both relative to the same directory).
func Within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !filepath.IsAbs(rel) && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// isRepoRoot reports whether dir holds a .git (a directory, or a file as
// in worktrees and submodules).
func isRepoRoot(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}

// stopAt returns the upward search's stop for a bound: the bound itself,
// or a repository root met before it.
func stopAt(bound string) func(string) bool {
	return func(dir string) bool { return dir == bound || !Within(dir, bound) || isRepoRoot(dir) }
}

// BoundOf returns the bound of a file outside every workspace folder: its
// repository's root (the nearest directory with a .git), else its own
// directory.
func BoundOf(path string) string {
	dir := filepath.Dir(path)
	for d := dir; ; d = filepath.Dir(d) {
		if isRepoRoot(d) {
			return d
		}
		if d == filepath.Dir(d) {
			return dir
		}
	}
}
