package lint

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/advisories"
	"github.com/nginx-lint/nginx-lint/analyzer/baseline"
	"github.com/nginx-lint/nginx-lint/analyzer/buildinfo"
	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/costpass"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/internal/didyoumean"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Workspace is the one answer to "what does nginx-lint lint, and how, for
// this file": which settings file applies, how includes map to files on
// this machine, which nginx build the rules target, which rules run with
// which options, and which files are linted through a configuration that
// includes them. The command line (lint, cost, parse) and the language
// server are thin callers of it, so they cannot disagree on a file.
//
// A Workspace is cheap: the language server makes one per lint, with the
// open buffers as Overlay, and keeps what is worth keeping between lints
// in Cache and Loader. The zero value lints with every rule, the disk, and
// the settings file found upward from each file.
type Workspace struct {
	// Registry holds the rules that run (nil: rules.All()). Settings files
	// may name any rule of rules.All() whether it runs or not.
	Registry *analyzer.Registry
	// FS is the disk (nil: parser.OSFS).
	FS parser.FileSystem
	// Overlay replaces files of FS by absolute path: an editor's unsaved
	// buffers, or the text of the earlier rounds of --fix.
	Overlay map[string][]byte
	// Stdin is read for the path "-".
	Stdin io.Reader
	// Loader, when set, does every load, so its parse cache lasts from
	// one lint to the next (the language server re-parses only the file
	// that changed). Its FS, Prefix and limits are set for each load; the
	// caller lets one Workspace at a time use it.
	Loader *parser.Loader
	// Cache keeps settings files and nginx builds, read again only when
	// they change (nil: a cache for this Workspace alone).
	Cache *Cache

	// Settings, when set, applies to every file instead of the settings
	// file found upward from it (--config). NoSettings uses none.
	Settings   *config.File
	NoSettings bool
	// Bound is the directory above which nothing is looked for on the
	// linted file's behalf ("": no bound): no settings file, no nginx.conf
	// that includes it, and only the files an include inside it names
	// (what a file outside includes is not followed). The language server
	// bounds each document by its workspace folder or repository, so
	// someone else's files in /tmp never reach it.
	Bound string
	// Extra settings are applied over the settings file's (an editor's
	// initializationOptions).
	Extra *config.File

	// Build is the nginx to lint for (--nginx-build, --nginx). BuildFile,
	// when Build is nil, names saved "nginx -V" output to read instead
	// (an editor's setting). Either wins over the settings' nginx-build.
	Build     *buildinfo.Info
	BuildFile string
	// Version, when Build and BuildFile name no build, is the nginx
	// version to lint for (--nginx-version), every module possible; it
	// wins over the settings' nginx-build and nginx-version.
	Version string

	// Switches over the settings, as the command line's flags give them.
	Disable []string // rules (names or codes) not to run
	// Only, when not empty, names the rules (names or codes) to run: every
	// other rule is off, whatever the settings say, except the parser's
	// and loader's findings (category syntax, NL1xxx), which stay on so
	// that a file nginx cannot read or parse never looks clean. Disable
	// applies after it.
	Only        []string
	Strict      bool // unknown directives are errors
	CheckFiles  bool // check files and hosts on this machine
	RuleOptions map[string]map[string]any
	// Cost holds nginx-lint cost's host facts, over the settings' host:
	// section (NonRoot when set, and every non-zero field, wins), and its
	// calibration profile (costpass.Profile).
	Cost costmodel.Options
	// Baseline, when set, holds the findings a project has accepted
	// (--baseline): Lint reports only the others.
	Baseline *baseline.Baseline

	// Prefix is nginx's conf prefix (-p; "": the settings' prefix, else
	// the main file's directory, or for a file found in a directory its
	// nearest nginx.conf). Context lints every file as a fragment of that
	// context, never through the nginx.conf that includes it ("": the
	// context inferred from its top-level directives, and a fragment an
	// nginx.conf above includes is linted there).
	Prefix  string
	Context string
	// MaxFileSize bounds each file read (0: the settings' max-file-size,
	// else parser.DefaultMaxFileSize). MaxTotalSize bounds the bytes one
	// Lint or Load reads in all (0: no bound).
	MaxFileSize  int64
	MaxTotalSize int64

	// Warn receives each settings warning once (nil: dropped).
	Warn func(msg string)
	// Tolerate, when set, receives every problem with the user's settings
	// (a settings file that does not parse, an unreadable nginx build) and
	// the lint goes on without them: an editor keeps its diagnostics. When
	// nil such problems are returned as errors: the command line refuses
	// to run on settings it cannot honour.
	Tolerate func(err error)
	// Cancel, when closed, stops the rules of the lint under way
	// (analyzer.Options.Cancel): the language server drops a lint whose
	// document changed or whose session ended.
	Cancel <-chan struct{}
	// Seen, when set, is told each path the lint reads or looks for
	// through its file system (found or not, Overlay's files too) and
	// each include pattern it expands (glob set): the language server
	// lints a file again when one of them changes.
	Seen func(path string, glob bool)
	// Loaded, when set, is called once every target of a Lint is read,
	// before any rule runs, with the bytes read (the command line sizes
	// its garbage collector to the input).
	Loaded func(bytes int64)
}

