package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"github.com/nginx-lint/nginx-lint/parser"
)

// This file places a checked-in configuration where it deploys: a tree
// that mirrors a conf prefix (a repository holding etc/nginx/) has its
// absolute includes (include /etc/nginx/mime.types;) and symbolic links
// (sites-enabled/default -> /etc/nginx/sites-available/default) read from
// the checkout, never from the machine nginx-lint runs on, and a file
// linted alone resolves its relative includes against the conf prefix as
// nginx does.

// MirrorPrefixes are the conf prefixes of nginx's packages and builds that
// a repository often mirrors: Debian, Ubuntu, Alpine, Fedora, RHEL and the
// official image (/etc/nginx), nginx built from source, OpenResty's
// packages and builds, FreeBSD and Homebrew.
var MirrorPrefixes = []string{
	"/etc/nginx",
	"/usr/local/nginx/conf",
	"/etc/openresty",
	"/usr/local/openresty/nginx/conf",
	"/usr/local/etc/nginx",
	"/opt/homebrew/etc/nginx",
}

// mirrorOf returns, for a file at path (absolute), the conf prefix its
// tree mirrors and the directory that holds that mirror: for
// /repo/etc/nginx/sites-available/x, "/etc/nginx" and "/repo/etc/nginx".
// ok is false when the path is under no mirror, or is the real prefix.
func mirrorOf(path string) (prefix, dir string, ok bool) {
	path = filepath.ToSlash(path)
	best := -1
	for _, p := range MirrorPrefixes {
		// The mirror is a path segment sequence: .../etc/nginx/...
		i := strings.LastIndex(path+"/", p+"/")
		if i <= 0 || len(p) <= best {
			continue
		}
		prefix, dir, best = p, filepath.FromSlash(path[:i]+p), len(p)
	}
	return prefix, dir, best > 0
}

// withMirror returns the settings with the include-paths entry that maps
// the conf prefix a file's tree mirrors onto the checkout, when the
// settings do not map that prefix themselves; f itself when nothing is
// added (the settings are shared: never changed in place).
func withMirror(path string, f *config.File) *config.File {
	if path == "-" || path == "" {
		return f
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return f
	}
	prefix, dir, ok := mirrorOf(abs)
	if !ok {
		prefix, dir, ok = inferredMirror(abs)
	}
	if !ok {
		return f
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return f
	}
	out := &config.File{}
	if f != nil {
		for _, m := range f.IncludePaths {
			if m.From == prefix {
				return f // the settings say where it lives
			}
		}
		c := *f
		out = &c
	}
	out.IncludePaths = append(slices.Clone(out.IncludePaths), config.PathMap{From: prefix, To: dir})
	// MapPath takes the first match: longest prefix first.
	slices.SortStableFunc(out.IncludePaths, func(a, b config.PathMap) int { return len(b.From) - len(a.From) })
	return out
}

// namedPrefix gives a file named alone (not found in a directory) its
// conf prefix when it has none: the nearest directory above it with an
// nginx.conf, against which its relative includes resolve, as when that
// nginx.conf includes it.
func (w *Workspace) namedPrefix(t *Target) {
	if t.Prefix != "" || t.Path == "-" {
		return
	}
	abs, err := filepath.Abs(t.Path)
	if err != nil {
		return
	}
	bound := w.Bound
	if bound == "" {
		bound = searchBound(abs)
	}
	t.Prefix = nearestConfDir(filepath.Dir(abs), bound)
}

