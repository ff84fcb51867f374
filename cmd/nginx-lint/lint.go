package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/baseline"
	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/internal/atomicfile"
	"github.com/nginx-lint/nginx-lint/internal/didyoumean"
	"github.com/nginx-lint/nginx-lint/parser"
)

func (cmd *lintCmd) run(e *env) (int, error) {
	paths := cmd.Paths
	if len(paths) == 0 {
		if _, err := os.Stat(defaultConfig); err != nil {
			return 0, usageError{"no path given and " + defaultConfig + " does not exist"}
		}
		paths = []string{defaultConfig}
	}
	if cmd.Config != "" && cmd.NoConfig {
		return 0, usageError{"--config and --no-config together"}
	}
	reg := rules.All()
	if cmd.NginxBuild != "" || cmd.Nginx != "" {
		if cmd.NginxBuild != "" && cmd.Nginx != "" {
			return 0, usageError{"--nginx-build and --nginx together"}
		}
		info, err := readBuildInfo(e, cmd.NginxBuild, cmd.Nginx)
		if err != nil {
			return 0, err
		}
		cmd.build = info
	}
	settings := settingsFinder{cache: map[string]*config.File{}, warned: map[string]bool{}}
	if cmd.Config != "" {
		f, err := loadSettings(cmd.Config)
		if err != nil {
			return 0, err
		}
		settings.fixed = f
	}
	var base *baseline.Baseline
	if cmd.Baseline != "" {
		b, err := baseline.Load(cmd.Baseline)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
				return 0, fmt.Errorf("--baseline: %w", err)
			}
			return 0, usageError{"--baseline: " + err.Error()}
		}
		base = b
	}

	targets, err := expandDirs(paths)
	if err != nil {
		return 0, err
	}
	if cmd.Fix || cmd.Diff {
		return cmd.fix(e, targets, reg, &settings, base)
	}
	all, unreadable, err := cmd.lintTargets(e, targets, reg, &settings, nil)
	if err != nil {
		return 0, err
	}

	if cmd.WriteBaseline != "" {
		return cmd.writeBaseline(e, all, unreadable)
	}
	if base != nil {
		all = base.Filter(all)
	}
	return cmd.report(e, all, unreadable, reg)
}

// report prints the findings in the chosen format and returns the exit
// code they call for.
func (cmd *lintCmd) report(e *env, all []*parser.Diagnostic, unreadable bool, reg *analyzer.Registry) (int, error) {
	failAt, failNone := parser.Error, cmd.FailLevel == "none"
	if !failNone {
		failAt, _ = parser.ParseSeverity(cmd.FailLevel)
	}
	var err error
	cwd, _ := os.Getwd()
	switch cmd.Format {
	case "json":
		err = writeJSON(e.stdout, all)
	case "sarif":
		err = writeSARIF(e.stdout, all, reg, cwd)
	case "github":
		err = writeGitHub(e.stdout, all, cwd)
	case "checkstyle":
		err = writeCheckstyle(e.stdout, all, cwd)
	default:
		err = writeText(e.stdout, all, useColor(cmd.Color, e.isTerminal))
	}
	if err != nil {
		return 0, err
	}
	if unreadable {
		return exitError, nil
	}
	if !failNone {
		for _, d := range all {
			if d.Severity >= failAt {
				return exitFindings, nil
			}
		}
	}
	return exitClean, nil
}

