// Package lsp is nginx-lint's language server: a thin adapter that runs the
// same parser and rules as the command line on open editor buffers and
// speaks the Language Server Protocol (diagnostics, hover, completion,
// document symbols, quick fixes, go to definition).
//
// All conversion between the core's byte offsets and the protocol's UTF-16
// positions lives in convert.go. Open documents are laid over the disk with
// a parser.Overlay, so unsaved edits are linted, included files too, and
// the loader's cache re-parses only the file that changed. The server runs
// as "nginx-lint lsp" (one binary for the CLI and editors).
package lsp
