package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/buildinfo"
	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
)

// This file is the analysis of a document: which settings apply, where
// the server may look (the workspace bounds), and the same lint pipeline
// as the command line (analyzer/lint: settings, include-paths, target
// build, suppression, dedupe).

func allRules() *analyzer.Registry { return rules.All() }

// initOptions are the client's initializationOptions. They are the
// editor's settings and win over the settings file, as the command
// line's flags do:
//
//	{"nginx-build": "/path/nginx-V.txt",      // or nginxBuild
//	 "rules": {"version-disclosure": "off"},  // as in .nginx-lint.yaml
//	 "custom-directives": ["vts_status"]}     // or customDirectives
//
// Other keys are ignored (clients send their own).
type initOptions struct {
	settings   *config.File
	nginxBuild string
}

func parseInitOptions(v any) (initOptions, error) {
	var out initOptions
	m, ok := v.(map[string]any)
	if !ok {
		return out, nil
	}
	sub := map[string]any{}
	for k, val := range m {
		switch k {
		case "rules":
			sub["rules"] = val
		case "custom-directives", "customDirectives":
			sub["custom-directives"] = val
		case "nginx-build", "nginxBuild":
			p, ok := val.(string)
			if !ok {
				return out, fmt.Errorf("%s: want a path to saved \"nginx -V\" output", k)
			}
			if p != "" {
				abs, err := filepath.Abs(p)
				if err != nil {
					return out, err
				}
				out.nginxBuild = abs
			}
		}
	}
	if len(sub) > 0 {
		b, err := json.Marshal(sub)
		if err != nil {
			return out, err
		}
		f, err := config.Parse("initializationOptions", b)
		if err != nil {
			return out, err
		}
		out.settings = f
	}
	return out, nil
}

// settingsCache holds the parsed settings files and nginx builds, each
// read again only when its size or time changes.
type settingsCache struct {
	mu      sync.Mutex
	entries map[string]*settingsEntry
	// reported keeps the problems already logged, so a broken settings
	// file is said once, not at every keystroke.
	reported map[string]bool
}

type settingsEntry struct {
	size  int64
	mtime time.Time
	cfg   *config.File
	build *buildinfo.Info
	err   error
}

// get returns the cache entry for path, refreshed with read when the
// file changed.
func (c *settingsCache) get(path string, read func(*settingsEntry)) *settingsEntry {
	st, err := os.Stat(path)
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[path]
	if err == nil && e != nil && e.size == st.Size() && e.mtime.Equal(st.ModTime()) {
		return e
	}
	e = &settingsEntry{}
	if err != nil {
		e.err = err
		return e
	}
	e.size, e.mtime = st.Size(), st.ModTime()
	read(e)
	c.entries[path] = e
	return e
}

func (c *settingsCache) config(path string) (*config.File, error) {
	e := c.get(path, func(e *settingsEntry) {
		if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
			e.err = fmt.Errorf("%s: not a regular file", path)
			return
		}
		e.cfg, e.err = config.Load(path)
	})
	return e.cfg, e.err
}

func (c *settingsCache) build(fsys parser.FileSystem, path string) (*buildinfo.Info, error) {
	e := c.get(path, func(e *settingsEntry) { e.build, e.err = lint.ReadBuild(fsys, path) })
	return e.build, e.err
}

// once reports whether msg is new.
func (c *settingsCache) once(msg string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.reported == nil {
		c.reported = map[string]bool{}
	}
	if c.reported[msg] {
		return false
	}
	c.reported[msg] = true
	return true
}

// boundLocked returns the directory above which the server looks for
// nothing on path's behalf (no including nginx.conf, no settings file):
// the innermost workspace folder holding path; for a file outside every
// folder, its repository's root (the nearest directory with a .git), else
// its own directory. A file outside the bound is read only when an
// include names it.
func (s *Server) boundLocked(path string) string {
	best := ""
	for _, r := range s.roots {
		if within(path, r) && len(r) > len(best) {
			best = r
		}
	}
	if best != "" {
		return best
	}
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

// within reports whether path is dir or under it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !filepath.IsAbs(rel) && (len(rel) < 3 || rel[:3] != ".."+string(filepath.Separator))
}