// lintTargets lints every target and returns the findings, and whether
// some input could not be read. overlay, keyed by absolute path, replaces
// the text of files on disk (the rounds of --fix).
func (cmd *lintCmd) lintTargets(e *env, targets []target, reg *analyzer.Registry, settings *settingsFinder, overlay map[string][]byte) ([]*parser.Diagnostic, bool, error) {
	// Each lint (each round of --fix) reads within the total limit anew.
	cmd.budget = nil
	var all []*parser.Diagnostic
	seen := map[string]bool{}
	unreadable := false
	add := func(d *parser.Diagnostic) {
		// A file included from several entry points is reported once.
		key := fmt.Sprintf("%s\x00%d\x00%d\x00%s\x00%s", d.FilePath(), d.Range.Start, d.Range.End, d.Code, d.Message)
		if !seen[key] {
			seen[key] = true
			all = append(all, d)
		}
	}
	// Load every target first: a file that another target includes is
	// linted through that one, not again on its own.
	type loaded struct {
		t    target
		c    *parser.Config
		opts analyzer.Options
	}
	var todo []loaded
	included := map[string]bool{}
	for _, t := range targets {
		p := t.path
		var cfg *config.File
		if !cmd.NoConfig {
			var err error
			if cfg, err = settings.forPath(p); err != nil {
				return nil, false, err
			}
		}
		opts, err := cmd.analyzerOptions(reg, cfg)
		if err != nil {
			return nil, false, err
		}
		if cfg != nil {
			for _, w := range cfg.Warnings {
				if !settings.warned[w] {
					settings.warned[w] = true
					fmt.Fprintf(e.stderr, "nginx-lint: warning: %s\n", w)
				}
			}
		}
		l := &parser.Loader{}
		var fsys parser.FileSystem = parser.OSFS{}
		if len(overlay) > 0 {
			// --fix: the text of earlier rounds hides the files on disk.
			fsys = &parser.Overlay{Base: fsys, Files: overlay}
			l.FS = fsys
		}
		lf := cmd.loadFlags
		lf.overlay = overlay
		if cfg != nil {
			if lf.Prefix == "" {
				lf.Prefix = cfg.Prefix
			}
			if len(cfg.IncludePaths) > 0 {
				mapped := lint.FileSystem(fsys, cfg)
				l.FS, opts.ReadFile = mapped, mapped.ReadFile
			}
		}
		if lf.Prefix == "" {
			lf.Prefix = t.prefix
		}
		if cfg != nil {
			lf.settingsMax = cfg.MaxFileSize
		}
		lf.fromDir = t.fromDir
		c, err := lf.loadWith(e, p, l)
		var ue usageError
		if errors.As(err, &ue) {
			return nil, false, err
		}
		cmd.budget = lf.budget // one budget for the whole run
		if errors.Is(err, errBinary) {
			// A file in a directory that is not text is not a
			// configuration: said, not linted, not a failure.
			add(&parser.Diagnostic{Path: p, Severity: parser.Info,
				Code: parser.CodeBinary, Name: parser.NameBinary, Message: "not a configuration file (binary content): skipped"})
			continue
		}
		if err != nil {
			unreadable = true
			code, name, msg := parser.ReadErrorFinding(err, false)
			add(&parser.Diagnostic{Path: p, Severity: parser.Error, Code: code, Name: name, Message: msg})
			continue
		}
		lint.LocalizePaths(c, cfg)
		for _, f := range c.Files[1:] {
			included[parser.RealPath(f.Path)] = true
		}
		todo = append(todo, loaded{t, c, opts})
	}
	bigInputGC(cmd.budget.Used())
	for _, l := range todo {
		if included[parser.RealPath(l.c.Main.Path)] {
			// Linted through the target that includes it, in the
			// context nginx reads it in (pre-commit passes both).
			continue
		}
		for _, d := range lint.Run(l.c, reg, l.opts) {
			add(d)
		}
	}
	return all, unreadable, nil
}

// writeBaseline records every finding (unreadable inputs aside, which have
// no text to fingerprint) and prints nothing: the file is the output.
// Writing a baseline accepts the findings, so the exit code is 0 unless
// some input could not be read. The file is written as fmt -w writes
// (a symbolic link stays a link, owner and mode are kept).
func (cmd *lintCmd) writeBaseline(e *env, all []*parser.Diagnostic, unreadable bool) (int, error) {
	abs, err := filepath.Abs(cmd.WriteBaseline)
	if err != nil {
		return 0, err
	}
	var keep []*parser.Diagnostic
	for _, d := range all {
		if d.File != nil {
			keep = append(keep, d)
		}
	}
	var buf bytes.Buffer
	if err := baseline.New(filepath.Dir(abs), keep).Write(&buf); err != nil {
		return 0, err
	}
	if real, err := atomicfile.WriteFile(abs, buf.Bytes(), atomicfile.Options{}); err != nil {
		return 0, fmt.Errorf("--write-baseline %s: %s", cmd.WriteBaseline, writeError(err, real, ""))
	}
	if unreadable {
		for _, d := range all {
			if d.File == nil {
				fmt.Fprintf(e.stderr, "%s: %s\n", terminalSafe(d.FilePath()), terminalSafe(d.Message))
			}
		}
		return exitError, nil
	}
	return exitClean, nil
}

