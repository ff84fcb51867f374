package parser

import (
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"io/fs"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unsafe"
)

// FileSystem is where a Loader reads files. The language server lays unsaved
// editor buffers over the disk with an Overlay; tests use in-memory files.
//
// The loader keeps the buffers ReadFile returns as the files' text,
// without a copy (a copy would double the memory of a large file while it
// is parsed), so a FileSystem must not write to a buffer it has returned.
type FileSystem interface {
	ReadFile(path string) ([]byte, error)
	// Glob returns the sorted paths matching pattern, as glob(3) does.
	Glob(pattern string) ([]string, error)
}

// OSFS reads the real file system.
type OSFS struct{}

// ReadFile reads a configuration file from disk as ReadConfigFile does,
// within DefaultMaxFileSize.
func (OSFS) ReadFile(path string) ([]byte, error) { return ReadConfigFile(path, 0) }

// ReadFileMax is ReadFile within max bytes.
func (OSFS) ReadFileMax(path string, max int64) ([]byte, error) { return ReadConfigFile(path, max) }

// Glob expands a pattern on disk. Like glob(3), and unlike filepath.Glob,
// a wildcard does not match a leading "." in any segment of a path.
func (OSFS) Glob(pattern string) ([]string, error) {
	m, err := filepath.Glob(pattern)
	if err != nil {
		return nil, err
	}
	return dropHidden(pattern, m), nil
}

func dropHidden(pattern string, matches []string) []string {
	pat := strings.Split(filepath.ToSlash(pattern), "/")
	out := matches[:0]
next:
	for _, p := range matches {
		segs := strings.Split(filepath.ToSlash(p), "/")
		if len(segs) == len(pat) {
			// glob(3) without GLOB_PERIOD: a wildcard matches no leading
			// "." in any segment (conf.d/*/x.conf skips conf.d/.old/).
			for i, s := range segs {
				if strings.HasPrefix(s, ".") && !strings.HasPrefix(pat[i], ".") {
					continue next
				}
			}
		}
		out = append(out, p)
	}
	return out
}

// Overlay is a FileSystem whose Files (keyed by clean absolute path) hide
// the files of Base. A nil Base means the overlay is all there is, as for an
// "nginx -T" dump.
type Overlay struct {
	Base  FileSystem
	Files map[string][]byte
}

// ReadFile returns the overlay's copy of path, or Base's.
func (o *Overlay) ReadFile(path string) ([]byte, error) {
	if b, ok := o.Files[filepath.Clean(path)]; ok {
		return b, nil
	}
	if o.Base == nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: fs.ErrNotExist}
	}
	return o.Base.ReadFile(path)
}

// ReadFileMax is ReadFile with Base's reads bounded by max; an overlay
// file is already in memory and comes back whole (the loader checks it).
func (o *Overlay) ReadFileMax(path string, max int64) ([]byte, error) {
	if _, ok := o.Files[filepath.Clean(path)]; ok || o.Base == nil {
		return o.ReadFile(path)
	}
	return readFileMax(o.Base, path, max)
}