// UsageError is a mistake in what the user asked for: settings that do
// not parse, an unknown rule, a directory with nothing to lint. The
// command line exits with 3 for it rather than 2 (could not read).
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Target is one configuration to lint: a path given, or a file found in a
// directory given.
type Target struct {
	// Path is as given ("-" for standard input) or as found.
	Path string
	// FromDir marks a file found in a directory: one whose content is
	// binary is skipped with a finding, not linted.
	FromDir bool
	// Prefix is the conf prefix of a file found in a directory: the
	// nearest directory above it (up to the one given) that holds an
	// nginx.conf, else the directory given. A snippet's relative include
	// then resolves as it does when nginx.conf includes it.
	Prefix string
	// Root is the directory given that the file was found in ("" for a
	// file named): writes stay inside it.
	Root string
	// Pipe marks a FIFO named on the command line, such as the /dev/fd/N
	// of a process substitution, nginx-lint <(envsubst < nginx.conf.tpl):
	// it is read as standard input is (once, within the same limits;
	// settings are looked for from the working directory, and Prefix is
	// the working directory). FileTarget sets it.
	Pipe bool
}

// Unit is one unit of linting: a configuration read with everything it
// includes, as nginx -c reads it, and after Lint linted: a target that
// no other target includes, or the nginx.conf that includes a named
// fragment. (analyzer.Entry is something else: one directive in the
// index the rules walk.)
type Unit struct {
	Target   Target
	Config   *parser.Config
	Settings *config.File // nil: none applies
	Options  analyzer.Options
	// Findings are this configuration's, after suppression comments,
	// with no text of a file outside Tree (Tree.Redact).
	Findings []*parser.Diagnostic
	// Tree is where the configuration's text may be quoted from.
	Tree *Tree

	mu      sync.Mutex
	results *analyzer.Results
	// only, when set, are the files whose findings the unit reports:
	// the fragments named alone that this nginx.conf includes.
	only map[string]bool
}

// unitNamed reports whether the main file of e, an nginx.conf reached
// from a fragment, was itself among the units read.
func unitNamed(units []*Unit, e *Unit) bool {
	for _, x := range units {
		if x != e && x.only == nil && x.Config.Main.Path == e.Config.Main.Path {
			return true
		}
	}
	return false
}

// CostModel is the startup cost model of the configuration with its
// options' host facts: the one the cost rules of LintFile or Estimate
// computed, or, when none ran (they are disabled, the unit was only
// loaded, or it was linted by Lint, which keeps no run's results),
// computed now and kept. It is safe to call from several goroutines.
func (e *Unit) CostModel() *costmodel.Result {
	return costpass.Model.Of(e.runResults(), struct{}{})
}

