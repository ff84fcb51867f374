// Package calibrate measures the local nginx and fits a cost profile for
// package costmodel: it is what `nginx-lint calibrate` runs, without the
// flags and the tables.
//
// Run generates the nine benchmark layouts of package layout at a few
// server counts, times `nginx -t` on each (round-robin, the median of
// several runs counting), prices what those layouts cannot separate
// (locations, regex locations, SSL servers) on variants of L3c, and fits
// the per-operation costs with costmodel.Fit. It then checks the fit on
// runs it was not fitted on: each size is predicted by costs fitted on the
// other sizes alone. A fit that cannot describe how nginx's time grows is
// reported as degenerate (Result.Degenerate) rather than returned as if it
// were usable; whether to write it anyway is the caller's choice.
//
// The timing is a dependency (Options.Measure): NginxT times the real
// nginx, and tests pass a synthetic machine whose costs the fit must find
// again, so the fitting logic is tested without nginx and without timing.
//
// TimeReloads starts nginx on a few layouts and times a start and a
// reload, to set the model's start and reload predictions against the
// wall clock (Unix only: it signals nginx).
package calibrate
