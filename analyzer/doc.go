// Package analyzer turns a parsed configuration into findings.
//
// It owns what nginx knows about directives (see the directives
// subpackage) and lends that knowledge to the parser, so the parser can
// report nginx's block-structure errors; it infers the context a fragment
// is included in; and it collects every finding in one sorted list that
// the command line and the language server present in their own ways.
// Nothing here knows about terminals or protocol types.
package analyzer
