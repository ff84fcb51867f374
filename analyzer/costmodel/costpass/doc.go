// Package costpass is the startup cost model as a result of a lint run:
// computed once per run, on first use, for the run's host facts and
// calibration profile, and shared by every cost rule and by the front
// ends that read the finished run (nginx-lint cost, the language
// server's hints, the optimizer's estimates). It is what go/analysis's
// inspect pass is to its analyzers: a result other analyses require, in
// its own package, while package costmodel stays the pure model (no
// pass, no options of a run).
package costpass
