package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer/buildinfo"
	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/internal/plural"
	"github.com/nginx-lint/nginx-lint/internal/report"
)

// initCmd is `nginx-lint init`: a commented .nginx-lint.yaml for the
// configuration found in a directory, never written over an existing
// file.
type initCmd struct {
	Dir     string `arg:"" optional:"" name:"dir" default:"." help:"The directory of the configuration (a repository's root, or /etc/nginx on the host) where .nginx-lint.yaml is written."`
	Nginx   string `help:"Lint for this nginx binary: its \"nginx -V\" is saved beside the settings and named in them (default: the nginx installed here: $NGINX, /usr/sbin/nginx or nginx on PATH)." placeholder:"PATH"`
	NoNginx bool   `name:"no-nginx" help:"Do not ask the local nginx: lint for the newest nginx until nginx-build or nginx-version is set."`
}

// buildFile is the name init saves "nginx -V" under, beside the
// settings.
const buildFile = "nginx-V.txt"

// Run is called by kong when the command is chosen (run); the exit
// code goes to e.
func (cmd *initCmd) Run(e *env) error { return e.exit(cmd.run(e)) }

func (cmd *initCmd) run(e *env) (int, error) {
	if cmd.Nginx != "" && cmd.NoNginx {
		return 0, &lint.UsageError{Msg: "--nginx and --no-nginx together"}
	}
	dir, err := filepath.Abs(cmd.Dir)
	if err != nil {
		return exitError, err
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return 0, &lint.UsageError{Msg: cmd.Dir + ": not a directory (init writes .nginx-lint.yaml in the directory of a configuration)"}
	}
	for _, n := range config.Names {
		if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
			return exitError, fmt.Errorf("%s exists: not overwritten (edit it, or remove it to start again)", report.DisplayPath(filepath.Join(dir, n), mustGetwd()))
		}
	}
	mains, err := mainConfigs(e, dir)
	if err != nil {
		return 0, err
	}
	s := initSettings{dir: dir, mains: mains, date: time.Now().UTC().Format("2006-01-02")}
	if d, ok := lint.DeploymentOf(mains[0].path); ok {
		s.deploy = d
	}
	var created []string
	if !cmd.NoNginx {
		ngx := cmd.Nginx
		if ngx == "" {
			ngx, _ = findNginx()
		}
		if ngx != "" {
			if err := s.readBuild(ngx); err != nil {
				return exitError, err
			}
			if s.buildNew {
				if err := createFile(filepath.Join(dir, buildFile), s.buildOut); err != nil {
					return exitError, err
				}
				created = append(created, filepath.Join(dir, buildFile))
			}
		}
	}
	text := s.text()
	// What init writes, nginx-lint reads: checked before it is written.
	if _, err := config.Parse(filepath.Join(dir, config.Names[0]), []byte(text)); err != nil {
		return exitError, fmt.Errorf("internal error: the settings written would not parse: %v", err)
	}
	path := filepath.Join(dir, config.Names[0])
	if err := createFile(path, []byte(text)); err != nil {
		for _, p := range created {
			os.Remove(p)
		}
		return exitError, err
	}
	cwd := mustGetwd()
	what := report.DisplayPath(mains[0].path, cwd)
	if n := len(mains[0].includes); n > 0 {
		what += " (and " + plural.Count(n, "file") + " it includes)"
	}
	if len(mains) > 1 {
		what += fmt.Sprintf(" and %s more", plural.Count(len(mains)-1, "configuration"))
	}
	fmt.Fprintf(e.stdout, "wrote %s for %s\n", report.TerminalSafe(report.DisplayPath(path, cwd)), report.TerminalSafe(what))
	switch {
	case s.build != nil && s.buildNew:
		fmt.Fprintf(e.stdout, "linting for nginx %s with its modules, as %s -V says (saved in %s)\n", s.build.Version, report.TerminalSafe(s.nginx), report.TerminalSafe(report.DisplayPath(filepath.Join(dir, buildFile), cwd)))
	case s.build != nil:
		fmt.Fprintf(e.stdout, "linting for nginx %s with its modules, as %s says (the same as %s -V)\n", s.build.Version, report.TerminalSafe(report.DisplayPath(filepath.Join(dir, buildFile), cwd)), report.TerminalSafe(s.nginx))
	default:
		fmt.Fprintln(e.stdout, "no nginx here: linting for the newest nginx with every module until nginx-build or nginx-version is set")
	}
	next := "nginx-lint"
	if rel, err := filepath.Rel(cwd, dir); err != nil || rel != "." {
		next = "cd " + shellJoin([]string{report.DisplayPath(dir, cwd)}) + " && nginx-lint"
	}
	fmt.Fprintf(e.stdout, "next: %s (lints this directory with these settings)\n", next)
	return exitClean, nil
}

