package lint

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"github.com/nginx-lint/nginx-lint/parser"
)

// StockPrefixes are the conf prefixes nginx packages install nginx.conf
// in: Debian, Ubuntu, Alpine, Fedora, RHEL and nginx.org's packages (and
// so the official Docker image) use /etc/nginx; nginx built from source
// /usr/local/nginx/conf; OpenResty /usr/local/openresty/nginx/conf (its
// Docker image adds /etc/nginx/conf.d) or /etc/openresty; FreeBSD and
// Homebrew /usr/local/etc/nginx or /opt/homebrew/etc/nginx. A checkout
// whose nginx.conf sits under one of them, as in repo/etc/nginx, mirrors
// the host's file system (see docs/deployment.md).
var StockPrefixes = []string{
	"/usr/local/openresty/nginx/conf",
	"/opt/homebrew/etc/nginx",
	"/usr/local/nginx/conf",
	"/usr/local/etc/nginx",
	"/etc/openresty",
	"/etc/nginx",
}

// stockFiles are the files the packages install in the conf prefix (the
// ones nginx's source ships in conf/, Debian's proxy_params and
// snippets). A checkout may leave them out: nginx finds them on the
// deployment host.
var stockFiles = map[string]bool{
	"mime.types": true, "fastcgi_params": true, "fastcgi.conf": true, "scgi_params": true,
	"uwsgi_params": true, "proxy_params": true, "koi-utf": true, "koi-win": true, "win-utf": true,
	"snippets/fastcgi-php.conf": true, "snippets/snakeoil.conf": true,
}

// deployment is where a configuration whose conf prefix is here at
// prefix sits on the host it deploys to.
type deployment struct {
	// prefix is the conf prefix here (absolute).
	prefix string
	// nginx is the conf prefix nginx sees, when known: a stock prefix.
	nginx string
	// live: prefix is the stock prefix itself (the lint is of the host's
	// own configuration), so absolute paths mean this machine.
	live bool
	// maps are the inferred include-paths: "/" onto the checkout's image
	// of the root when the tree mirrors a stock prefix, else the stock
	// prefix nginx.conf includes from onto prefix.
	maps []config.PathMap
}

// cutDir is config's: p without the directory prefix dir.
func cutDir(p, dir string) (string, bool) {
	if p == dir {
		return "", true
	}
	if dir == string(filepath.Separator) {
		return strings.TrimPrefix(p, dir), filepath.IsAbs(p)
	}
	return strings.CutPrefix(p, dir+string(filepath.Separator))
}

// mirrorRoot returns the checkout's image of "/" for a path that holds a
// stock prefix ("/repo" for /repo/etc/nginx/conf.d/x.conf), with the
// prefix; ok is false when path holds none, or is on the host's own
// prefix.
func mirrorRoot(path string) (root, prefix string, ok bool) {
	for _, s := range StockPrefixes {
		seg := s + string(filepath.Separator)
		p := path + string(filepath.Separator)
		if i := strings.LastIndex(p, seg); i > 0 {
			return p[:i], s, true
		}
	}
	return "", "", false
}

// inferDeployment works out where the conf prefix dir deploys: dir
// itself when it is a stock prefix; the stock prefix it mirrors when it
// ends with one (repo/etc/nginx), every absolute path then read from the
// checkout; else, when main (the nginx.conf in dir, nil if none)
// includes files by absolute path under a stock prefix, that prefix,
// read from dir (a repository holding what /etc/nginx holds).
func inferDeployment(dir string, main *parser.File) deployment {
	dep := deployment{prefix: dir}
	for _, s := range StockPrefixes {
		if dir == s {
			dep.nginx, dep.live = s, true
			return dep
		}
	}
	if root, s, ok := mirrorRoot(dir); ok && dir == root+s {
		dep.nginx = s
		dep.maps = []config.PathMap{{From: string(filepath.Separator), To: root}}
		return dep
	}
	if main == nil {
		return dep
	}
	walk(main.Directives, func(d *parser.Directive) bool {
		if dep.nginx != "" {
			return false
		}
		if d.Name.Value != "include" || len(d.Args) != 1 || !filepath.IsAbs(d.Args[0].Value) {
			return true
		}
		for _, s := range StockPrefixes {
			if _, ok := cutDir(filepath.Clean(d.Args[0].Value), s); ok {
				dep.nginx = s
				dep.maps = []config.PathMap{{From: s, To: dir}}
				return false
			}
		}
		return true
	})
	return dep
}

// elsewhere reports whether a missing include at path (as the loader
// names it: nginx's absolute path, or a relative one resolved here) is a
// stock file the deployment host has: not an error, and the
// configuration is incomplete.
func (dep deployment) elsewhere(path string) bool {
	if dep.live {
		return false
	}
	for _, base := range []string{dep.nginx, dep.prefix} {
		if base == "" {
			continue
		}
		if rest, ok := cutDir(path, base); ok {
			return stockFiles[filepath.ToSlash(rest)]
		}
	}
	for _, s := range StockPrefixes {
		if rest, ok := cutDir(path, s); ok {
			return stockFiles[filepath.ToSlash(rest)]
		}
	}
	return false
}

