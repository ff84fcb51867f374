package main

import (
	"io"
	"os"

	"github.com/mattn/go-isatty"
)

// isTerminal reports whether w is a terminal (for --color auto and the
// progress lines).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// useColor decides --color. always and never win over the environment.
// auto colors a terminal, with two environment overrides:
// FORCE_COLOR or CLICOLOR_FORCE set to anything but "" or "0" colors
// whatever stdout is (a CI log that renders ANSI codes), and NO_COLOR set
// to anything but "" (https://no-color.org: an empty value does not
// count) leaves it plain. A forcing variable wins over NO_COLOR, as in
// Node.js and supports-color: it is the narrower request, usually set for
// one job, where NO_COLOR is a standing preference.
func useColor(mode string, terminal bool) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	if forced("FORCE_COLOR") || forced("CLICOLOR_FORCE") {
		return true
	}
	if os.Getenv("NO_COLOR") != "" {
		return false
	}
	return terminal
}

// forced reports whether the environment variable name asks for color:
// set, not empty, not "0".
func forced(name string) bool {
	v := os.Getenv(name)
	return v != "" && v != "0"
}
