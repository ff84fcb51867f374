package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/baseline"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/internal/atomicfile"
	"github.com/nginx-lint/nginx-lint/internal/didyoumean"
	"github.com/nginx-lint/nginx-lint/internal/nginxrun"
	"github.com/nginx-lint/nginx-lint/internal/report"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Run is called by kong when the command is chosen (run); the exit
// code goes to e.
func (cmd *lintCmd) Run(e *env) error { return e.exit(cmd.run(e)) }

func (cmd *lintCmd) run(e *env) (int, error) {
	paths := cmd.Paths
	if len(paths) == 0 {
		// A project with settings (nginx-lint init) is linted where it
		// is; else the host's configuration.
		if dir := projectDefault(); dir != "" {
			paths = []string{dir}
		} else if _, err := os.Stat(defaultConfig); err != nil {
			return 0, &lint.UsageError{Msg: "no path given, no .nginx-lint.yaml here (nginx-lint init writes one) and " + defaultConfig + " does not exist"}
		} else {
			paths = []string{defaultConfig}
		}
	}
	w, err := cmd.workspace(e)
	if err != nil {
		return 0, err
	}
	// A bad --output is said before any work, and with the modes that
	// print no findings it is refused rather than ignored.
	if _, err := cmd.outputs(); err != nil {
		return 0, err
	}
	if len(cmd.Output) > 0 && (cmd.WriteBaseline != "" || cmd.Diff) {
		return 0, &lint.UsageError{Msg: "--output writes the findings: not with --write-baseline or --diff"}
	}
	var base *baseline.Baseline
	if cmd.Baseline != "" {
		b, err := baseline.Load(cmd.Baseline)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
				return 0, fmt.Errorf("--baseline: %w", err)
			}
			return 0, &lint.UsageError{Msg: "--baseline: " + err.Error()}
		}
		base = b
	}
	targets, err := lint.Targets(paths)
	if err != nil {
		return 0, err
	}
	if cmd.WriteBaseline == "" {
		w.Baseline = base
	}
	if cmd.Fix || cmd.Diff {
		return cmd.fix(e, w, targets)
	}
	rep, err := w.Lint(targets)
	if err != nil {
		return 0, err
	}
	if cmd.WriteBaseline != "" {
		return cmd.writeBaseline(e, rep.Findings, len(rep.Unreadable) > 0)
	}
	return cmd.report(e, rep, w.Registry)
}

// workspace is the lint session the flags describe.
func (cmd *lintCmd) workspace(e *env) (*lint.Workspace, error) {
	w, err := cmd.loadFlags.workspace(e)
	if err != nil {
		return nil, err
	}
	if err := cmd.settingsFlags.apply(e, w); err != nil {
		return nil, err
	}
	w.Registry = rules.All()
	w.Disable, w.Only, w.Strict, w.CheckFiles = cmd.Disable, cmd.Only, cmd.Strict, cmd.CheckFiles
	w.Loaded = bigInputGC
	return w, nil
}