// mainConfig is a configuration init found: a file no other includes.
type mainConfig struct {
	path     string
	includes []string
}

// mainConfigs finds the configurations under dir as lint finds them (a
// file that another includes is part of that one), nginx.conf first.
func mainConfigs(e *env, dir string) ([]mainConfig, error) {
	targets, err := lint.Targets([]string{dir})
	if err != nil {
		return nil, err
	}
	if len(targets) == 0 {
		return nil, &lint.UsageError{Msg: "no nginx configuration (*.conf, sites-enabled/*) under " + dir + ": init writes the settings of one"}
	}
	w := &lint.Workspace{NoSettings: true, Stdin: e.stdin}
	rep, err := w.Load(targets)
	if err != nil {
		return nil, err
	}
	var out []mainConfig
	for _, u := range rep.Units {
		m := mainConfig{path: u.Config.Main.Path}
		for _, f := range u.Config.Files[1:] {
			m.includes = append(m.includes, f.Path)
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil, &lint.UsageError{Msg: "no readable nginx configuration under " + dir}
	}
	// nginx.conf is the main file; then the one including the most, then
	// by name.
	slices.SortStableFunc(out, func(a, b mainConfig) int {
		an, bn := filepath.Base(a.path) == "nginx.conf", filepath.Base(b.path) == "nginx.conf"
		switch {
		case an != bn && an:
			return -1
		case an != bn:
			return 1
		case len(a.includes) != len(b.includes):
			return len(b.includes) - len(a.includes)
		}
		return strings.Compare(a.path, b.path)
	})
	return out, nil
}

// initSettings is what the settings file init writes says.
type initSettings struct {
	dir    string
	mains  []mainConfig
	date   string
	deploy lint.Deployment
	// nginx is the binary asked; build what its -V says, buildOut its
	// output; buildNew is false when the directory already holds the
	// same output under buildFile.
	nginx    string
	build    *buildinfo.Info
	buildOut []byte
	buildNew bool
}

// readBuild asks ngx for its -V and decides where it is kept: buildFile,
// unless the directory already holds a different one there, which is
// never overwritten.
func (s *initSettings) readBuild(ngx string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, ngx, "-V").CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s -V: %v (--no-nginx leaves the target unset)", ngx, err)
	}
	info, err := buildinfo.Parse(string(out))
	if err != nil {
		return fmt.Errorf("%s -V: %v (--no-nginx leaves the target unset)", ngx, err)
	}
	s.nginx, s.build, s.buildOut, s.buildNew = ngx, info, out, true
	cur, err := os.ReadFile(filepath.Join(s.dir, buildFile))
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	case bytes.Equal(cur, out):
		s.buildNew = false
	default:
		return fmt.Errorf("%s exists and is not what %s -V prints: not overwritten (remove it, or --no-nginx and name it in the settings)", filepath.Join(s.dir, buildFile), ngx)
	}
	return nil
}