// CostOptions are the cost model's options of the configuration: its
// host facts and profile, for the optimizer's estimates of rewrites.
func (e *Unit) CostOptions() costmodel.Options {
	return costpass.Options(e.Options.Host, costpass.Profile.Of(e.Options))
}

// runResults returns the shared results of the unit's run, or, when no
// run's results were kept, those of a run of no rule, kept.
func (e *Unit) runResults() *analyzer.Results {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.results == nil {
		e.results = analyzer.ResultsFor(e.Config, e.Options)
	}
	return e.results
}

// Symbols is the symbol table of the configuration: the one its lint's
// rules read (symbols.Result of the run), or, when no run's results were
// kept, one built now and kept, as CostModel does. It is safe to call
// from several goroutines.
func (e *Unit) Symbols() *symbols.Table {
	return symbols.Result.Of(e.runResults(), struct{}{})
}

// Unreadable is a target that could not be read.
type Unreadable struct {
	Path string
	Err  error
}

// Report is the outcome of a Lint (or a Load: no findings but the
// unreadable targets').
type Report struct {
	// Findings of every unit, each once (a file included by several
	// units is reported once per place it is read in, not per unit),
	// with a finding per unreadable or skipped target.
	Findings []*parser.Diagnostic
	// Units are the configurations linted, in target order. A target
	// that another includes is linted through that one, in the context
	// nginx reads it in, and is not a unit of its own.
	Units []*Unit
	// Unreadable are the targets that could not be read (binary files
	// found in a directory are skipped, not unreadable).
	Unreadable []Unreadable
	// Read is the number of bytes read.
	Read int64
}

func (w *Workspace) registry() *analyzer.Registry {
	if w.Registry == nil {
		return allRules
	}
	return w.Registry
}

var allRules = rules.All()

func (w *Workspace) fs() parser.FileSystem {
	if w.FS == nil {
		return parser.OSFS{}
	}
	return w.FS
}

// disk is FS with Overlay over it, watched by Seen.
func (w *Workspace) disk() parser.FileSystem {
	d := w.fs()
	if len(w.Overlay) > 0 {
		d = &parser.Overlay{Base: d, Files: w.Overlay}
	}
	if w.Seen != nil {
		d = seenFS{d, w.Seen}
	}
	return d
}

// seenFS tells seen what is read or globbed through fs.
type seenFS struct {
	fs   parser.FileSystem
	seen func(path string, glob bool)
}

func (s seenFS) ReadFile(path string) ([]byte, error) {
	s.seen(path, false)
	return s.fs.ReadFile(path)
}

func (s seenFS) ReadFileMax(path string, max int64) ([]byte, error) {
	s.seen(path, false)
	return parser.ReadFileMax(s.fs, path, max)
}

func (s seenFS) Glob(pattern string) ([]string, error) {
	s.seen(pattern, true)
	return s.fs.Glob(pattern)
}

func (w *Workspace) cache() *Cache {
	if w.Cache == nil {
		w.Cache = &Cache{}
	}
	return w.Cache
}

// problem returns err for the caller, or hands it to Tolerate and returns
// nil.
func (w *Workspace) problem(err error) error {
	if w.Tolerate == nil {
		return err
	}
	w.Tolerate(err)
	return nil
}

// SettingsFor returns the settings file that applies to path: the fixed
// one, or the nearest .nginx-lint.yaml upward from it within Bound; nil
// when none does.
func (w *Workspace) SettingsFor(path string) (*config.File, error) {
	f, err := w.settingsFile(path)
	// A tree that mirrors a conf prefix (etc/nginx/ in a repository) is
	// read where it is checked out, settings or not.
	return withMirror(path, f), err
}

