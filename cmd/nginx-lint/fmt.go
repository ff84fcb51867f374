package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/internal/atomicfile"
	"github.com/nginx-lint/nginx-lint/internal/plural"
	"github.com/nginx-lint/nginx-lint/internal/report"
	"github.com/nginx-lint/nginx-lint/parser"
)

type fmtCmd struct {
	Paths         []string `arg:"" name:"file" help:"Files or directories (their *.conf and sites-enabled/* files) to format; \"-\" formats standard input to standard output."`
	Write         bool     `short:"w" help:"Write the result back to each file (atomically; symbolic links are followed, owner, mode and hard links kept; a file changed since it was read is not written) instead of printing it."`
	Force         bool     `help:"With -w, also write read-only files."`
	Check         bool     `help:"Print the files that are not formatted and exit 1 if there are any, ending with the command that formats them (on standard error); change nothing. With --diff, print the diff instead of the names."`
	Diff          bool     `help:"Print what formatting would change as a unified diff and exit 1 if there is any; change nothing."`
	Indent        string   `help:"Indentation of one block level: auto (as the file is indented; 4 spaces when it shows none), tab, or 1 to 16 spaces. Default: the settings' fmt: indent, else auto." placeholder:"auto|tab|N"`
	Tabs          bool     `help:"Indent with one tab per block level (--indent tab)."`
	Spacing       string   `help:"Whitespace between the words of a directive: keep (as written, aligned columns stay) or single (one space). Default: the settings' fmt: spacing, else keep." placeholder:"keep|single"`
	MaxBlankLines int      `name:"max-blank-lines" help:"Shorten runs of blank lines to at most N (default: the settings' fmt: max-blank-lines, else keep them all)." placeholder:"N"`
	Config        string   `help:"Settings file to use instead of the .nginx-lint.yaml found upward from each file (its fmt: section applies)." placeholder:"FILE"`
	NoConfig      bool     `help:"Use no settings file."`
}

// options returns the layout for a file under the settings cfg (nil:
// none): each flag given wins over the settings' fmt: section.
func (cmd *fmtCmd) options(cfg *config.File) (parser.FormatOptions, error) {
	var o parser.FormatOptions
	if cfg != nil {
		o = cfg.Fmt
	}
	if cmd.Indent != "" {
		in, err := config.ParseIndent(cmd.Indent)
		if err != nil {
			return o, &lint.UsageError{Msg: "--indent: " + err.Error()}
		}
		if cmd.Tabs && !in.Tabs {
			return o, &lint.UsageError{Msg: "--tabs and --indent " + cmd.Indent + " together"}
		}
		o.Tabs, o.Spaces = in.Tabs, in.Spaces
	}
	if cmd.Tabs {
		o.Tabs, o.Spaces = true, 0
	}
	if cmd.Spacing != "" {
		sp, err := config.ParseSpacing(cmd.Spacing)
		if err != nil {
			return o, &lint.UsageError{Msg: "--spacing: " + err.Error()}
		}
		o.Spacing = sp
	}
	switch {
	case cmd.MaxBlankLines < 0:
		return o, &lint.UsageError{Msg: fmt.Sprintf("--max-blank-lines %d: give 1 or more", cmd.MaxBlankLines)}
	case cmd.MaxBlankLines > 0:
		o.MaxBlankLines = cmd.MaxBlankLines
	}
	return o, nil
}

// beforeWrite, when a test sets it, runs between reading a file and
// writing it back, to change the file at the worst moment.
var beforeWrite func(path string)

// Run is called by kong when the command is chosen (run); the exit
// code goes to e.
func (cmd *fmtCmd) Run(e *env) error { return e.exit(cmd.run(e)) }