// Glob merges the overlay's matching paths with Base's.
func (o *Overlay) Glob(pattern string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	if o.Base != nil {
		m, err := o.Base.Glob(pattern)
		if err != nil {
			return nil, err
		}
		for _, p := range m {
			seen[p] = true
			out = append(out, p)
		}
	}
	for p := range o.Files {
		if ok, _ := filepath.Match(pattern, p); ok && !seen[p] {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return dropHidden(pattern, out), nil
}

// Config is a main configuration with every file it includes.
type Config struct {
	// Prefix is the directory relative include paths resolve against.
	Prefix string
	// Main is the file the load started from.
	Main *File
	// Files lists every parsed file once, Main first, then in the order
	// they were first included.
	Files []*File
	// Diagnostics are the loader's findings: missing includes and cycles.
	// Syntax errors live in each File.
	Diagnostics []*Diagnostic
	// Context names the blocks a fragment was loaded inside (for example
	// ["http", "server"]); empty for a main configuration.
	Context []string
	// Elsewhere are the included files that only the deployment host has
	// (the file system said ErrElsewhere): no finding, but the
	// configuration is incomplete.
	Elsewhere []string

	// included maps each resolved include directive to its files. It lives
	// here, not on the directive, because a cached file is shared between
	// loads whose includes may resolve differently.
	included map[*Directive][]*File
}

// Included returns the files an include directive pulled in, in order
// (nil for a missing file, a glob matching nothing, or a cycle).
func (c *Config) Included(d *Directive) []*File { return c.included[d] }

// FilePath returns the file a path argument (ssl_certificate,
// auth_basic_user_file, ...) names as nginx opens it at startup: an
// absolute path as it is, a relative one under the conf prefix
// (ngx_conf_full_name). ok is false for an argument that names no file
// here: one with variables (read per request), or a data: or engine:
// value.
func (c *Config) FilePath(arg string) (path string, ok bool) {
	if arg == "" || strings.Contains(arg, "$") || strings.HasPrefix(arg, "data:") || strings.HasPrefix(arg, "engine:") {
		return "", false
	}
	if filepath.IsAbs(arg) {
		return arg, true
	}
	prefix := c.Prefix
	if prefix == "" && c.Main != nil {
		prefix = filepath.Dir(c.Main.Path)
	}
	return filepath.Join(prefix, arg), true
}

// RealPath resolves the symlinks in p (p itself when that fails), so that
// sites-enabled/x and the sites-available/x it points at compare equal.
func RealPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// AllDiagnostics returns the syntax errors of every file and the loader's
// findings, ordered by file and position.
func (c *Config) AllDiagnostics() []*Diagnostic {
	var out []*Diagnostic
	for _, f := range c.Files {
		out = append(out, f.Diagnostics...)
	}
	out = append(out, c.Diagnostics...)
	sortDiagnostics(out)
	return out
}

// Loader parses a main file and the files it includes. A Loader keeps
// every parsed file keyed by path and content, so reloading after one
// buffer changed re-parses only that file.
type Loader struct {
	// FS is where files are read; nil means the disk.
	FS FileSystem
	// Prefix is nginx's configuration prefix; relative include paths
	// resolve against it. Empty means the main file's directory, as nginx
	// does when started with -c.
	Prefix string
	// Kinds enables the parser checks that need directive knowledge.
	Kinds DirectiveKinds
	// NoIncludes leaves include directives unresolved (crossplane's
	// --single-file): only the main file is read.
	NoIncludes bool
	// Faithful keeps the trees of files with syntax errors as nginx's
	// reading leaves them, without recovery (Options.Faithful).
	Faithful bool
	// MaxFileSize bounds each file read; zero means DefaultMaxFileSize,
	// negative no limit. A file over it is a file-too-large finding.
	MaxFileSize int64
	// Budget, when set, bounds the bytes read by all the loaders that
	// share it (one run of the command line); nil is no limit.
	Budget *ReadBudget
	// MaxIncludeCopies bounds the directives that files included more
	// than once add to a configuration, when it is more than four times
	// the files' own directives (see DefaultMaxIncludeCopies); zero means
	// the default, negative no bound.
	MaxIncludeCopies int
	// MayInclude, when set, says whether an include in the file from may
	// read target. A refused include is an unreadable-file warning at the
	// include, never read (the language server keeps includes of files
	// outside the workspace from reaching further out).
	MayInclude func(from, target string) bool

	// Cache keeps the parsed files, by path, between loads; loaders that
	// share one parse each text once between them (nil: the loader makes
	// its own on first use).
	Cache *ParseCache
}

// ParseCache keeps the newest tree of each file, by path, with the text
// and context it was parsed from. It is safe for concurrent use: the
// language server's lints and its editor features share one, so a text
// one of them parsed costs the other nothing.
type ParseCache struct {
	mu    sync.Mutex
	files map[string]cachedFile
	seed  maphash.Seed
}

type cachedFile struct {
	sum       uint64
	ancestors string
	faithful  bool
	file      *File
}

// Load parses the file at path and everything it includes. The error is
// non-nil only when the main file cannot be read.
func (l *Loader) Load(path string) (*Config, error) {
	return l.LoadContext(path, nil)
}

// LoadContext is Load for a fragment: the file is parsed as if included
// inside the blocks named by context (outermost first).
func (l *Loader) LoadContext(path string, context []string) (*Config, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	src, err := l.ReadFile(abs)
	if err != nil {
		return nil, err
	}
	return l.LoadSource(abs, src, context), nil
}

// ReadFile reads path through the loader's file system within its limits:
// a path that is not a regular file, or is over MaxFileSize, or would pass
// the Budget, is an error (see ReadErrorFinding) and nothing of it is kept.
func (l *Loader) ReadFile(path string) ([]byte, error) {
	max := l.maxFileSize()
	src, err := readFileMax(l.fs(), path, max)
	if err != nil {
		return nil, err
	}
	return src, l.admit(path, src)
}

// ReadStream reads a main file from r (standard input) within the
// loader's limits; name identifies it in errors.
func (l *Loader) ReadStream(name string, r io.Reader) ([]byte, error) {
	src, err := ReadStream(name, r, l.maxFileSize())
	if err != nil {
		return nil, err
	}
	return src, l.admit(name, src)
}

// admit checks src, read from path, against the limits.
func (l *Loader) admit(path string, src []byte) error {
	if max := l.maxFileSize(); int64(len(src)) > max {
		// Only a file system that cannot bound its reads gets here.
		return &TooLargeError{Path: path, Size: int64(len(src)), Limit: max}
	}
	return l.Budget.Charge(path, int64(len(src)))
}

func (l *Loader) maxFileSize() int64 {
	switch {
	case l.MaxFileSize == 0:
		return DefaultMaxFileSize
	case l.MaxFileSize < 0:
		return MaxSourceSize
	}
	return min(l.MaxFileSize, MaxSourceSize)
}

// LoadSource is Load for a main file whose text is already in hand (an
// editor buffer, standard input). The tree keeps src as the file's text:
// the caller must not write to it afterwards.
func (l *Loader) LoadSource(path string, src []byte, context []string) *Config {
	prefix := l.Prefix
	if prefix == "" {
		prefix = filepath.Dir(path)
	}
	c := &Config{Prefix: prefix, Context: context, included: map[*Directive][]*File{}}
	ld := &load{l: l, c: c, seen: map[string]*File{}, open: map[string]bool{}, height: map[*File]int{}}
	c.Main = ld.parse(path, src, context)
	if !l.NoIncludes {
		// The walk's stack of block names starts in a buffer of its own
		// (walk appends to it), never in the caller's.
		stack := make([]string, len(context), len(context)+8)
		copy(stack, context)
		ld.expand(c.Main, stack)
		ld.bound()
	}
	return c
}

func (l *Loader) maxIncludeCopies() int {
	switch {
	case l.MaxIncludeCopies == 0:
		return DefaultMaxIncludeCopies
	case l.MaxIncludeCopies < 0:
		return math.MaxInt / 4
	}
	return l.MaxIncludeCopies
}

func (l *Loader) fs() FileSystem {
	if l.FS == nil {
		return OSFS{}
	}
	return l.FS
}

// Parse returns the tree of one file parsed inside the blocks named by
// context, from the loader's cache when path, text and context are
// unchanged. As with LoadSource, the tree keeps src. A Load of the same text and context reuses it, so inspecting a
// file before loading it costs nothing extra.
func (l *Loader) Parse(path string, src []byte, context []string) *File {
	return l.parseCached(path, src, context)
}

// parseCached returns the cached tree for path when its text and context
// are unchanged, else parses it.
func (l *Loader) parseCached(path string, src []byte, context []string) *File {
	if l.Cache == nil {
		l.Cache = &ParseCache{}
	}
	return l.Cache.parse(path, src, &Options{Kinds: l.Kinds, Ancestors: context, Faithful: l.Faithful})
}

func (c *ParseCache) parse(path string, src []byte, opts *Options) *File {
	c.mu.Lock()
	if c.files == nil {
		c.files = map[string]cachedFile{}
		c.seed = maphash.MakeSeed()
	}
	seed := c.seed
	c.mu.Unlock()
	sum := maphash.Bytes(seed, src)
	ctx := strings.Join(opts.Ancestors, "/")
	c.mu.Lock()
	e, ok := c.files[path]
	if ok && e.sum == sum && e.ancestors == ctx && e.faithful == opts.Faithful && len(e.file.Src) == len(src) {
		c.mu.Unlock()
		return e.file
	}
	// The stale tree goes before the new one is built: a fragment is
	// parsed once to infer its context and again inside it, and a large
	// one would otherwise hold two trees at once.
	delete(c.files, path)
	c.mu.Unlock()
	// The text is shared with src, not copied (see FileSystem and
	// LoadSource): the file's tree is the cache's to keep.
	text := unsafe.String(unsafe.SliceData(src), len(src))
	var f *File
	if ok && e.ancestors == ctx && e.faithful == opts.Faithful {
		// An edit of the text parsed before: read again what it changed.
		f = Reparse(e.file, text, opts)
	}
	if f == nil {
		f = ParseString(path, text, opts)
	}
	c.mu.Lock()
	c.files[path] = cachedFile{sum: sum, ancestors: ctx, faithful: opts.Faithful, file: f}
	c.mu.Unlock()
	return f
}

// MaxIncludeDepth is the deepest nesting of includes the loader follows.
// nginx keeps every file it is reading open while it reads the files that
// one includes (ngx_conf_parse through ngx_conf_include), so under the
// usual limit of 1024 open files it fails with "Too many open files" a
// little past 1000 levels (a plain include is then an error, a glob
// silently matches nothing); with a higher limit its stack overflows
// past about ten thousand.
const MaxIncludeDepth = 1000

// DefaultMaxIncludeCopies is how many directives the files included more
// than once may add to a configuration, beyond every file's own directives
// counted once, or four times those, whichever is more
// (Loader.MaxIncludeCopies). nginx reads a file again each time an include
// names it, so ten files that each include the ten files of the next
// level down, eight levels deep, make nginx read the last level a hundred
// million times: it runs for hours, and every pass over the configuration
// as nginx reads it would too. Real configurations repeat snippets (a
// proxy or TLS block included in every server) by far less: 20,000
// servers that each include 50 lines add a million.
const DefaultMaxIncludeCopies = 1 << 20

// load is the state of one Load call.
type load struct {
	l    *Loader
	c    *Config
	seen map[string]*File // parsed in this load, by path
	open map[string]bool  // files being expanded: an include of one is a cycle
	// depth is the number of files being expanded (the main file is 1),
	// the files nginx would hold open.
	depth int
	// height is, for each file whose expansion is done, the deepest
	// nesting of files it reads (itself 1): an include of it from depth d
	// nests to d+height.
	height map[*File]int
	// done lists the expanded files in the order their expansion ended,
	// each after every file it includes (the links never form a cycle),
	// with their include directives.
	done []expanded
}

// expanded is a file whose includes were resolved.
type expanded struct {
	f        *File
	includes []*Directive
}

func (ld *load) parse(path string, src []byte, context []string) *File {
	f := ld.l.parseCached(path, src, context)
	// A cached tree may carry include links from an earlier load; they are
	// rebuilt below.
	ld.seen[path] = f
	ld.c.Files = append(ld.c.Files, f)
	return f
}

// expand resolves the include directives of f, depth first, so Files ends up
// in the order nginx reads them.
func (ld *load) expand(f *File, context []string) {
	ld.open[f.Path] = true
	ld.depth++
	var includes []*Directive
	ld.walk(f.Directives, context, &includes)
	h := 1
	for _, d := range includes {
		for _, g := range ld.c.included[d] {
			h = max(h, 1+ld.height[g])
		}
	}
	ld.height[f] = h
	ld.depth--
	delete(ld.open, f.Path)
	ld.done = append(ld.done, expanded{f: f, includes: includes})
}

func (ld *load) walk(dirs []*Directive, context []string, includes *[]*Directive) {
	for _, d := range dirs {
		if d.Block != nil {
			// One stack of block names for the whole walk: a block's walk
			// ends before its sibling's appends over its name, and nothing
			// keeps the slice (a file included here is parsed with it and
			// cached under its joined names). A copy per block was 20,000
			// allocations for 20,000 servers, at every lint.
			ld.walk(d.Block.Directives, append(context, d.Name().Value), includes)
			continue
		}
		if d.Name().Value != "include" || len(d.Args()) != 1 || d.Unterminated() {
			continue
		}
		*includes = append(*includes, d)
		ld.include(d, context)
	}
}

func (ld *load) include(d *Directive, context []string) {
	arg := d.Args()[0]
	name := arg.Value
	if !filepath.IsAbs(name) {
		name = filepath.Join(ld.c.Prefix, name)
	}
	var paths []string
	if strings.ContainsAny(name, "*?[") {
		m, err := ld.l.fs().Glob(name)
		if err != nil {
			ld.report(d, arg.Range, CodeIncludeNotFound, NameIncludeNotFound, fmt.Sprintf("invalid include pattern %q: %v", arg.Value, err))
			return
		}
		paths = m // nginx accepts a pattern that matches nothing
	} else {
		paths = []string{filepath.Clean(name)}
	}
	for _, p := range paths {
		if ld.open[p] {
			ld.report(d, arg.Range, CodeIncludeCycle, NameIncludeCycle, fmt.Sprintf("%q includes itself through %q; nginx would recurse until it fails", p, arg.Value))
			continue
		}
		if f, ok := ld.seen[p]; ok {
			if ld.depth+ld.height[f] > MaxIncludeDepth {
				ld.tooDeep(d, p)
				return
			}
			ld.c.included[d] = append(ld.c.included[d], f)
			continue
		}
		if ld.depth >= MaxIncludeDepth {
			ld.tooDeep(d, p)
			return
		}
		if ld.l.MayInclude != nil && !ld.l.MayInclude(d.File.Path, p) {
			ld.c.Diagnostics = append(ld.c.Diagnostics, &Diagnostic{File: d.File, Path: d.File.Path, Range: arg.Range,
				Severity: Warning, Code: CodeUnreadable, Name: NameUnreadable,
				Message: fmt.Sprintf("included file %q is not read: it and the file that includes it are outside the workspace", p)})
			continue
		}
		src, err := ld.l.ReadFile(p)
		if errors.Is(err, ErrElsewhere) {
			ld.c.Elsewhere = append(ld.c.Elsewhere, p)
			continue
		}
		if err != nil {
			code, name, why := ReadErrorFinding(err, true)
			msg := fmt.Sprintf("cannot open included file %q: %s", p, why)
			if code != CodeIncludeNotFound {
				msg = fmt.Sprintf("included file %q is %s", p, why)
				if code != CodeNotRegular {
					msg = fmt.Sprintf("included file %q: %s", p, why)
				}
			}
			ld.report(d, arg.Range, code, name, msg)
			continue
		}
		f := ld.parse(p, src, context)
		ld.c.included[d] = append(ld.c.included[d], f)
		ld.expand(f, context)
	}
}

// tooDeep reports the include d in a file nested so deep that nginx could
// not open p (or what p includes).
func (ld *load) tooDeep(d *Directive, p string) {
	ld.report(d, d.Args()[0].Range, CodeIncludeLimit, NameIncludeLimit, fmt.Sprintf(
		"includes nest more than %d files deep through %q: nginx keeps each including file open and, under the usual limit of 1024 open files, "+
			"fails here with \"Too many open files\" (a glob include matches nothing instead); not followed", MaxIncludeDepth, p))
}

// bound cuts the include links that would make the configuration, as
// nginx reads it, larger than every file's own directives plus
// MaxIncludeCopies, each at the include where the total passes the bound.
// The files stay parsed and checked on their own; only the repeats go.
// Files are taken after every file they include, so a file's size as
// nginx reads it is known before any include of it is weighed: one pass
// over the include links, however many times nginx would read each file.
func (ld *load) bound() {
	own := 0
	for _, f := range ld.c.Files {
		own += f.DirectiveCount
	}
	limit := own + max(ld.l.maxIncludeCopies(), 4*own)
	size := make(map[*File]int, len(ld.done))
	for _, e := range ld.done {
		n := e.f.DirectiveCount
		for _, d := range e.includes {
			files := ld.c.included[d]
			for i, g := range files {
				if n+size[g] > limit {
					ld.report(d, d.Args()[0].Range, CodeIncludeLimit, NameIncludeLimit, fmt.Sprintf(
						"%q, %d directives with what it includes, would take the configuration past %d directives as nginx reads it "+
							"(nginx reads an included file again each time an include names it); not followed", g.Path, size[g], limit))
					ld.c.included[d] = files[:i:i]
					break
				}
				n += size[g]
			}
		}
		size[e.f] = n
	}
}

func (ld *load) report(d *Directive, r Range, code, name, msg string) {
	ld.c.Diagnostics = append(ld.c.Diagnostics, &Diagnostic{
		File: d.File, Path: d.File.Path, Range: r, Severity: Error, Code: code, Name: name, Message: msg,
	})
}
