// Package analyzer turns a parsed configuration into findings.
//
// It owns what nginx knows about directives (see the directives
// subpackage) and lends that knowledge to the parser, so the parser can
// report nginx's block-structure errors; it infers the context a fragment
// is included in; it declares what a rule is (Rule: its identity, docs,
// typed options, and whether nginx refuses what it reports, it checks this
// machine or it is a cost rule) and what a run shares (Options: the Target
// from ResolveTarget, the Host, derived Results); and it holds the engine
// that runs rules in parallel (RunRules), which only the lint session
// (analyzer/lint.Run, the one public way to run rules) and tests under
// analyzer/ can open. Nothing here knows about terminals, protocol types
// or the cost model.
package analyzer
