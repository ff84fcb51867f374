package main

import (
	"fmt"
	"os"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/baseline"
	"github.com/nginx-lint/nginx-lint/analyzer/fix"
	"github.com/nginx-lint/nginx-lint/parser"
)

// fix applies the findings' suggested edits (--fix) or prints them as a
// diff (--diff). The rounds lint the edited text in memory; files are
// written only at the end, each once.
func (cmd *lintCmd) fix(e *env, targets []target, reg *analyzer.Registry, settings *settingsFinder, base *baseline.Baseline) (int, error) {
	for _, t := range targets {
		if t.path == "-" {
			return 0, usageError{"--fix and --diff need files, not standard input"}
		}
	}
	res, err := fix.Run(func(overlay map[string][]byte) ([]*parser.Diagnostic, error) {
		all, _, err := cmd.lintTargets(e, targets, reg, settings, overlay)
		if base != nil {
			all = base.Filter(all)
		}
		return all, err
	})
	if err != nil {
		return 0, err
	}
	cwd, _ := os.Getwd()
	for _, p := range res.Refused {
		fmt.Fprintf(e.stderr, "nginx-lint: %s: not fixed: the fixed text would not parse\n", displayPath(p, cwd))
	}
	paths := res.Paths()
	if cmd.Diff {
		for _, p := range paths {
			name := displayPath(p, cwd)
			fmt.Fprint(e.stdout, udiff.Unified("a/"+name, "b/"+name, string(res.Original[p]), string(res.Fixed[p])))
		}
		if len(paths) > 0 {
			return exitFindings, nil
		}
		return exitClean, nil
	}
	for _, p := range paths {
		if err := writeAtomic(p, res.Fixed[p]); err != nil {
			return exitError, err
		}
	}
	for _, c := range res.Changes {
		if _, ok := res.Fixed[c.Path]; ok {
			fmt.Fprintf(e.stderr, "fixed %s:%d: %s (%s)\n", displayPath(c.Path, cwd), c.Line, c.Message, c.Name)
		}
	}
	// What is left is reported as a plain lint of the fixed files would.
	all, unreadable, err := cmd.lintTargets(e, targets, reg, settings, nil)
	if err != nil {
		return 0, err
	}
	if base != nil {
		all = base.Filter(all)
	}
	return cmd.report(e, all, unreadable, reg)
}
