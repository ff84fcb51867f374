package main

import (
	"github.com/nginx-lint/nginx-lint/lsp"
)

// version is set by a release build (-ldflags "-X main.version=...");
// otherwise currentVersion reads the module version go install recorded.
var version = ""

type lspCmd struct {
	// Stdio is accepted because editor clients pass it; stdio is the only
	// transport.
	Stdio bool `help:"Talk over standard input and output (the default and only transport)."`
}

// Run serves until the client exits; the status is the protocol's: 0
// after a shutdown request, 1 when the client exits (or vanishes)
// without one.
func (lspCmd) Run(e *env) error {
	s := lsp.New()
	s.Version = currentVersion().String()
	e.code = s.RunStdio()
	return nil
}

// serves marks the language server as a long-lived process: it keeps
// Go's default garbage collection (batchGC).
func (lspCmd) serves() {}
