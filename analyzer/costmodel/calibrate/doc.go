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
// The guard allows for the machine's noise. Every run's time is kept
// (LayoutRun.Runs), and their spread gives each median a noise. A cost
// whose estimate is within noiseMargin standard errors of that noise (or
// one fitted at zero whose base value the noise cannot rule out) is not
// identified by the layouts: it keeps its base value, is marked assumed
// and is listed in Result.Unidentified, instead of failing the fit. A
// held-out prediction counts only its error beyond the noise of the runs
// it compares, and a size whose runs spread too far is not judged
// (Result.HeldOutSizes). What remains degenerate contradicts the model
// beyond the noise: a cost at zero that the runs put there, a held-out
// size predicted badly, or no size steady enough to judge.
//
// The timing is a dependency (Options.Measure): NginxT times the real
// nginx, and tests pass a synthetic machine whose costs the fit must find
// again, so the fitting logic is tested without nginx and without timing.
//
// TimeReloads starts nginx on a few layouts and times a start and a
// reload, to set the model's start and reload predictions against the
// wall clock (Unix only: it signals nginx).
package calibrate
