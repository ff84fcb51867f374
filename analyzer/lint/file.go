package lint

import (
	"path/filepath"

	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"github.com/nginx-lint/nginx-lint/parser"
)

// FileReport is the analysis of one file open in an editor.
type FileReport struct {
	// Config is the file's own tree with its includes (for editor
	// features: hover, completion, symbols); File is the file in it. Both
	// are nil for nginx -T output.
	Config *parser.Config
	File   *parser.File
	// Findings are those in this file (LintFile only).
	Findings []*parser.Diagnostic
	// DumpLines, for nginx -T output, is the line of the document where
	// each dumped file starts; every finding is in the document.
	DumpLines map[*parser.File]int
	// Unit is the configuration analysed: the nginx.conf that includes
	// the file, where nginx reads it, or else the file itself. UnitFile
	// is the file in Unit's tree.
	Unit     *Unit
	UnitFile *parser.File
}

// LintFile lints the file at path (absolute; its text from Overlay when it
// is there) as the command line would lint it in its place: a main
// configuration with its includes, or a fragment in the context its
// top-level directives suggest; a file that a nearby nginx.conf includes
// (in its directory or up to three above, never above Bound) is linted
// through that configuration, and the findings in the file are kept.
func (w *Workspace) LintFile(path string) (*FileReport, error) {
	return w.file(path, true)
}

// LoadFile is LintFile without running the rules: the tree and the
// configuration for editor features while a lint is under way (Unit is
// the nginx.conf that includes the file, as for LintFile).
func (w *Workspace) LoadFile(path string) (*FileReport, error) {
	return w.file(path, false)
}

func (w *Workspace) file(path string, lint bool) (*FileReport, error) {
	t := Target{Path: path}
	w.namedPrefix(&t)
	cfg, err := w.SettingsFor(path)
	if err != nil {
		return nil, err
	}
	opts, err := w.Options(cfg)
	if err != nil {
		return nil, err
	}
	l, name, src, err := w.readEntry(w.Loader, t, cfg, &opts, nil)
	if err != nil {
		return nil, err
	}
	rep := &FileReport{}
	if files, ok := parser.SplitDump(src); ok {
		l.MayInclude = nil
		c := l.LoadDump(name, files)
		rep.DumpLines = map[*parser.File]int{}
		for _, f := range c.Files {
			for _, df := range files {
				if df.Path == f.Path {
					rep.DumpLines[f] = df.Line
				}
			}
		}
		rep.Unit = &Unit{Target: t, Config: c, Settings: cfg, Options: opts, Tree: w.tree(t, name, cfg)}
		if lint {
			rep.Findings, rep.Unit.results = Run(c, w.registry(), opts)
			rep.Findings = rep.Unit.Tree.Redact(rep.Findings)
			rep.Unit.Findings = rep.Findings
		}
		return rep, nil
	}
	c := w.loadSource(l, name, src, cfg)
	rep.Config, rep.File = c, c.Main
	rep.Unit, rep.UnitFile = &Unit{Target: t, Config: c, Settings: cfg, Options: opts, Tree: w.tree(t, name, cfg)}, c.Main
	if root, f := w.rootOf(l, name, cfg, nil); root != nil && w.Context == "" {
		rep.Unit = &Unit{Target: Target{Path: root.Main.Path}, Config: root, Settings: cfg, Options: opts, Tree: w.tree(t, root.Main.Path, cfg)}
		rep.UnitFile = f
	}
	if !lint {
		return rep, nil
	}
	e := rep.Unit
	e.Findings, e.results = Run(e.Config, w.registry(), opts)
	e.Findings = e.Tree.Redact(e.Findings)
	mine := rep.UnitFile
	for _, d := range e.Findings {
		if d.File == mine || d.File == nil && d.FilePath() == mine.Path {
			rep.Findings = append(rep.Findings, d)
		}
	}
	return rep, nil
}

// rootOf finds the main configuration that includes the file at path: an
// nginx.conf in its directory or up to three directories above, never
// above Bound, whose includes (read through the overlay, unsaved buffers
// included) reach it, a symbolic link (sites-enabled) counting as the file
// it points at. It returns that configuration and the file in it, or nil.
//
// memo, when set, keeps each nginx.conf loaded for one settings file, so
// a thousand fragments named together load the nginx.conf above them
// once.
func (w *Workspace) rootOf(l *parser.Loader, path string, cfg *config.File, memo rootMemo) (*parser.Config, *parser.File) {
	want := parser.RealPath(path)
	var stop func(string) bool
	if w.Bound != "" {
		stop = stopAt(w.Bound)
	}
	dir := filepath.Dir(path)
	for range 4 {
		if w.Bound != "" && !Within(dir, w.Bound) {
			break
		}
		cand := filepath.Join(dir, "nginx.conf")
		if cand != path {
			if r := memo.load(l, cand, cfg); r != nil {
				if f := r.file(path, want); f != nil {
					return r.c, f
				}
			}
		}
		if stop != nil && stop(dir) || dir == filepath.Dir(dir) {
			break
		}
		dir = filepath.Dir(dir)
	}
	return nil, nil
}

// rootMemo keeps the nginx.conf files rootOf loaded during one Load.
type rootMemo map[rootKey]*rootFound

type rootKey struct {
	path, prefix string
	cfg          *config.File
}

// rootFound is an nginx.conf rootOf loaded (c nil: none there) and its
// included files by path and by real path.
type rootFound struct {
	c      *parser.Config
	byPath map[string]*parser.File
	byReal map[string]*parser.File
}

// load loads the nginx.conf at cand, once per memo; nil when there is
// none.
func (m rootMemo) load(l *parser.Loader, cand string, cfg *config.File) *rootFound {
	k := rootKey{cand, l.Prefix, cfg}
	r, ok := m[k]
	if !ok {
		r = &rootFound{}
		// Load fails at once where there is no nginx.conf.
		if c, err := l.Load(cand); err == nil {
			localizePaths(c, cfg)
			r.c = c
		}
		if m != nil {
			m[k] = r
		}
	}
	if r.c == nil {
		return nil
	}
	return r
}

// file returns the file of r at path, or whose real path is real.
func (r *rootFound) file(path, real string) *parser.File {
	if r.byPath == nil {
		r.byPath, r.byReal = map[string]*parser.File{}, map[string]*parser.File{}
		for _, f := range r.c.Files[1:] {
			if _, ok := r.byPath[f.Path]; !ok {
				r.byPath[f.Path] = f
			}
			if rp := parser.RealPath(f.Path); r.byReal[rp] == nil {
				r.byReal[rp] = f
			}
		}
	}
	if f := r.byPath[path]; f != nil {
		return f
	}
	return r.byReal[real]
}