func (w *Workspace) settingsFile(path string) (*config.File, error) {
	if w.NoSettings {
		return nil, nil
	}
	if w.Settings != nil {
		return w.Settings, nil
	}
	start := path
	if path == "-" {
		start = "."
	}
	var stop func(string) bool
	if w.Bound != "" {
		stop = stopAt(w.Bound)
	}
	found, err := config.FindWithin(start, stop)
	if err != nil || found == "" {
		return nil, nil // no settings file is the common case, not an error
	}
	f, err := w.cache().config(found)
	if err != nil {
		if err := w.problem(err); err != nil {
			return nil, err
		}
		return nil, nil
	}
	return f, nil
}

// LoadSettings reads a settings file: an unreadable one is an error, one
// that does not parse a UsageError.
func LoadSettings(path string) (*config.File, error) {
	f, err := config.Load(path)
	var pe *os.PathError
	if errors.As(err, &pe) {
		return nil, fmt.Errorf("settings file %s: %w", path, pe.Err)
	}
	if err != nil {
		return nil, &UsageError{err.Error()}
	}
	return f, nil
}

// Options returns the analyzer options for a file under settings cfg
// (nil: none): the settings, then Extra, the target build and the
// switches, which win.
func (w *Workspace) Options(cfg *config.File) (analyzer.Options, error) {
	opts, err := SettingsOptions(allRules, cfg)
	if err != nil {
		if err := w.problem(&UsageError{err.Error()}); err != nil {
			return opts, err
		}
		opts, _ = SettingsOptions(allRules, nil)
	}
	if cfg != nil && w.Warn != nil {
		for _, msg := range cfg.Warnings {
			if w.cache().Once("warn\x00" + msg) {
				w.Warn(msg)
			}
		}
	}
	if w.Extra != nil {
		if err := w.Extra.Apply(&opts, allRules.Lookup); err != nil {
			if err := w.problem(&UsageError{err.Error()}); err != nil {
				return opts, err
			}
		}
	}
	if len(w.Only) > 0 {
		picked := map[string]bool{}
		for _, key := range w.Only {
			r := allRules.Lookup(key)
			if r == nil {
				return opts, &UsageError{fmt.Sprintf("--only: no rule %q%s (see nginx-lint rules)", key, didyoumean.Suffix(allRules.Suggest(key)))}
			}
			picked[r.Name] = true
		}
		for _, r := range allRules.Rules() {
			switch {
			case picked[r.Name]:
				delete(opts.Disabled, r.Name)
			case r.Category() != analyzer.Syntax:
				opts.Disabled[r.Name] = true
			}
		}
	}
	for _, key := range w.Disable {
		r := allRules.Lookup(key)
		if r == nil {
			return opts, &UsageError{fmt.Sprintf("--disable: no rule %q%s (see nginx-lint rules)", key, didyoumean.Suffix(allRules.Suggest(key)))}
		}
		opts.Disabled[r.Name] = true
	}
	if w.Strict {
		opts.Severity[rules.UnknownDirective.Name] = parser.Error
	}
	opts.CheckFiles = opts.CheckFiles || w.CheckFiles
	for name, o := range w.RuleOptions {
		for k, v := range o {
			ruleOptions(opts, name)[k] = v
		}
	}
	opts.Cancel = w.Cancel
	// The front end's host facts (nginx-lint cost's flags) over the
	// settings', and its calibration profile.
	opts.Host = opts.Host.Over(analyzer.Host{NonRoot: w.Cost.NonRoot, NoFile: w.Cost.NoFile, CPUs: w.Cost.CPUs, Kernel: w.Cost.Kernel})
	// The calibration profile: the front end's (cost --profile), else the
	// settings' cost-profile.
	if w.Cost.Profile != nil {
		costpass.Profile.Set(&opts, w.Cost.Profile)
	} else if p, err := w.costProfile(cfg); err != nil {
		if err := w.problem(err); err != nil {
			return opts, err
		}
	} else if p != nil {
		costpass.Profile.Set(&opts, p)
	}
	front := analyzer.TargetChoice{Build: w.Build, BuildFile: w.BuildFile, Version: w.Version, Where: "nginx-build"}
	var settings analyzer.TargetChoice
	if cfg != nil {
		settings = analyzer.TargetChoice{BuildFile: cfg.NginxBuild, Version: cfg.NginxVersion, Where: cfg.Path + ": nginx-build"}
	}
	target, err := analyzer.ResolveTarget(w.cache().build, front, settings)
	if err != nil {
		if err := w.problem(err); err != nil {
			return opts, err
		}
	}
	opts.Target = target
	// A target newer than the tables is said once: its advisories and
	// directives are not known.
	if opts.Target.Known() && w.Warn != nil {
		if msg := advisories.UnknownRelease(opts.Target.Version); msg != "" && w.cache().Once("release\x00"+msg) {
			w.Warn(msg)
		}
	}
	return opts, nil
}

