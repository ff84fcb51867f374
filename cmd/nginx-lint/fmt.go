package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"

	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/internal/atomicfile"
	"github.com/nginx-lint/nginx-lint/parser"
)

type fmtCmd struct {
	Paths  []string `arg:"" name:"file" help:"Files or directories (their *.conf and sites-enabled/* files) to format; \"-\" formats standard input to standard output."`
	Write  bool     `short:"w" help:"Write the result back to each file (atomically; symbolic links are followed, owner, mode and hard links kept) instead of printing it."`
	Force  bool     `help:"With -w, also write read-only files."`
	Check  bool     `help:"Print the files that are not formatted and exit 1 if there are any; change nothing."`
	Diff   bool     `help:"Print what formatting would change as a unified diff and exit 1 if there is any; change nothing."`
	Indent int      `default:"4" help:"Spaces per block level."`
	Tabs   bool     `help:"Indent with one tab per block level."`
}

// run formats each file. A file with syntax errors is left alone (exit
// 1): a formatter must not guess at structure nginx cannot read.
func (cmd *fmtCmd) run(e *env) (int, error) {
	if cmd.Write && cmd.Check {
		return 0, usageError{"--write and --check together"}
	}
	if cmd.Diff && (cmd.Write || cmd.Check) {
		return 0, usageError{"--diff with --write or --check"}
	}
	if cmd.Indent < 1 || cmd.Indent > 16 {
		return 0, usageError{fmt.Sprintf("--indent %d: give 1 to 16 spaces", cmd.Indent)}
	}
	opts := parser.FormatOptions{Tabs: cmd.Tabs, Spaces: cmd.Indent}
	targets, err := lint.Targets(cmd.Paths)
	if err != nil {
		return 0, err
	}
	code := exitClean
	cwd, _ := os.Getwd()
	done := map[string]bool{} // real paths already checked or written
	// Several files printed to standard output get a header each, as
	// head(1) and tail(1) do, so the output says where each file starts.
	headers, printed := len(targets) > 1 && !cmd.Write && !cmd.Check && !cmd.Diff, 0
	for _, t := range targets {
		p := t.Path
		if (cmd.Write || cmd.Check || cmd.Diff) && p != "-" {
			// A file reached twice (sites-enabled/x -> ../sites-available/x)
			// is one file: check or write it once.
			if real, err := atomicfile.Resolve(p); err == nil {
				if done[real] {
					continue
				}
				done[real] = true
			}
		}
		var src []byte
		var err error
		if p == "-" {
			src, err = (&parser.Loader{}).ReadStream("<stdin>", e.stdin)
		} else {
			src, err = parser.ReadConfigFile(p, 0)
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "nginx-lint: %s: %s\n", terminalSafe(p), terminalSafe(readError(err)))
			code = exitError
			continue
		}
		out, err := parser.FormatWith(parser.ParseFile(p, src, nil), opts)
		if errors.Is(err, parser.ErrNotFormattable) {
			fmt.Fprintf(e.stderr, "nginx-lint: not formatted: %s\n", terminalSafe(err.Error()))
			code = max(code, exitFindings)
			continue
		}
		if err != nil {
			return exitError, err
		}
		switch {
		case cmd.Diff:
			if !bytes.Equal(src, out) {
				name := displayPath(p, cwd)
				if p == "-" {
					name = "<stdin>"
				}
				fmt.Fprint(e.stdout, unifiedDiff(name, string(src), string(out)))
				code = max(code, exitFindings)
			}
		case cmd.Check:
			if !bytes.Equal(src, out) {
				fmt.Fprintln(e.stdout, terminalSafe(p))
				code = max(code, exitFindings)
			}
		case cmd.Write && p != "-":
			if !bytes.Equal(src, out) {
				if real, err := atomicfile.WriteFile(p, out, atomicfile.Options{Root: t.Root, Force: cmd.Force}); err != nil {
					msg := writeError(err, real, t.Root)
					if errors.Is(err, atomicfile.ErrReadOnly) {
						msg += " (--force writes it)"
					}
					fmt.Fprintf(e.stderr, "nginx-lint: %s: %s\n", terminalSafe(p), terminalSafe(msg))
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
	return code, nil
}

// writeError words a refused or failed write to real (the file a path
// leads to) with what to do about it; root is the directory walked.
func writeError(err error, real, root string) string {
	switch {
	case errors.Is(err, atomicfile.ErrReadOnly):
		return "read-only file, not written"
	case errors.Is(err, atomicfile.ErrOutsideRoot):
		return fmt.Sprintf("links to %s, outside %s: not written (name the file on the command line to write it)", real, root)
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return "not written: " + pe.Err.Error()
	}
	return "not written: " + err.Error()
}
