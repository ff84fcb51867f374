package main

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/internal/report"
	"github.com/nginx-lint/nginx-lint/parser"
)

// diffCmd is `nginx-lint diff OLD NEW` (or `--git REV PATH`): the
// requests two configurations answer differently.
type diffCmd struct {
	loadFlags
	Paths        []string `arg:"" name:"path" help:"OLD and NEW: two configuration files or directories; with --git, the one in the working tree."`
	Git          string   `help:"Compare PATH in the working tree against PATH at this git revision (a commit, branch or tag)." placeholder:"REV"`
	Format       string   `short:"f" enum:"text,json,markdown" default:"text" help:"Output format: ${enum} (markdown is a summary for a pull-request comment)."`
	FailOnChange bool     `name:"fail-on-change" help:"Exit with 1 when any request changes."`
	Max          int      `default:"50" help:"Show at most this many changed requests in text and Markdown (0: all); JSON lists all."`
	requestFlags

	read int64 // bytes read from both sides' directories
}

// configPair is one configuration before and after.
type configPair struct {
	name          string // as shown: the path given, or its part below a directory
	oldPath       string // "" when the configuration is new
	newPath       string // "" when it was removed
	before, after *routing.Model
}

// Run compares the configurations.
func (cmd *diffCmd) Run(e *env) error {
	code, err := cmd.run(e)
	return e.exit(unreadExit(e, code, err))
}

func (cmd *diffCmd) run(e *env) (int, error) {
	o, err := cmd.requestFlags.options(cmd.Prefix)
	if err != nil {
		return 0, err
	}
	if _, err := cmd.requestFlags.request(&routing.Table{}, "http://x/"); err != nil && cmd.Local == "" {
		return 0, err
	}
	var oldPath, newPath string
	// checkout is the temporary tree of --git, named REV: in the output.
	var checkout string
	switch {
	case cmd.Git != "" && len(cmd.Paths) == 1:
		newPath = cmd.Paths[0]
		dir, tree, cleanup, err := gitCheckout(newPath, cmd.Git)
		if err != nil {
			return exitError, err
		}
		defer cleanup()
		oldPath, checkout = dir, tree
	case cmd.Git != "":
		return 0, &lint.UsageError{Msg: "--git takes one path, the configuration in the working tree"}
	case len(cmd.Paths) == 2:
		oldPath, newPath = cmd.Paths[0], cmd.Paths[1]
	default:
		return 0, &lint.UsageError{Msg: "diff takes two paths, OLD and NEW (or one with --git REV)"}
	}
	pairs, err := cmd.load(e, oldPath, newPath, o)
	if err != nil {
		return exitError, err
	}
	rep := report.Diff{Old: oldPath, New: newPath, Configurations: []report.ConfigDiff{}}
	if cmd.Git != "" {
		rep.Old = cmd.Git + ":" + newPath
	}
	cwd, _ := os.Getwd()
	for _, p := range pairs {
		cd := report.ConfigDiff{Name: p.name, Changes: []report.Change{}}
		var models []*routing.Model
		for _, m := range []*routing.Model{p.before, p.after} {
			if m != nil {
				models = append(models, m)
			}
		}
		empty := modelOf(&parser.Config{Main: &parser.File{}}, routing.Options{NoFiles: true})
		before, after := p.before, p.after
		if before == nil {
			before = empty
		}
		if after == nil {
			after = empty
		}
		// The request set and its answers are bounded by the size of
		// the configurations; a cut comparison says so.
		bound := routing.NewBound(models...)
		reqs := func(yield func(routing.HTTPRequest) bool) {
			for r := range bound.Probes(models...) {
				cmd.apply(&r)
				if !yield(r) {
					return
				}
			}
		}
		// Each change is reported as it is found: the answers behind it
		// are not kept.
		cd.Requests = routing.DiffBounded(before, after, reqs, bound, func(c routing.Change) {
			url := report.RequestURL(c.Request)
			ch := report.Change{URL: url, What: c.What,
				Before: report.RouteOf(before, url, c.Request, c.Before, cwd), After: report.RouteOf(after, url, c.Request, c.After, cwd)}
			if checkout != "" {
				ch.Before.RenameFiles(report.DisplayPath(checkout, cwd)+"/", cmd.Git+":")
			}
			cd.Changes = append(cd.Changes, ch)
		})
		if bound.Cut {
			cd.Partial = bound.String()
			rep.Partial = true
		}
		rep.Requests += cd.Requests
		rep.Changed += len(cd.Changes)
		rep.Configurations = append(rep.Configurations, cd)
	}
	switch cmd.Format {
	case "json":
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(rep)
	case "markdown":
		err = report.WriteDiffMarkdown(e.stdout, rep, cmd.Max)
	default:
		err = report.WriteDiffText(e.stdout, rep, cmd.Max)
	}
	if err != nil {
		return exitError, err
	}
	if cmd.FailOnChange && rep.Changed > 0 {
		return exitFindings, nil
	}
	if cmd.FailOnChange && rep.Partial {
		// No change found, but not every request was asked: the gate
		// cannot pass.
		return exitError, errors.New("the comparison is partial: no change was found in the requests asked, but not every request was asked")
	}
	return exitClean, nil
}