// ruleOptions returns the options map of a rule, made if absent.
func ruleOptions(opts analyzer.Options, name string) map[string]any {
	ro := opts.RuleOptions[name]
	if ro == nil {
		ro = map[string]any{}
		opts.RuleOptions[name] = ro
	}
	return ro
}

// errBinary marks a file found in a directory whose content is not text.
var errBinary = errors.New("binary content")

// Load reads every target as Lint does, without running the rules.
func (w *Workspace) Load(targets []Target) (*Report, error) {
	rep := &Report{}
	budget := &parser.ReadBudget{Max: w.MaxTotalSize}
	if w.MaxTotalSize <= 0 {
		budget = nil
	}
	seen := map[findingKey]bool{}
	included := map[string]bool{}
	var units []*Unit
	roots := map[string]*Unit{} // the nginx.conf units of files named alone
	// Each nginx.conf above the named fragments is loaded once, not once
	// per fragment.
	above := rootMemo{}
	for _, t := range targets {
		cfg, err := w.SettingsFor(t.settingsFrom())
		if err != nil {
			return nil, err
		}
		opts, err := w.Options(cfg)
		if err != nil {
			return nil, err
		}
		named := !t.FromDir && !t.Pipe && t.Path != "-"
		if named {
			w.namedPrefix(&t)
		}
		var c *parser.Config
		if t.FromDir && len(included) > 0 {
			// A file found in a directory that a configuration read
			// before includes is linted there (and dropped below
			// anyway): not loaded again with everything it includes,
			// which for a directory of files that include each other
			// is every file once per file.
			if abs, err := filepath.Abs(t.Path); err == nil && included[parser.RealPath(abs)] {
				continue
			}
		}
		l, name, src, err := w.readEntry(w.Loader, t, cfg, &opts, budget)
		if err == nil {
			if files, ok := parser.SplitDump(src); ok {
				c = l.LoadDump(name, files)
			} else {
				c = w.loadSource(l, name, src, cfg)
			}
		}
		if err == nil && named && len(c.Context) > 0 && w.Context == "" {
			// A fragment that an nginx.conf above includes is linted
			// there, where nginx reads it; its own findings are kept.
			// --context (Context) asks for the file as a fragment of
			// that context instead: it is not read through an
			// nginx.conf (its conf prefix is still found above).
			if root, f := w.rootOf(l, name, cfg, above); root != nil {
				// Findings name the file as it was named, not as the
				// nginx.conf reaches it (sites-enabled/x for a named
				// sites-available/x).
				f.Path = name
				e := roots[root.Main.Path]
				if e == nil {
					e = &Unit{Target: Target{Path: root.Main.Path}, Config: root, Settings: cfg, Options: opts, only: map[string]bool{},
						Tree: w.tree(t, root.Main.Path, cfg)}
					roots[root.Main.Path] = e
					units = append(units, e)
				}
				e.only[f.Path] = true
				continue
			}
		}
		if errors.Is(err, errBinary) {
			rep.add(seen, &parser.Diagnostic{Path: t.Path, Severity: parser.Info, Code: parser.CodeBinary, Name: parser.NameBinary,
				Message: "not a configuration file (binary content): skipped"})
			continue
		}
		if errors.Is(err, parser.ErrElsewhere) {
			// Not an error: nginx reads it on the deployment host. Found
			// in a directory, it is what an include there reads.
			if !t.FromDir {
				rep.add(seen, &parser.Diagnostic{Path: t.Path, Severity: parser.Info, Code: parser.CodeUnreadable, Name: parser.NameUnreadable,
					Message: "not read: " + errors.Unwrap(err).Error()})
			}
			continue
		}
		if err != nil {
			rep.Unreadable = append(rep.Unreadable, Unreadable{t.Path, err})
			code, name, msg := parser.ReadErrorFinding(err, false)
			rep.add(seen, &parser.Diagnostic{Path: t.Path, Severity: parser.Error, Code: code, Name: name, Message: msg})
			continue
		}
		for _, f := range c.Files[1:] {
			included[parser.RealPath(f.Path)] = true
		}
		units = append(units, &Unit{Target: t, Config: c, Settings: cfg, Options: opts, Tree: w.tree(t, c.Main.Path, cfg)})
	}
	for _, e := range units {
		if e.only != nil && unitNamed(units, e) {
			continue // the nginx.conf is linted in full as named
		}
		if !included[parser.RealPath(e.Config.Main.Path)] || e.only != nil {
			rep.Units = append(rep.Units, e)
		}
	}
	rep.Read = budget.Used()
	return rep, nil
}

