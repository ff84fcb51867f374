// Package rules holds nginx-lint's rules, one file each, and All, the
// registry the command line and the language server run.
//
// A rule is an analyzer.Rule value: code, kebab-case name, title, default
// severity, documentation with a bad and a good example (a test lints
// both), and Run. Findings that the parser itself produces (syntax errors,
// include problems) are registered here too, with an empty Run, so that
// `nginx-lint rules` and `nginx-lint explain` cover every code a user sees.
//
// Every file declares a rule but the registry (all.go), this one, the
// cost rules' helpers (cost_helpers.go) and the generated tables
// (TestRulesFilesHoldRules): what several rules need to know of nginx
// lives in the analyzer (analyzer.Innermost, Pass.InEffect, ...) or in a
// package named for what it reads (docs/architecture.md).
package rules

//go:generate go run ./internal/refgen