// report prints the findings of rep at or above --min-severity in the
// chosen format and returns the exit code all of them call for.
func (cmd *lintCmd) report(e *env, rep *lint.Report, reg *analyzer.Registry) (int, error) {
	all, unreadable := rep.Findings, len(rep.Unreadable) > 0
	failAt, failNone := parser.Error, cmd.FailLevel == "none"
	if !failNone {
		failAt, _ = parser.ParseSeverity(cmd.FailLevel)
	}
	cwd, _ := os.Getwd()
	v := currentVersion()
	l := &report.Lint{Findings: all, Registry: reg, Dir: cwd, Tool: report.Tool{Version: v.String(), Semantic: v.Semantic()},
		Hint: targetHint(rep)}
	// --min-severity hides what is below it from every output; the exit
	// code still counts every finding (--fail-level).
	if least, _ := parser.ParseSeverity(cmd.MinSeverity); least > parser.Info {
		shown := make([]*parser.Diagnostic, 0, len(all))
		for _, d := range all {
			if d.Severity >= least {
				shown = append(shown, d)
			}
		}
		l.Findings, l.Hidden, l.HiddenBelow = shown, len(all)-len(shown), least
	}
	// --format is one of the registry's names (kong's enum).
	f, _ := report.New(cmd.Format, report.Options{Color: useColor(cmd.Color, e.isTerminal), Quiet: cmd.Quiet})
	// The writers print a line or a few per finding: buffered, a big
	// report is not a write system call per line.
	out := bufio.NewWriter(e.stdout)
	err := f.Format(out, l)
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return 0, err
	}
	if err := cmd.writeOutputs(l); err != nil {
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

// findNginx finds the nginx installed here (nginxrun.Find); tests
// replace it so that outputs do not depend on the machine.
var findNginx = nginxrun.Find

// targetHint says, for the text summary, how to lint for the nginx
// installed here when one is and no configuration of rep was linted for a
// named target ("" otherwise).
func targetHint(rep *lint.Report) string {
	if len(rep.Units) == 0 {
		return ""
	}
	for _, u := range rep.Units {
		if t := u.Options.Target; t != nil && (t.Known() || t.Modules != nil) {
			return ""
		}
	}
	p, err := findNginx()
	if err != nil {
		return ""
	}
	return fmt.Sprintf("for the nginx at %s: --nginx %s, or nginx-lint init to keep it in the settings", p, p)
}

// reportFile is one --output FORMAT=FILE.
type reportFile struct {
	format report.Formatter
	path   string
}

// outputs reads the --output flags. A usage error when one is not
// FORMAT=FILE with a known format, or when two name one file.
func (cmd *lintCmd) outputs() ([]reportFile, error) {
	var out []reportFile
	seen := map[string]bool{}
	for _, spec := range cmd.Output {
		format, path, ok := strings.Cut(spec, "=")
		if !ok || path == "" {
			return nil, &lint.UsageError{Msg: fmt.Sprintf("--output %q: want FORMAT=FILE, e.g. sarif=nginx-lint.sarif", spec)}
		}
		// A file is never colored; -q shortens it as it does stdout.
		f, ok := report.New(format, report.Options{Quiet: cmd.Quiet})
		if !ok {
			names := report.Names()
			return nil, &lint.UsageError{Msg: fmt.Sprintf("--output %q: unknown format %q%s (one of %s)", spec, format,
				didyoumean.Suffix(didyoumean.Closest(format, names)), strings.Join(names, ", "))}
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, err
		}
		if seen[abs] {
			return nil, &lint.UsageError{Msg: fmt.Sprintf("--output: %s is named twice", path)}
		}
		seen[abs] = true
		out = append(out, reportFile{f, abs})
	}
	return out, nil
}

// writeOutputs writes each --output file, each at once (atomicfile): a
// file is there, complete, or not at all, never empty or cut short.
func (cmd *lintCmd) writeOutputs(l *report.Lint) error {
	files, err := cmd.outputs()
	if err != nil {
		return err
	}
	for _, f := range files {
		var buf bytes.Buffer
		if err := f.format.Format(&buf, l); err != nil {
			return err
		}
		if real, err := atomicfile.WriteFile(f.path, buf.Bytes(), atomicfile.Options{}); err != nil {
			return fmt.Errorf("--output %s: %s", report.TerminalSafe(report.DisplayPath(f.path, l.Dir)), writeError(err, real, ""))
		}
	}
	return nil
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
				fmt.Fprintf(e.stderr, "%s: %s\n", report.TerminalSafe(d.FilePath()), report.TerminalSafe(d.Message))
			}
		}
		return exitError, nil
	}
	return exitClean, nil
}

// readError words an I/O error without Go's "open x: " noise.
func readError(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return "cannot read file: " + pe.Err.Error()
	}
	return "cannot read file: " + err.Error()
}