// Rounds returns the lint of targets with an overlay in place of w's
// Overlay: what --fix, the playground's fix and their fix.Run lint in
// each round, the files rewritten so far in memory.
func (w *Workspace) Rounds(targets []Target) func(overlay map[string][]byte) ([]*parser.Diagnostic, error) {
	return func(overlay map[string][]byte) ([]*parser.Diagnostic, error) {
		round := *w
		round.Overlay = overlay
		rep, err := round.Lint(targets)
		if err != nil {
			return nil, err
		}
		return rep.Findings, nil
	}
}

// Lint reads and lints every target: Load, then Run on each unit, then
// the baseline on the whole report (a finding's fingerprint counts the
// identical findings before it in the report, as --write-baseline
// recorded them).
func (w *Workspace) Lint(targets []Target) (*Report, error) {
	rep, err := w.Load(targets)
	if err != nil {
		return nil, err
	}
	if w.Loaded != nil {
		w.Loaded(rep.Read)
	}
	seen := map[findingKey]bool{}
	for _, d := range rep.Findings {
		seen[keyOf(d)] = true
	}
	reg := w.registry()
	for _, e := range rep.Units {
		// The run's shared results (index, typed model, facts) are not
		// kept: nothing reads them after a lint of many files, and each
		// unit's would stay alive while the next one is linted, up to
		// twice the size of every configuration. Unit.CostModel computes
		// the model again if asked.
		e.Findings, _ = Run(e.Config, reg, e.Options)
		e.Findings = e.Tree.Redact(e.Findings)
		if e.only != nil {
			kept := e.Findings[:0]
			for _, d := range e.Findings {
				if e.only[d.FilePath()] {
					kept = append(kept, d)
				}
			}
			e.Findings = kept
		}
		for _, d := range e.Findings {
			rep.add(seen, d)
		}
	}
	if w.Baseline != nil {
		rep.Findings = w.Baseline.Filter(rep.Findings)
	}
	return rep, nil
}

func (rep *Report) add(seen map[findingKey]bool, d *parser.Diagnostic) {
	k := keyOf(d)
	if !seen[k] {
		seen[k] = true
		rep.Findings = append(rep.Findings, d)
	}
}

