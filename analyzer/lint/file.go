package lint

import (
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
	// Entry is the configuration analysed: the nginx.conf that includes
	// the file, where nginx reads it, or else the file itself. EntryFile
	// is the file in Entry's tree.
	Entry     *Entry
	EntryFile *parser.File
}

// LintFile lints the file at path (absolute; its text from Overlay when it
// is there) as the command line's Lint lints it in its place: a main
// configuration with its includes, or a fragment in the context its
// top-level directives suggest, with the conf prefix and absolute include
// mapping of its deployment; a file that an nginx.conf includes (in its
// directory or up to three above, never above Bound, or at a stock prefix
// of the checkout it mirrors: see placer.place) is linted through that
// configuration, and the findings in the file are kept.
func (w *Workspace) LintFile(path string) (*FileReport, error) {
	return w.file(path, true)
}

// LoadFile is LintFile without running the rules: the tree and the
// configuration for editor features while a lint is under way.
func (w *Workspace) LoadFile(path string) (*FileReport, error) {
	return w.file(path, false)
}

func (w *Workspace) file(path string, lint bool) (*FileReport, error) {
	t := Target{Path: path}
	cfg, err := w.SettingsFor(path)
	if err != nil {
		return nil, err
	}
	opts, err := w.Options(cfg)
	if err != nil {
		return nil, err
	}
	pl := w.newPlacer(nil)
	l, name, src, maps, err := w.readEntry(t, cfg, &opts, nil, pl)
	if err != nil {
		return nil, err
	}
	rep := &FileReport{}
	if files, ok := parser.SplitDump(src); ok {
		l.MayInclude, l.Elsewhere = nil, nil
		c := l.LoadDump(name, files)
		rep.DumpLines = map[*parser.File]int{}
		for _, f := range c.Files {
			for _, df := range files {
				if df.Path == f.Path {
					rep.DumpLines[f] = df.Line
				}
			}
		}
		rep.Entry = &Entry{Target: t, Config: c, Settings: cfg, Options: opts}
		if lint {
			rep.Findings, rep.Entry.results = RunResults(c, w.registry(), opts)
			rep.Entry.Findings = rep.Findings
		}
		return rep, nil
	}
	c := w.loadSource(l, name, src, maps)
	rep.Config, rep.File = c, c.Main
	rep.Entry, rep.EntryFile = &Entry{Target: t, Config: c, Settings: cfg, Options: opts}, c.Main
	if !lint {
		return rep, nil
	}
	if root, f, _ := pl.place(name, cfg); root != nil {
		opts.ReadFile = root.fs.ReadFile
		rep.Entry = &Entry{Target: Target{Path: root.c.Main.Path}, Config: root.c, Settings: cfg, Options: opts}
		rep.EntryFile = f
	}
	e := rep.Entry
	e.Findings, e.results = RunResults(e.Config, w.registry(), opts)
	mine := rep.EntryFile
	for _, d := range e.Findings {
		if d.File == mine || d.File == nil && d.FilePath() == mine.Path {
			rep.Findings = append(rep.Findings, d)
		}
	}
	return rep, nil
}
