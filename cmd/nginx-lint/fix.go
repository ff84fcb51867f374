package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/nginx-lint/nginx-lint/analyzer/fix"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/internal/atomicfile"
	"github.com/nginx-lint/nginx-lint/internal/report"
	"github.com/nginx-lint/nginx-lint/parser"
)

// fix applies the findings' suggested edits (--fix) or prints them as a
// diff (--diff). The rounds lint the edited text in memory; files are
// written only at the end, each once.
func (cmd *lintCmd) fix(e *env, w *lint.Workspace, targets []lint.Target) (int, error) {
	if len(targets) == 1 && targets[0].Path == "-" {
		return cmd.fixStdin(e, w, targets)
	}
	for _, t := range targets {
		if t.Path == "-" {
			return 0, &lint.UsageError{Msg: "--fix - and --diff - read standard input alone, not with other files"}
		}
		if t.Pipe {
			return 0, &lint.UsageError{Msg: "--fix and --diff need files or standard input (-), not a pipe"}
		}
	}
	res, err := fix.Run(w.Rounds(targets))
	if err != nil {
		return 0, err
	}
	cwd, _ := os.Getwd()
	for _, p := range res.Refused {
		fmt.Fprintf(e.stderr, "nginx-lint: %s: not fixed: the fixed text would not parse\n", report.TerminalSafe(report.DisplayPath(p, cwd)))
	}
	paths := res.Paths()
	if cmd.Diff {
		out := &checkedWriter{w: e.stdout}
		for _, p := range paths {
			name := report.DisplayPath(p, cwd)
			fmt.Fprint(out, unifiedDiff(name, string(res.Original[p]), string(res.Fixed[p])))
		}
		if out.err != nil {
			fmt.Fprintf(e.stderr, "nginx-lint: cannot write the diff: %v\n", out.err)
			return exitError, nil
		}
		if len(paths) > 0 {
			return exitFindings, nil
		}
		return exitClean, nil
	}
	// Every file or none: fixes in one file may need those in another
	// (an upstream renamed where it is defined and where it is used).
	var changes []atomicfile.Change
	for _, p := range paths {
		// A file reached through a directory given on the command line
		// stays in that tree; others were named, or included by a file
		// that was.
		root := ""
		for _, t := range targets {
			if t.Root != "" && lint.Within(p, t.Root) {
				root = t.Root
				break
			}
		}
		if beforeWrite != nil {
			beforeWrite(p)
		}
		// Expect: an edit made to the file while nginx-lint ran is kept,
		// not overwritten with fixes of the text read before it.
		changes = append(changes, atomicfile.Change{Name: p, Data: res.Fixed[p], Options: atomicfile.Options{Root: root, Force: cmd.Force, Expect: res.Original[p]}})
	}
	failed := !writeAll(e.stderr, changes, cwd, "--force writes it")
	for _, c := range res.Changes {
		if cmd.Quiet {
			break
		}
		if _, ok := res.Fixed[c.Path]; ok && !failed {
			by := c.Name
			if c.Target != "" {
				by += "; for " + report.TerminalSafe(c.Target)
			}
			fmt.Fprintf(e.stderr, "fixed %s:%d: %s (%s)\n", report.TerminalSafe(report.DisplayPath(c.Path, cwd)), c.Line, report.TerminalSafe(c.Message), by)
		}
	}
	// What is left is reported as a plain lint of the fixed files would.
	rep, err := w.Lint(targets)
	if err != nil {
		return 0, err
	}
	code, err := cmd.report(e, rep, w.Registry)
	if failed {
		code = exitError
	}
	return code, err
}