// isRepoRoot reports whether dir holds a .git (a directory, or a file as
// in worktrees and submodules).
func isRepoRoot(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}

// stopAt returns the search stop for a bound: the bound itself, or a
// repository root met before it.
func stopAt(bound string) func(string) bool {
	return func(dir string) bool { return dir == bound || !within(dir, bound) || isRepoRoot(dir) }
}

// lintSetup is how one document is analysed: the same settings, file system
// and options the command line would use for it.
type lintSetup struct {
	cfg      *config.File
	opts     analyzer.Options
	fs       parser.FileSystem
	prefix   string
	costOpts costmodel.Options
}

func (s *Server) setupFor(snap *snapshot) lintSetup {
	var st lintSetup
	if found, err := config.FindWithin(filepath.Dir(snap.path), stopAt(snap.bound)); err == nil && found != "" {
		cfg, err := s.settings.config(found)
		if err != nil {
			// The command line refuses to run; the editor goes on with
			// the defaults and says why once.
			s.problem(fmt.Sprintf("settings file ignored: %v", err))
		} else {
			st.cfg = cfg
		}
	}
	opts, err := lint.SettingsOptions(s.reg, st.cfg)
	if err != nil {
		s.problem(fmt.Sprintf("settings file ignored: %v", err))
		st.cfg = nil
		opts, _ = lint.SettingsOptions(s.reg, nil)
	}
	if snap.init.settings != nil {
		if err := snap.init.settings.Apply(&opts, s.reg.Lookup); err != nil {
			s.problem(fmt.Sprintf("initializationOptions: %v", err))
		}
	}
	buildPath := snap.init.nginxBuild
	if buildPath == "" && st.cfg != nil {
		buildPath = st.cfg.NginxBuild
	}
	if buildPath != "" {
		build, err := s.settings.build(s.base(), buildPath)
		if err != nil {
			s.problem(fmt.Sprintf("nginx-build %s ignored: %v", buildPath, err))
		}
		lint.TargetBuild(&opts, build)
	}
	overlay := &parser.Overlay{Base: s.base(), Files: snap.files}
	st.fs = lint.FileSystem(overlay, st.cfg)
	opts.ReadFile = st.fs.ReadFile
	if st.cfg != nil {
		st.prefix = st.cfg.Prefix
	}
	st.opts = opts
	st.costOpts = opts.Cost
	return st
}

// problem logs a problem with the user's settings once.
func (s *Server) problem(msg string) {
	if !s.settings.once(msg) {
		return
	}
	s.logf("%s", msg)
	s.mu.Lock()
	n := s.notify
	s.mu.Unlock()
	if n != nil {
		n("window/logMessage", map[string]any{"type": 2, "message": msg})
	}
}

// tooLarge is the finding for a document over MaxDocumentSize.
func tooLarge(snap *snapshot) *view {
	d := &parser.Diagnostic{Path: snap.path, Severity: parser.Error, Code: parser.CodeUnreadable, Name: parser.NameUnreadable,
		Message: fmt.Sprintf("document is too large to analyse (%d bytes; the limit is %d)", len(snap.text), MaxDocumentSize),
		Detail:  "nginx-lint analyses documents up to 16 MiB in the editor; lint larger files with the command line"}
	return &view{gen: snap.gen, uri: snap.uri, path: snap.path, version: snap.version, text: snap.text,
		diags: []*parser.Diagnostic{d}, linted: true}
}

