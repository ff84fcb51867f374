package main

import (
	"runtime/debug"

	"github.com/nginx-lint/nginx-lint/lsp"
)

// version is set by a release build (-ldflags "-X main.version=...");
// otherwise buildVersion reads the module version go install recorded.
var version = ""

// buildVersion returns the version to report.
func buildVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

type lspCmd struct {
	// Stdio is accepted because editor clients pass it; stdio is the only
	// transport.
	Stdio bool `help:"Talk over standard input and output (the default and only transport)."`
}

// run serves until the client exits; the status is the protocol's: 0
// after a shutdown request, 1 when the client exits (or vanishes)
// without one.
func (lspCmd) run(*env) (int, error) {
	s := lsp.New()
	s.Version = buildVersion()
	return s.RunStdio(), nil
}