// mapping returns the settings' include-paths followed by the inferred
// ones (the settings win), as a settings file for config.FS and
// LocalizePaths; nil when there are none.
func (dep deployment) mapping(cfg *config.File) *config.File {
	var explicit []config.PathMap
	if cfg != nil {
		explicit = cfg.IncludePaths
	}
	if len(dep.maps) == 0 {
		return cfg
	}
	all := append(slices.Clone(explicit), dep.maps...)
	slices.SortStableFunc(all, func(a, b config.PathMap) int { return len(b.From) - len(a.From) })
	return &config.File{IncludePaths: all}
}

// walk calls fn for each directive of dirs and their blocks, depth first,
// until fn returns false.
func walk(dirs []*parser.Directive, fn func(*parser.Directive) bool) bool {
	for _, d := range dirs {
		if !fn(d) {
			return false
		}
		if d.Block != nil && !walk(d.Block.Directives, fn) {
			return false
		}
	}
	return true
}

// placer finds where files sit in their deployment, for one Lint or
// LintFile: each candidate nginx.conf is loaded once, however many files
// ask for it.
type placer struct {
	w      *Workspace
	budget *parser.ReadBudget
	loaded map[string]*candidate
}

func (w *Workspace) newPlacer(budget *parser.ReadBudget) *placer {
	return &placer{w: w, budget: budget, loaded: map[string]*candidate{}}
}

// candidate is an nginx.conf that may include a file: its configuration
// (nil when there is no such file or it cannot be read), loaded from its
// deployment, with the file system it was read through.
type candidate struct {
	c    *parser.Config
	dep  deployment
	fs   parser.FileSystem
	maps *config.File
	real map[string]*parser.File // its files by real path
}

// candidates lists the nginx.conf files that may include the file at
// path, nearest first: in its directory and up to three above (never
// above Bound, nor above a repository's root when bounded), then, when
// path is under a stock prefix in a checkout (repo/etc/nginx/conf.d/x),
// the nginx.conf of every stock prefix in that checkout
// (repo/usr/local/openresty/nginx/conf/nginx.conf includes
// /etc/nginx/conf.d/*.conf in OpenResty's image).
func (p *placer) candidates(path string) []string {
	var out []string
	var stop func(string) bool
	if p.w.Bound != "" {
		stop = stopAt(p.w.Bound)
	}
	dir := filepath.Dir(path)
	for range 4 {
		if p.w.Bound != "" && !Within(dir, p.w.Bound) {
			break
		}
		out = append(out, filepath.Join(dir, "nginx.conf"))
		if stop != nil && stop(dir) || dir == filepath.Dir(dir) {
			break
		}
		dir = filepath.Dir(dir)
	}
	if root, _, ok := mirrorRoot(filepath.Dir(path)); ok {
		for _, s := range StockPrefixes {
			c := filepath.Join(root, s, "nginx.conf")
			if (p.w.Bound == "" || Within(c, p.w.Bound)) && !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// load reads the candidate at path (memoized) with its includes, from the
// deployment its directory infers, under settings cfg.
func (p *placer) load(path string, cfg *config.File) *candidate {
	if c, ok := p.loaded[path]; ok {
		return c
	}
	cand := &candidate{}
	p.loaded[path] = cand
	l := p.w.loader(cfg, p.budget)
	disk := p.w.disk()
	src, err := (&parser.Loader{FS: disk, MaxFileSize: l.MaxFileSize, Budget: p.budget}).ReadFile(path)
	if err != nil {
		return cand
	}
	prefix := p.w.prefix(cfg)
	if prefix == "" {
		prefix = filepath.Dir(path)
	}
	cand.dep = inferDeployment(prefix, l.Parse(path, src, nil))
	cand.maps = cand.dep.mapping(cfg)
	l.FS, l.Prefix, l.Elsewhere = FileSystem(disk, cand.maps), prefix, cand.dep.elsewhere
	cand.fs = l.FS
	cand.c = l.LoadSource(path, src, nil)
	LocalizePaths(cand.c, cand.maps)
	cand.real = make(map[string]*parser.File, len(cand.c.Files))
	for _, f := range cand.c.Files[1:] {
		cand.real[f.Path] = f
		if r := parser.RealPath(f.Path); r != f.Path {
			cand.real[r] = f
		}
	}
	return cand
}

// file returns the file at path (absolute, clean) in the candidate's
// configuration, a symbolic link (sites-enabled) counting as the file it
// points at; nil when it does not include it.
func (cand *candidate) file(path string) *parser.File {
	if cand.c == nil {
		return nil
	}
	if f := cand.real[path]; f != nil {
		return f
	}
	return cand.real[parser.RealPath(path)]
}

// place returns the nginx.conf that includes the file at path and the
// file in it (nil when none does), and the nearest nginx.conf found
// either way (its directory is the file's conf prefix).
func (p *placer) place(path string, cfg *config.File) (root *candidate, f *parser.File, nearest *candidate) {
	for _, cp := range p.candidates(path) {
		if cp == path {
			continue
		}
		cand := p.load(cp, cfg)
		if cand.c == nil {
			continue
		}
		if nearest == nil {
			nearest = cand
		}
		if f := cand.file(path); f != nil {
			return cand, f, nearest
		}
	}
	return nil, nil, nearest
}