// lint runs the same core as the command line on the document: a main
// configuration with its includes, or a fragment in the context its
// top-level directives suggest; a file that a nearby nginx.conf includes
// is checked through that configuration, where nginx reads it.
func (s *Server) lint(snap *snapshot) (v *view) {
	if snap.src == nil {
		return tooLarge(snap)
	}
	// A crash here must not take the server down (it runs on a goroutine
	// of its own): the document gets an internal-error finding instead.
	defer func() {
		if r := recover(); r != nil {
			s.logf("lint of %s panicked: %v", snap.path, r)
			v = &view{gen: snap.gen, uri: snap.uri, path: snap.path, version: snap.version, text: snap.text, linted: true,
				diags: []*parser.Diagnostic{{Path: snap.path, Severity: parser.Error, Code: "NL1000", Name: "internal-error",
					Message: fmt.Sprintf("nginx-lint failed on this document: %v", r)}}}
		}
	}()
	st := s.setupFor(snap)
	s.lintMu.Lock()
	defer s.lintMu.Unlock()
	l := s.lintLoader
	l.FS, l.Prefix = st.fs, st.prefix
	// Outside the workspace, a file is read only when a file inside it
	// includes it: what an outside file includes is not followed.
	bound := snap.bound
	l.MayInclude = func(from, target string) bool { return within(from, bound) || within(target, bound) }
	if files, ok := parser.SplitDump(snap.src); ok {
		// nginx -T output, as the command line reads it: its files
		// include each other, never the disk. Every finding is in this
		// document; publish maps it to the dump's lines.
		l.MayInclude = nil
		c := l.LoadDump(snap.path, files)
		v = &view{gen: snap.gen, uri: snap.uri, path: snap.path, version: snap.version, text: snap.text, linted: true,
			dumpLines: map[*parser.File]int{}}
		for _, f := range c.Files {
			for _, df := range files {
				if df.Path == f.Path {
					v.dumpLines[f] = df.Line
				}
			}
		}
		v.diags = lint.Run(c, s.reg, st.opts)
		return v
	}
	c := analyzer.LoadInferred(l, snap.path, snap.src)
	lint.LocalizePaths(c, st.cfg)
	v = &view{gen: snap.gen, uri: snap.uri, path: snap.path, version: snap.version, text: snap.text,
		config: c, file: c.Main, costOpts: st.costOpts, linted: true}
	// Editor features (hover, completion) keep the file's own tree.
	lintC, mine := c, c.Main
	if root, f := rootOf(l, snap, st.cfg); root != nil {
		lintC, mine = root, f
	}
	for _, diag := range lint.Run(lintC, s.reg, st.opts) {
		if diag.File == mine || diag.File == nil && diag.FilePath() == mine.Path {
			v.diags = append(v.diags, diag)
		}
	}
	return v
}

// load parses the document for editor features, without linting it.
func (s *Server) load(snap *snapshot) *view {
	st := s.setupFor(snap)
	s.viewMu.Lock()
	defer s.viewMu.Unlock()
	l := s.viewLoader
	l.FS, l.Prefix = st.fs, st.prefix
	c := analyzer.LoadInferred(l, snap.path, snap.src)
	lint.LocalizePaths(c, st.cfg)
	return &view{gen: snap.gen, uri: snap.uri, path: snap.path, version: snap.version, text: snap.text,
		config: c, file: c.Main, costOpts: st.costOpts}
}

// rootOf finds the main configuration that includes the document: an
// nginx.conf in its directory or up to three directories above, never
// above the document's bound (workspace or repository root), whose
// includes (read through the overlay, unsaved buffers included) reach it,
// a symlink (sites-enabled) counting as the file it points at. It returns
// that configuration and the document's file in it, or nil.
func rootOf(l *parser.Loader, snap *snapshot, cfg *config.File) (*parser.Config, *parser.File) {
	path := snap.path
	want := parser.RealPath(path)
	stop := stopAt(snap.bound)
	dir := filepath.Dir(path)
	for range 4 {
		if !within(dir, snap.bound) {
			break
		}
		cand := filepath.Join(dir, "nginx.conf")
		if cand != path {
			// Load fails at once where there is no nginx.conf.
			if c, err := l.Load(cand); err == nil {
				lint.LocalizePaths(c, cfg)
				for _, f := range c.Files[1:] {
					if f.Path == path || parser.RealPath(f.Path) == want {
						return c, f
					}
				}
			}
		}
		if stop(dir) {
			break
		}
		dir = filepath.Dir(dir)
	}
	return nil, nil
}

// costModel returns the startup cost model of the view's configuration,
// computed on first use with the options the settings give the cost rules
// (nonroot, nofile, cpus, kernel).
func (v *view) costModel() *costmodel.Result {
	v.costOnce.Do(func() {
		if v.config != nil {
			v.cost = costmodel.Compute(parser.BuildModel(v.config), v.costOpts)
		}
	})
	return v.cost
}
