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

func (lspCmd) run(*env) (int, error) {
	s := lsp.New()
	s.Version = currentVersion().String()
	if err := s.RunStdio(); err != nil {
		return exitError, err
	}
	return exitClean, nil
}