// fixStdin is --fix - and --diff -: the configuration on standard input
// fixed, printed on standard output whole (--fix, as a formatter in a
// pipeline or an editor expects) or as a diff (--diff). Only edits within
// that text are applied: a fix that would also change an included file
// on disk is left, and reported with what remains. The remaining
// findings go to standard error, since standard output is the text.
func (cmd *lintCmd) fixStdin(e *env, w *lint.Workspace, targets []lint.Target) (int, error) {
	src, err := (&parser.Loader{MaxFileSize: w.MaxFileSize}).ReadStream("<stdin>", e.stdin)
	if err != nil {
		return exitError, fmt.Errorf("<stdin>: %s", readError(err))
	}
	cwd, _ := os.Getwd()
	name := filepath.Join(cwd, "<stdin>")
	// Each round reads the text of the round before as standard input.
	round := func(text []byte) *lint.Workspace {
		r := *w
		r.Stdin = bytes.NewReader(text)
		return &r
	}
	res, err := fix.Run(func(overlay map[string][]byte) ([]*parser.Diagnostic, error) {
		text, ok := overlay[name]
		if !ok {
			text = src
		}
		rep, err := round(text).Lint(targets)
		if err != nil {
			return nil, err
		}
		var ds []*parser.Diagnostic
		for _, d := range rep.Findings {
			if slices.ContainsFunc(d.Edits, func(ed parser.Edit) bool { return ed.File == nil || ed.File.Path != name }) {
				d = &parser.Diagnostic{Path: d.Path, File: d.File, Range: d.Range, Severity: d.Severity, Code: d.Code, Name: d.Name, Message: d.Message}
			}
			ds = append(ds, d)
		}
		return ds, nil
	})
	if err != nil {
		return 0, err
	}
	fixed, changed := res.Fixed[name]
	if !changed {
		fixed = src
	}
	if slices.Contains(res.Refused, name) {
		fmt.Fprintln(e.stderr, "nginx-lint: <stdin>: not fixed: the fixed text would not parse")
	}
	out := &checkedWriter{w: e.stdout}
	if cmd.Diff {
		if changed {
			fmt.Fprint(out, unifiedDiff("<stdin>", string(src), string(fixed)))
		}
	} else {
		out.Write(fixed)
	}
	if out.err != nil {
		fmt.Fprintf(e.stderr, "nginx-lint: cannot write the fixed text: %v\n", out.err)
		return exitError, nil
	}
	if cmd.Diff {
		if changed {
			return exitFindings, nil
		}
		return exitClean, nil
	}
	for _, c := range res.Changes {
		if cmd.Quiet {
			break
		}
		fmt.Fprintf(e.stderr, "fixed <stdin>:%d: %s (%s)\n", c.Line, report.TerminalSafe(c.Message), c.Name)
	}
	// What is left, on standard error.
	rep, err := round(fixed).Lint(targets)
	if err != nil {
		return 0, err
	}
	toStderr := *e
	toStderr.stdout, toStderr.isTerminal = e.stderr, e.stderrTerminal
	return cmd.report(&toStderr, rep, w.Registry)
}

// unifiedDiff is the diff of one file from old to new text, labelled as
// git labels it ("a/PATH", "b/PATH") for a path relative to the working
// directory, so "patch -p1" applies it; an absolute path is its own label.
func unifiedDiff(name, old, new string) string {
	from, to := "a/"+name, "b/"+name
	if filepath.IsAbs(name) {
		from, to = name, name
	}
	return udiff.Unified(from, to, old, new)
}

// writeAll writes every change or none (atomicfile.WriteFiles). When a
// file stops it, that file is reported on w with what to do about it
// (forceHint, when not empty, for a read-only file) and writeAll returns
// false: then no file was written.
func writeAll(w io.Writer, changes []atomicfile.Change, cwd, forceHint string) bool {
	if len(changes) == 0 {
		return true
	}
	_, err := atomicfile.WriteFiles(changes)
	if err == nil {
		return true
	}
	none := "nothing was written"
	if len(changes) > 1 {
		none = fmt.Sprintf("none of the %d files was written", len(changes))
	}
	var fe *atomicfile.FileError
	if !errors.As(err, &fe) {
		fmt.Fprintf(w, "nginx-lint: %s; %s\n", report.TerminalSafe(err.Error()), none)
		return false
	}
	root := ""
	for _, c := range changes {
		if c.Name == fe.Name {
			root = c.Options.Root
		}
	}
	msg := writeError(fe.Err, fe.Target, root)
	if errors.Is(err, atomicfile.ErrReadOnly) && forceHint != "" {
		msg += " (" + forceHint + ")"
	}
	fmt.Fprintf(w, "nginx-lint: %s: %s; %s\n", report.TerminalSafe(report.DisplayPath(fe.Name, cwd)), report.TerminalSafe(msg), none)
	return false
}

// checkedWriter keeps the first error of the writes to w: a report or a
// diff that cannot be written (a full disk, /dev/full) fails the run
// rather than vanish.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}