// analyzerOptions combines the settings file (may be nil) with the flags;
// flags come last so the command line wins. The settings and the target
// build are applied by analyzer/lint, as the language server does.
func (cmd *lintCmd) analyzerOptions(reg *analyzer.Registry, cfg *config.File) (analyzer.Options, error) {
	opts, err := lint.SettingsOptions(reg, cfg)
	if err != nil {
		return opts, usageError{err.Error()}
	}
	for _, key := range cmd.Disable {
		r := reg.Lookup(key)
		if r == nil {
			return opts, usageError{fmt.Sprintf("--disable: no rule %q%s (see nginx-lint rules)", key, didyoumean.Suffix(reg.Suggest(key)))}
		}
		opts.Disabled[r.Name] = true
	}
	if cmd.Strict {
		opts.Severity[rules.UnknownDirective.Name] = parser.Error
	}
	if cmd.CheckFiles {
		ruleOptions(opts, rules.MissingFile.Name)[rules.CheckFilesOption] = true
		ruleOptions(opts, rules.HostNotFound.Name)[rules.CheckFilesOption] = true
		ruleOptions(opts, rules.UnknownUser.Name)[rules.CheckFilesOption] = true
	}
	build := cmd.build
	if build == nil && cfg != nil && cfg.NginxBuild != "" {
		// The settings file's nginx-build, when no flag names a build.
		if build, err = lint.ReadBuild(nil, cfg.NginxBuild); err != nil {
			return opts, fmt.Errorf("%s: nginx-build: %w", cfg.Path, err)
		}
	}
	lint.TargetBuild(&opts, build)
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

// settingsFinder finds the .nginx-lint.yaml of each linted path, reading
// each file once.
type settingsFinder struct {
	fixed  *config.File // --config
	cache  map[string]*config.File
	warned map[string]bool // settings warnings already printed
}

func (s *settingsFinder) forPath(p string) (*config.File, error) {
	if s.fixed != nil {
		return s.fixed, nil
	}
	start := p
	if p == "-" {
		start = "."
	}
	found, err := config.Find(start)
	if err != nil || found == "" {
		return nil, nil // no settings file is the common case, not an error
	}
	if f, ok := s.cache[found]; ok {
		return f, nil
	}
	f, err := loadSettings(found)
	if err != nil {
		return nil, err
	}
	s.cache[found] = f
	return f, nil
}

// loadSettings reads a settings file: an unreadable one is exit 2, one
// that does not parse is a usage error (3).
func loadSettings(path string) (*config.File, error) {
	f, err := config.Load(path)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return nil, fmt.Errorf("settings file %s: %w", path, pe.Err)
	}
	if err != nil {
		return nil, usageError{err.Error()}
	}
	return f, nil
}

// readError words an I/O error without Go's "open x: " noise.
func readError(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return "cannot read file: " + pe.Err.Error()
	}
	return "cannot read file: " + err.Error()
}

// target is one configuration to lint: a path given on the command line,
// or a file found in a directory given there.
type target struct {
	path    string
	fromDir bool
	// prefix is the conf prefix of a file found in a directory: the
	// nearest directory above it (up to the one given) that holds an
	// nginx.conf, else the directory given. A snippet's relative
	// include then resolves as it does when nginx.conf includes it.
	prefix string
	// root is the directory given on the command line that the file was
	// found in ("" for a file named there): writes stay inside it.
	root string
}

// expandDirs replaces each directory among paths with the configuration
// files under it, sorted: every *.conf, and every file of a sites-enabled
// or sites-available directory (Debian's layout, where sites have no
// extension). Hidden files and directories are skipped. A directory with
// none is a usage error: linting nothing must not pass a CI gate.
func expandDirs(paths []string) ([]target, error) {
	var out []target
	for _, p := range paths {
		st, err := os.Stat(p)
		if p == "-" || err != nil || !st.IsDir() {
			// Unreadable paths are reported as findings where they are read.
			out = append(out, target{path: p})
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
				if st, err := os.Stat(path); err == nil && !st.IsDir() {
					out = append(out, target{path: path, fromDir: true, prefix: confPrefix(p, filepath.Dir(path)), root: p})
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(out) == n {
			return nil, usageError{"no configuration files (*.conf, sites-enabled/*) under " + p}
		}
	}
	return out, nil
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