// searchBound is how far up the searches on behalf of a file named alone
// go when no workspace bounds them: its repository's root, else, on a
// live server or a copy outside any repository, the directory three
// above its own (never above the file system's root), as far as rootOf
// looks for the nginx.conf that includes it. /etc/nginx/snippets/x.conf
// so finds /etc/nginx, where its "include fastcgi.conf;" resolves.
func searchBound(path string) string {
	dir := filepath.Dir(path)
	for d := dir; ; d = filepath.Dir(d) {
		if isRepoRoot(d) {
			return d
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	for range 3 {
		dir = filepath.Dir(dir)
	}
	return dir
}

// nearestConfDir returns the nearest directory from dir upward, within
// bound, that holds an nginx.conf: the conf prefix of a file linted alone
// (a snippet's include fastcgi.conf; is relative to it), or "" when none.
func nearestConfDir(dir, bound string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if st, err := os.Stat(filepath.Join(d, "nginx.conf")); err == nil && st.Mode().IsRegular() {
			return d
		}
		if d == bound || d == filepath.Dir(d) || isRepoRoot(d) {
			return ""
		}
	}
}

// inferredMirror returns, for a file under no mirrored path, the conf
// prefix its tree is a copy of and the directory that holds the copy,
// when the tree's nginx.conf says so: a repository whose root is a copy
// of /etc/nginx has no etc/nginx in its path, but its nginx.conf says
// "include /etc/nginx/mime.types;" and mime.types lies beside it. The
// first absolute include under a conf prefix whose file (or, for a glob,
// directory) the copy holds decides. A tree at a conf prefix itself (this
// machine's /etc/nginx) is nginx's own, not a copy.
func inferredMirror(abs string) (prefix, dir string, ok bool) {
	dir = nearestConfDir(filepath.Dir(abs), searchBound(abs))
	if dir == "" || slices.Contains(MirrorPrefixes, filepath.ToSlash(dir)) {
		return "", "", false
	}
	for _, arg := range absoluteIncludes(filepath.Join(dir, "nginx.conf")) {
		for _, p := range MirrorPrefixes {
			rest, under := strings.CutPrefix(arg, p+"/")
			if !under || rest == "" || strings.Contains(rest, "..") {
				continue
			}
			local := filepath.Join(dir, filepath.FromSlash(rest))
			if strings.ContainsAny(rest, "*?[") {
				local = filepath.Dir(local)
			}
			if _, err := os.Stat(local); err == nil {
				return p, dir, true
			}
		}
	}
	return "", "", false
}

// includeScan is what absoluteIncludes found in one version of a file.
type includeScan struct {
	size  int64
	mtime time.Time
	args  []string
}

// includeScans keeps absoluteIncludes' answers by path: the language
// server asks at every lint, and the nginx.conf of a large configuration
// is megabytes long.
var includeScans sync.Map // path -> includeScan

// absoluteIncludes returns the arguments of the lines of the file at path
// that read "include /absolute/path", in order, read again only when the
// file's size or time changes.
func absoluteIncludes(path string) []string {
	st, err := os.Stat(path)
	if err != nil {
		return nil
	}
	if v, ok := includeScans.Load(path); ok {
		if sc := v.(includeScan); sc.size == st.Size() && sc.mtime.Equal(st.ModTime()) {
			return sc.args
		}
	}
	src, err := parser.ReadFileMax(parser.OSFS{}, path, parser.DefaultMaxFileSize)
	if err != nil {
		return nil
	}
	var args []string
	for line := range strings.Lines(string(src)) {
		arg, found := strings.CutPrefix(strings.TrimSpace(line), "include")
		if !found || arg == "" || arg[0] != ' ' && arg[0] != '\t' {
			continue
		}
		if i := strings.IndexByte(arg, ';'); i >= 0 {
			arg = arg[:i]
		}
		arg = strings.Trim(strings.TrimSpace(arg), `"'`)
		if strings.HasPrefix(arg, "/") {
			args = append(args, arg)
		}
	}
	includeScans.Store(path, includeScan{size: st.Size(), mtime: st.ModTime(), args: args})
	return args
}

// hostInstalled are files that well-known tools install on the
// deployment host outside every conf prefix, by absolute path, with the
// tool: certbot's nginx plugin includes its TLS options into the sites it
// manages and names its DH parameters there.
var hostInstalled = map[string]string{
	"/etc/letsencrypt/options-ssl-nginx.conf": "certbot",
	"/etc/letsencrypt/ssl-dhparams.pem":       "certbot",
}

// onHost reports whether path (absolute) lies under one of nginx's conf
// prefixes itself, not under a copy of one: the configuration of the
// machine nginx-lint runs on, where a missing file is missing for nginx
// too.
func onHost(path string) bool {
	path = filepath.ToSlash(path)
	for _, p := range MirrorPrefixes {
		if strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// hostFS reads a checkout's configuration and takes a file that it
// includes and this machine lacks for the deployment host's when a
// distribution package or a well-known tool installs it there (certbot's
// /etc/letsencrypt/options-ssl-nginx.conf, the nginx package's mime.types
// or fastcgi_params under a conf prefix, or relative to the
// configuration's): parser.ErrElsewhere, not an include error. It records
// what it took so that the include gets a hint (hint).
type hostFS struct {
	parser.FileSystem
	prefix string            // the conf prefix of the configuration read
	left   map[string]string // path -> who installs it
}

// withHostFiles wraps fsys for the configuration of target t: a
// configuration on this machine's own conf prefix is left alone, since
// this machine is its deployment host.
func withHostFiles(fsys parser.FileSystem, t Target, prefix string) parser.FileSystem {
	abs, err := filepath.Abs(t.Path)
	if err == nil && t.Path != "-" && onHost(abs) {
		return fsys
	}
	if prefix == "" && err == nil {
		prefix = filepath.Dir(abs)
	}
	return &hostFS{FileSystem: fsys, prefix: prefix, left: map[string]string{}}
}

// ReadFile reads p, or says that the deployment host has it.
func (h *hostFS) ReadFile(p string) ([]byte, error) {
	b, err := h.FileSystem.ReadFile(p)
	return b, h.elsewhere(p, err)
}

// ReadFileMax is ReadFile within max bytes.
func (h *hostFS) ReadFileMax(p string, max int64) ([]byte, error) {
	b, err := parser.ReadFileMax(h.FileSystem, p, max)
	return b, h.elsewhere(p, err)
}

// elsewhere turns err, from reading p, into parser.ErrElsewhere when p
// is missing and the deployment host's.
func (h *hostFS) elsewhere(p string, err error) error {
	if err == nil || !errors.Is(err, fs.ErrNotExist) || errors.Is(err, parser.ErrElsewhere) {
		return err
	}
	who := hostInstalled[filepath.ToSlash(p)]
	if who == "" && h.packaged(p) {
		who = "the nginx package"
	}
	if who == "" {
		return err
	}
	h.left[p] = who
	return &fs.PathError{Op: "open", Path: p, Err: fmt.Errorf("%s installs it: %w", who, parser.ErrElsewhere)}
}

// packaged reports whether p is a file the nginx package installs in a
// conf prefix (mime.types, snippets/fastcgi-php.conf), under one of the
// packages' prefixes (/etc/nginx/mime.types), the configuration's, or a
// directory that holds an nginx.conf, which the checkout's copy stands
// for: relative includes resolve there.
func (h *hostFS) packaged(p string) bool {
	dir, rel := filepath.Dir(p), filepath.Base(p)
	for range 2 {
		if config.PackageFile(rel) {
			if dir == h.prefix || slices.Contains(MirrorPrefixes, filepath.ToSlash(dir)) {
				return true
			}
			// Through the file system the configuration is read by (an
			// editor's buffers, a guard), as a glob without wildcards.
			if conf := filepath.Join(dir, "nginx.conf"); !strings.ContainsAny(conf, "*?[\\") {
				if m, err := h.Glob(conf); err == nil && len(m) == 1 {
					return true
				}
			}
		}
		dir, rel = filepath.Dir(dir), filepath.Join(filepath.Base(dir), rel)
	}
	return false
}

// hint adds to c an information at each include that read a file hostFS
// took for the deployment host's: it is not read, and include-paths can
// say where a copy is.
func (h *hostFS) hint(c *parser.Config) {
	if len(h.left) == 0 {
		return
	}
	c.Walk(func(d *parser.Directive, _ []*parser.Directive) bool {
		if d.Name().Value != "include" || len(d.Args()) != 1 || len(c.Included(d)) > 0 {
			return true
		}
		p := d.Args()[0].Value
		if !filepath.IsAbs(p) {
			p = filepath.Join(c.Prefix, p)
		}
		p = filepath.Clean(p)
		if who := h.left[p]; who != "" {
			c.Diagnostics = append(c.Diagnostics, &parser.Diagnostic{File: d.File, Path: d.File.Path, Range: d.Args()[0].Range,
				Severity: parser.Info, Code: parser.CodeUnreadable, Name: parser.NameUnreadable,
				Message: fmt.Sprintf("included file %q is not read: %s installs it on the deployment host", p, who),
				Detail: "this machine lacks it, so the rules that need the whole configuration stay quiet; to lint it, " +
					"map its directory to a copy in .nginx-lint.yaml (include-paths: {" + filepath.Dir(p) + "/: ./copy/})"})
		}
		return true
	})
}
