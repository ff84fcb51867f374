package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/nginx-lint/nginx-lint/parser"
)

type fmtCmd struct {
	Paths  []string `arg:"" name:"file" help:"Files or directories (their *.conf and sites-enabled/* files) to format; \"-\" formats standard input to standard output."`
	Write  bool     `short:"w" help:"Write the result back to each file (atomically) instead of printing it."`
	Check  bool     `help:"Print the files that are not formatted and exit 1 if there are any; change nothing."`
	Indent int      `default:"4" help:"Spaces per block level."`
	Tabs   bool     `help:"Indent with one tab per block level."`
}

// run formats each file. A file with syntax errors is left alone (exit
// 1): a formatter must not guess at structure nginx cannot read.
func (cmd *fmtCmd) run(e *env) (int, error) {
	if cmd.Write && cmd.Check {
		return 0, usageError{"--write and --check together"}
	}
	if cmd.Indent < 1 || cmd.Indent > 16 {
		return 0, usageError{fmt.Sprintf("--indent %d: give 1 to 16 spaces", cmd.Indent)}
	}
	opts := parser.FormatOptions{Tabs: cmd.Tabs, Spaces: cmd.Indent}
	targets, err := expandDirs(cmd.Paths)
	if err != nil {
		return 0, err
	}
	code := exitClean
	// Several files printed to standard output get a header each, as
	// head(1) and tail(1) do, so the output says where each file starts.
	headers, printed := len(targets) > 1 && !cmd.Write && !cmd.Check, 0
	for _, t := range targets {
		p := t.path
		var src []byte
		var err error
		if p == "-" {
			src, err = io.ReadAll(e.stdin)
		} else {
			src, err = os.ReadFile(p)
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "nginx-lint: %s: %s\n", p, readError(err))
			code = exitError
			continue
		}
		out, err := parser.FormatWith(parser.ParseFile(p, src, nil), opts)
		if errors.Is(err, parser.ErrNotFormattable) {
			fmt.Fprintf(e.stderr, "nginx-lint: not formatted: %v\n", err)
			code = max(code, exitFindings)
			continue
		}
		if err != nil {
			return exitError, err
		}
		switch {
		case cmd.Check:
			if !bytes.Equal(src, out) {
				fmt.Fprintln(e.stdout, p)
				code = max(code, exitFindings)
			}
		case cmd.Write && p != "-":
			if !bytes.Equal(src, out) {
				if err := writeAtomic(p, out); err != nil {
					fmt.Fprintf(e.stderr, "nginx-lint: %s: %v\n", p, err)
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

// writeAtomic replaces path with data so that a reader (or a crash) sees
// either the old file or the new one, never a mix: write a temporary file
// beside it, flush it to disk, give it the old file's mode, rename it over.
func writeAtomic(path string, data []byte) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".nginx-lint-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename it is gone already
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(st.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