// text is the settings file: every key, commented out where init has
// nothing to say, each with what it does.
func (s *initSettings) text() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	cwd := s.dir
	rel := func(path string) string {
		r, err := filepath.Rel(cwd, path)
		switch {
		case err != nil || r != "." && !filepath.IsLocal(r):
			return path
		case r == ".":
			return "./"
		}
		return "./" + filepath.ToSlash(r)
	}
	p("# yaml-language-server: $schema=%s", config.SchemaURL)
	p("#")
	p("# The settings of nginx-lint for this directory and those below it, written")
	what := strings.TrimPrefix(rel(s.mains[0].path), "./")
	if n := len(s.mains[0].includes); n > 0 {
		what += " and the " + plural.Count(n, "file") + " it includes"
	}
	if len(s.mains) > 1 {
		var others []string
		for _, m := range s.mains[1:] {
			others = append(others, strings.TrimPrefix(rel(m.path), "./"))
		}
		if len(others) > 4 {
			others = append(others[:4], "...")
		}
		what += "; also " + strings.Join(others, ", ")
	}
	p("# by nginx-lint init on %s for %s.", s.date, yamlComment(what))
	p("# Every key: https://github.com/nginx-lint/nginx-lint/blob/main/docs/configuration.md")
	p("# The command line's flags win over these settings.")
	p("")
	p("# The nginx linted for: directives of modules it lacks, or newer than its")
	p("# version, are unknown.")
	if s.build != nil {
		p("# Here: nginx %s with its modules, as %s -V printed it", s.build.Version, yamlComment(s.nginx))
		p("# on %s. Save it again when nginx is upgraded:", s.date)
		p("#   %s -V 2> %s", yamlComment(s.nginx), buildFile)
		p("nginx-build: ./%s", buildFile)
	} else {
		p("# Unset: the newest nginx with every module. Save \"nginx -V 2> %s\" on", buildFile)
		p("# the server and name it, or name the version alone:")
		p("# nginx-build: ./%s", buildFile)
		p("# nginx-version: 1.22.1")
	}
	p("")
	switch {
	case s.deploy.Prefix != "":
		p("# This configuration is deployed to %s: what it includes from there", s.deploy.Prefix)
		p("# (include %s/...) is read from here.", s.deploy.Prefix)
		p("include-paths:")
		p("  %s/: %s", s.deploy.Prefix, rel(s.deploy.Dir))
	default:
		p("# Where absolute include paths are here, when the configuration is")
		p("# deployed elsewhere (the path as nginx sees it: the path here):")
		p("# include-paths:")
		p("#   /etc/nginx/: ./")
	}
	p("")
	p("# nginx's -p, when relative includes resolve elsewhere than against the")
	p("# main file's directory:")
	p("# prefix: ./")
	p("")
	p("# Directives and variables of third-party modules nginx-lint does not know:")
	p("# custom-directives: [my_module_flag]")
	p("# custom-variables: [\"my_module_*\"]")
	p("")
	p("# Checks of the machine nginx runs on: certificates and keys (expiry, chain,")
	p("# names, strength), the files nginx loads, the host names it resolves.")
	if s.deploy.OnHost {
		p("# This is the host's own configuration: they are on.")
		p("check-files: true")
	} else {
		p("# On for a lint on the host itself (--check-files does it once):")
		p("# check-files: true")
	}
	p("")
	p("# The machine nginx runs on, for nginx-lint cost and the cost rules:")
	p("# host:")
	p("#   nofile: 65536      # the master's open-file limit (unset: 1024 assumed)")
	p("#   cpus: %-12d # what worker_processes auto resolves to (this machine: %d)", runtime.NumCPU(), runtime.NumCPU())
	p("#   nonroot: false     # nginx runs as root")
	p("# The costs nginx-lint calibrate measured here (unset: the reference profile):")
	p("# cost-profile: ./nginx-lint-profile.json")
	p("")
	p("# How nginx-lint fmt and the editor's formatting lay files out:")
	p("# fmt:")
	p("#   indent: auto       # as the file is; or tab, or 1-16 spaces")
	p("#   spacing: keep      # or single")
	p("")
	p("# Per rule, by name or code: off, on, a severity, or options")
	p("# (nginx-lint rules lists them, nginx-lint explain RULE says more):")
	p("rules:")
	p("#   version-disclosure: off")
	p("#   unknown-directive: error")
	p("#   certificate-expiry: {options: {cert-expiry-days: 30}}")
	p("#   listen-socket-count: {options: {max-sockets: 500}}")
	return b.String()
}

// yamlComment keeps a value on its comment line.
func yamlComment(s string) string { return strings.NewReplacer("\n", " ", "\r", " ").Replace(s) }

// createFile writes data to a new file at path and never replaces one:
// a file already there, or one made in between, is an error.
func createFile(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s exists: not overwritten", path)
		}
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// mustGetwd is the working directory, "" when it cannot be known.
func mustGetwd() string {
	wd, _ := os.Getwd()
	return wd
}

// projectDefault is what a lint with no path lints: the working
// directory when a settings file applies to it from it or above within
// its repository (after nginx-lint init), else "" (defaultConfig).
func projectDefault() string {
	cwd, err := os.Getwd()
	if err != nil {
		return ""
	}
	bound := lint.BoundOf(filepath.Join(cwd, "x"))
	found, err := config.FindWithin(cwd, func(d string) bool { return d == bound })
	if err != nil || found == "" {
		return ""
	}
	return "."
}
