// Package playground is nginx-lint's core as the browser page calls it
// (editors/web): lint a set of files for a target nginx version, format,
// apply the fixes, estimate the startup cost with its chart and "what if"
// table, route a URL, explain a rule, and generate the benchmark layouts.
// Each call takes and returns JSON (Call), so the WebAssembly entry
// (editors/web/wasm) is a thin adapter and the same calls are tested
// natively.
//
// The files are read through the os package, as the command line reads
// them: natively from the disk, in the browser from the page's in-memory
// file system (editors/web/src/memfs.js), which holds the files given and
// nothing else. The calls run the command line's code paths
// (lint.Targets, Workspace.Lint, fix.Run, Workspace.Estimate,
// routing.New), with what depends on the machine switched off: the rules
// marked Host (files nginx loads at startup, names it resolves) never run,
// so nothing is looked up on a network.
package playground