// readEntry sets up the loader for target t under settings cfg and reads
// the target's text; opts gets the file system the rules read through.
// A nil l is a loader for this read alone.
func (w *Workspace) readEntry(l *parser.Loader, t Target, cfg *config.File, opts *analyzer.Options, budget *parser.ReadBudget) (_ *parser.Loader, name string, src []byte, err error) {
	if l == nil {
		l = &parser.Loader{}
	}
	l.Kinds, l.Budget = analyzer.Kinds, budget
	l.MaxFileSize = w.MaxFileSize
	if l.MaxFileSize == 0 && cfg != nil {
		l.MaxFileSize = cfg.MaxFileSize
	}
	disk := w.disk()
	l.FS = FileSystem(disk, cfg)
	opts.ReadFile, opts.Glob = l.FS.ReadFile, l.FS.Glob
	l.Prefix = w.Prefix
	if l.Prefix == "" && cfg != nil {
		l.Prefix = cfg.Prefix
	}
	if l.Prefix == "" {
		l.Prefix = t.Prefix
	}
	if l.Prefix != "" {
		if abs, err := filepath.Abs(l.Prefix); err == nil {
			l.Prefix = abs
		}
	}
	// A checkout's include of a file that only the deployment host has
	// (certbot's, the nginx package's) is no error; the rules read as
	// before.
	l.FS = withHostFiles(l.FS, t, l.Prefix)
	l.MayInclude = nil
	if w.Bound != "" {
		bound := w.Bound
		l.MayInclude = func(from, target string) bool { return Within(from, bound) || Within(target, bound) }
	}
	// The entry point is read as given (include-paths map what nginx
	// includes, not it), within the same limits as includes.
	entry := &parser.Loader{FS: disk, MaxFileSize: l.MaxFileSize, Budget: budget}
	if t.Path == "-" {
		name = "<stdin>"
		if wd, werr := os.Getwd(); werr == nil {
			name = filepath.Join(wd, "<stdin>")
		}
		in := w.Stdin
		if in == nil {
			in = os.Stdin
		}
		src, err = entry.ReadStream(name, in)
	} else if name, err = filepath.Abs(t.Path); err == nil && t.Pipe {
		src, err = w.cache().pipe(name, func() ([]byte, error) { return readPipe(entry, name) })
		if err == nil {
			// A text read by an earlier Load counts in this one's total
			// too (once: a budget charges a path once).
			err = budget.Charge(name, int64(len(src)))
		}
	} else if err == nil {
		at := name
		if _, open := w.Overlay[name]; !open && cfg != nil && len(cfg.IncludePaths) > 0 {
			// A symbolic link into a mapped prefix (sites-enabled/x ->
			// /etc/nginx/sites-available/x) is read from the checkout.
			// One to an absolute path the checkout does not hold
			// (modules-enabled/x.conf -> /usr/share/...) is the
			// deployment host's file: parser.ErrElsewhere.
			at, err = config.FS{Base: disk, File: cfg}.Resolve(name)
		}
		if err == nil {
			src, err = entry.ReadFile(at)
		}
	}
	if err == nil && t.FromDir && parser.LooksBinary(src) {
		err = errBinary

	}
	return l, name, src, err
}

// settingsFrom is where the settings file of t is looked for from: the
// working directory for standard input and pipes, else t's path.
func (t Target) settingsFrom() string {
	if t.Pipe {
		return "-"
	}
	return t.Path
}

// readPipe reads a FIFO named on the command line within entry's limits.
// Nothing read is an error (parser.ErrEmptyPipe).
func readPipe(entry *parser.Loader, name string) ([]byte, error) {
	f, err := parser.OpenNamedPipe(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := entry.ReadStream(name, f)
	if err == nil && len(src) == 0 {
		err = &fs.PathError{Op: "read", Path: name, Err: parser.ErrEmptyPipe}
	}
	return src, err
}

// loadSource parses a main file's text and what it includes.
func (w *Workspace) loadSource(l *parser.Loader, name string, src []byte, cfg *config.File) *parser.Config {
	var c *parser.Config
	if w.Context == "" {
		c = analyzer.LoadInferred(l, name, src)
	} else {
		ancestors, _ := analyzer.ContextAncestors(w.Context)
		c = l.LoadSource(name, src, ancestors)
	}
	if h, ok := l.FS.(*hostFS); ok {
		h.hint(c)
	}
	localizePaths(c, cfg)
	return c
}