// apply gives a probe the request flags' method, headers and client.
func (cmd *diffCmd) apply(r *routing.HTTPRequest) {
	r.Method = cmd.Method
	for _, h := range cmd.Header {
		if name, value, ok := strings.Cut(h, ":"); ok && !strings.EqualFold(strings.TrimSpace(name), "host") {
			r.Headers = append(r.Headers, routing.Header{Name: strings.TrimSpace(name), Value: strings.TrimSpace(value)})
		}
	}
	if a, err := netip.ParseAddr(cmd.Remote); err == nil {
		r.Remote = a
	}
}

// load reads both sides: two files, or two directories whose
// configurations are paired by their path below the directory.
func (cmd *diffCmd) load(e *env, oldPath, newPath string, o routing.Options) ([]configPair, error) {
	oldDir, newDir := isDir(oldPath), isDir(newPath)
	if oldDir != newDir {
		return nil, &lint.UsageError{Msg: fmt.Sprintf("%s and %s: compare a file with a file, or a directory with a directory", oldPath, newPath)}
	}
	if !oldDir {
		before, r1, err := loadRoutes(e, cmd.loadFlags, oldPath, o)
		if err != nil {
			return nil, err
		}
		after, r2, err := loadRoutes(e, cmd.loadFlags, newPath, o)
		if err != nil {
			return nil, err
		}
		// Both models live to the end: size the collector for both.
		routeGC(r1 + r2)
		return []configPair{{name: newPath, oldPath: oldPath, newPath: newPath, before: before, after: after}}, nil
	}
	olds, err := cmd.loadDir(e, oldPath, o)
	if err != nil {
		return nil, err
	}
	news, err := cmd.loadDir(e, newPath, o)
	if err != nil {
		return nil, err
	}
	routeGC(cmd.read)
	var names []string
	for n := range olds {
		names = append(names, n)
	}
	for n := range news {
		if _, ok := olds[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var out []configPair
	for _, n := range names {
		p := configPair{name: n, before: olds[n], after: news[n]}
		if p.before != nil {
			p.oldPath = filepath.Join(oldPath, n)
		}
		if p.after != nil {
			p.newPath = filepath.Join(newPath, n)
		}
		out = append(out, p)
	}
	return out, nil
}

// loadDir reads the configurations of a directory as lint finds them
// (each that no other includes), keyed by their path below it.
func (cmd *diffCmd) loadDir(e *env, dir string, o routing.Options) (map[string]*routing.Model, error) {
	w, err := cmd.loadFlags.workspace(e)
	if err != nil {
		return nil, err
	}
	w.NoSettings = true
	targets, err := lint.Targets([]string{dir})
	if err != nil {
		return nil, err
	}
	rep, err := w.Load(targets)
	if err != nil {
		return nil, err
	}
	cmd.read += rep.Read
	out := map[string]*routing.Model{}
	for _, en := range rep.Units {
		rel, err := filepath.Rel(dir, en.Target.Path)
		if err != nil {
			rel = en.Target.Path
		}
		out[filepath.ToSlash(rel)] = modelOf(en.Config, o)
	}
	return out, nil
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// gitCheckout writes the tree of the repository holding path, at rev,
// to a temporary directory, and returns path's counterpart there and
// the directory.
func gitCheckout(path, rev string) (string, string, func(), error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", "", nil, err
	}
	dir := abs
	if !isDir(abs) {
		dir = filepath.Dir(abs)
	}
	top, err := gitOutput(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", "", nil, fmt.Errorf("--git: %s is not in a git repository: %w", path, err)
	}
	top = strings.TrimSpace(string(top))
	// The working tree's path below the top, symlinks resolved as git
	// resolves the top.
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		real = abs
	}
	rel, err := filepath.Rel(top, real)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", "", nil, fmt.Errorf("--git: %s is outside the repository %s", path, top)
	}
	if _, err := gitOutput(top, "rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return "", "", nil, &lint.UsageError{Msg: fmt.Sprintf("--git %s: not a revision of %s", rev, top)}
	}
	archive, err := gitOutput(top, "archive", "--format=tar", rev)
	if err != nil {
		return "", "", nil, fmt.Errorf("--git %s: %w", rev, err)
	}
	tmp, err := os.MkdirTemp("", "nginx-lint-diff-")
	if err != nil {
		return "", "", nil, err
	}
	cleanup := func() { os.RemoveAll(tmp) }
	if err := untar(tmp, archive); err != nil {
		cleanup()
		return "", "", nil, fmt.Errorf("--git %s: %w", rev, err)
	}
	old := filepath.Join(tmp, rel)
	if _, err := os.Stat(old); err != nil {
		cleanup()
		return "", "", nil, fmt.Errorf("--git %s: %s is not in that revision", rev, filepath.ToSlash(rel))
	}
	return old, tmp, cleanup, nil
}

func gitOutput(dir string, args ...string) (string, error) {
	c := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", errors.New(msg)
		}
		return "", err
	}
	return string(out), nil
}

// untar writes the regular files and directories of a tar archive
// below dir (git archive writes nothing else that a configuration
// reads; symlinks are written when they stay inside dir).
func untar(dir string, archive string) error {
	tr := tar.NewReader(strings.NewReader(archive))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		p := filepath.Join(dir, filepath.FromSlash(h.Name))
		if !strings.HasPrefix(p, filepath.Clean(dir)+string(filepath.Separator)) {
			continue
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		case tar.TypeSymlink:
			target := h.Linkname
			if !filepath.IsAbs(target) {
				resolved := filepath.Join(filepath.Dir(p), target)
				if !strings.HasPrefix(resolved, filepath.Clean(dir)+string(filepath.Separator)) {
					continue
				}
			} else {
				continue
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			_ = os.Symlink(target, p)
		}
	}
}