// run formats each file. A file with syntax errors is left alone (exit
// 1): a formatter must not guess at structure nginx cannot read.
func (cmd *fmtCmd) run(e *env) (int, error) {
	if cmd.Write && (cmd.Check || cmd.Diff) {
		return 0, &lint.UsageError{Msg: "--write with --check or --diff"}
	}
	// --check --diff is --diff: the diff instead of the names, as
	// gofmt -d prints one where gofmt -l prints names.
	diff := cmd.Diff
	if _, err := cmd.options(nil); err != nil {
		return 0, err
	}
	if cmd.Config != "" && cmd.NoConfig {
		return 0, &lint.UsageError{Msg: "--config and --no-config together"}
	}
	w := &lint.Workspace{NoSettings: cmd.NoConfig}
	if cmd.Config != "" {
		var err error
		if w.Settings, err = lint.LoadSettings(cmd.Config); err != nil {
			return 0, err
		}
	}
	targets, err := lint.Targets(cmd.Paths)
	if err != nil {
		return 0, err
	}
	code := exitClean
	cwd, _ := os.Getwd()
	done := map[string]bool{} // real paths already checked or written
	// Several files printed to standard output get a header each, as
	// head(1) and tail(1) do, so the output says where each file starts.
	headers, printed := len(targets) > 1 && !cmd.Write && !cmd.Check && !diff, 0
	var unformatted []string // --check: as given or found
	for _, t := range targets {
		p := t.Path
		if (cmd.Write || cmd.Check || diff) && p != "-" {
			// A file reached twice (sites-enabled/x -> ../sites-available/x)
			// is one file: check or write it once.
			if real, err := atomicfile.Resolve(p); err == nil {
				if done[real] {
					continue
				}
				done[real] = true
			}
		}
		cfg, err := w.SettingsFor(p)
		if err != nil {
			return 0, err
		}
		opts, err := cmd.options(cfg)
		if err != nil {
			return 0, err
		}
		var src []byte
		if p == "-" {
			src, err = (&parser.Loader{}).ReadStream("<stdin>", e.stdin)
		} else {
			src, err = parser.ReadConfigFile(p, 0)
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "nginx-lint: %s: %s\n", report.TerminalSafe(p), report.TerminalSafe(readError(err)))
			code = exitError
			continue
		}
		out, err := parser.FormatWith(parser.ParseFile(p, src, nil), opts)
		if errors.Is(err, parser.ErrNotFormattable) {
			fmt.Fprintf(e.stderr, "nginx-lint: not formatted: %s\n", report.TerminalSafe(err.Error()))
			code = max(code, exitFindings)
			continue
		}
		if err != nil {
			return exitError, err
		}
		switch {
		case diff:
			if !bytes.Equal(src, out) {
				name := report.DisplayPath(p, cwd)
				if p == "-" {
					name = "<stdin>"
				}
				if _, err := fmt.Fprint(e.stdout, unifiedDiff(name, string(src), string(out))); err != nil {
					return exitError, err
				}
				code = max(code, exitFindings)
			}
		case cmd.Check:
			if !bytes.Equal(src, out) {
				if _, err := fmt.Fprintln(e.stdout, report.TerminalSafe(p)); err != nil {
					return exitError, err
				}
				unformatted = append(unformatted, p)
				code = max(code, exitFindings)
			}
		case cmd.Write && p != "-":
			if !bytes.Equal(src, out) {
				if beforeWrite != nil {
					beforeWrite(p)
				}
				// Expect: an edit saved while we formatted is not lost.
				if real, err := atomicfile.WriteFile(p, out, atomicfile.Options{Root: t.Root, Force: cmd.Force, Expect: src}); err != nil {
					msg := writeError(err, real, t.Root)
					if errors.Is(err, atomicfile.ErrReadOnly) {
						msg += " (--force writes it)"
					}
					fmt.Fprintf(e.stderr, "nginx-lint: %s: %s\n", report.TerminalSafe(p), report.TerminalSafe(msg))
					code = exitError
				}
			}
		default:
			if headers {
				sep := ""
				if printed > 0 {
					sep = "\n"
				}
				fmt.Fprintf(e.stdout, "%s==> %s <==\n", sep, p)
				printed++
			}
			if _, err := e.stdout.Write(out); err != nil {
				return exitError, err
			}
		}
	}
	if len(unformatted) > 0 {
		// As prettier, black and ruff end: what would change, and the
		// command that changes it.
		fmt.Fprintln(e.stderr, report.TerminalSafe(cmd.applyHint(unformatted)))
	}
	return code, nil
}

// applyHint is the line fmt --check ends with when files are not
// formatted: how many, and the command that formats them with the same
// layout flags.
func (cmd *fmtCmd) applyHint(files []string) string {
	var flags []string
	if cmd.Indent != "" {
		flags = append(flags, "--indent", cmd.Indent)
	}
	if cmd.Tabs {
		flags = append(flags, "--tabs")
	}
	if cmd.Spacing != "" {
		flags = append(flags, "--spacing", cmd.Spacing)
	}
	if cmd.MaxBlankLines > 0 {
		flags = append(flags, "--max-blank-lines", strconv.Itoa(cmd.MaxBlankLines))
	}
	if cmd.Config != "" {
		flags = append(flags, "--config", cmd.Config)
	}
	if cmd.NoConfig {
		flags = append(flags, "--no-config")
	}
	if slices.Equal(files, []string{"-"}) {
		return "standard input would be reformatted: run " + shellJoin(append(append([]string{"nginx-lint", "fmt"}, flags...), "-")) + " to print it formatted"
	}
	// A few files are named; more are the paths given.
	paths := files
	if len(files) > 3 {
		paths = slices.DeleteFunc(slices.Clone(cmd.Paths), func(p string) bool { return p == "-" })
	}
	return fmt.Sprintf("%s would be reformatted: run %s to apply", plural.Count(len(files), "file"),
		shellJoin(append(append([]string{"nginx-lint", "fmt", "-w"}, flags...), paths...)))
}

// shellJoin quotes words for a POSIX shell where they need it.
func shellJoin(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
			out[i] = w
			continue
		}
		out[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}

// writeError words a refused or failed write to real (the file a path
// leads to) with what to do about it; root is the directory walked.
func writeError(err error, real, root string) string {
	switch {
	case errors.Is(err, atomicfile.ErrReadOnly):
		return "read-only file, not written"
	case errors.Is(err, atomicfile.ErrChanged):
		return "changed since nginx-lint read it, not written (run nginx-lint again on the new contents)"
	case errors.Is(err, atomicfile.ErrOutsideRoot):
		return fmt.Sprintf("links to %s, outside %s: not written (name the file on the command line to write it)", real, root)
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return "not written: " + pe.Err.Error()
	}
	return "not written: " + err.Error()
}
