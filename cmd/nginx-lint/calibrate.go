package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/calibrate"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/internal/atomicfile"
	"github.com/nginx-lint/nginx-lint/internal/nginxrun"
	"github.com/nginx-lint/nginx-lint/internal/report"
)

// calibrateCmd is `nginx-lint calibrate`: time the local nginx on the
// benchmark layouts and fit a cost profile (package calibrate does the
// measuring and fitting; this prints the tables and writes the file).
type calibrateCmd struct {
	Nginx    string `help:"nginx binary (default: $NGINX or nginx on PATH)." placeholder:"PATH"`
	Output   string `short:"o" default:"nginx-lint-profile.json" help:"Where to write the profile."`
	Sizes    []int  `default:"1000,3000,6000,12000" help:"Server counts to fit on."`
	Runs     int    `default:"3" help:"Runs per configuration (three times as many for a configuration nginx -t reads in under 0.15 s); the median counts."`
	Validate bool   `help:"Also time the nine layouts at 2000, 5000, 10000 and 19900 servers and print predicted against measured (timing never fails the command)."`
	Reload   bool   `help:"Also start nginx on L1c, L2c and L3c at 2000, 5000 and 10000 servers and time the start and a reload (wall clock, --runs times each, the median counting), against the predictions."`
	Clock    string `enum:"cpu,wall" default:"cpu" help:"What to fit and compare: the CPU time (user + system) of nginx -t, which other load on the machine disturbs little, or its wall time: ${enum}."`
	Force    bool   `help:"Write the profile even when the held-out check refuses it (a size predicted from the others off by more than 35% beyond the runs' noise, runs too noisy to judge any size, or too few sizes to hold one out)."`
}

// Run is called by kong when the command is chosen (run); the exit
// code goes to e.
func (cmd *calibrateCmd) Run(e *env) error { return e.exit(cmd.run(e)) }

func (cmd *calibrateCmd) run(e *env) (int, error) {
	ngx := cmd.Nginx
	if ngx == "" {
		p, err := nginxrun.Find()
		if err != nil {
			return exitError, err
		}
		ngx = p
	}
	ctx := context.Background()
	ver, err := nginxrun.Version(ctx, ngx)
	if err != nil {
		return exitError, err
	}
	fmt.Fprintf(e.stderr, "calibrating %s (nginx %s) on the nine layouts at %v servers, %d runs each\n", ngx, ver, cmd.Sizes, max(cmd.Runs, 1))
	p, code, err := cmd.calibrate(ctx, e, calibrate.NginxT(ngx), calibrate.DescribeMachine(ver))
	if err != nil || code != exitClean {
		return code, err
	}
	if cmd.Reload {
		runs := max(cmd.Runs, 1)
		fmt.Fprintf(e.stdout, "\nstart and reload (wall clock, median of %d runs each, ± half their range):\n", runs)
		fmt.Fprint(e.stdout, "| layout | servers | start predicted | start measured | error | reload predicted | reload measured | error |\n|---|---|---|---|---|---|---|---|\n")
		_, err := calibrate.TimeReloads(ctx, calibrate.ReloadOptions{Nginx: ngx, Profile: p, Runs: runs, Each: func(r calibrate.ReloadRun) {
			writeReloadRow(e.stdout, r)
		}})
		if err != nil {
			return exitError, err
		}
	}
	return exitClean, nil
}

// calibrate runs the calibration with measure, prints the costs and the
// fit, held-out and validation tables, and writes the profile unless the
// held-out check refuses it (or --force): a cost the runs cannot measure
// keeps the reference value and refuses nothing. machine describes what
// was measured, for the profile's source line.
func (cmd *calibrateCmd) calibrate(ctx context.Context, e *env, measure calibrate.Measure, machine string) (*costmodel.Profile, int, error) {
	// Checked here as well as in calibrate.Run so that the mistake is a
	// usage error naming the flag.
	if err := calibrate.CheckSizes(cmd.Sizes); err != nil {
		return nil, exitUsage, &lint.UsageError{Msg: "--sizes: " + err.Error()}
	}
	prog := newProgress(e.stderr, e.stderrTerminal)
	res, err := calibrate.Run(ctx, calibrate.Options{
		Measure:  measure,
		Sizes:    cmd.Sizes,
		Runs:     cmd.Runs,
		Wall:     cmd.Clock == "wall",
		Validate: cmd.Validate,
		Machine:  machine,
		Progress: calibrateProgress{prog},
	})
	prog.done()
	if err != nil {
		return nil, exitError, err
	}
	p := res.Profile

	fmt.Fprintf(e.stdout, "costs (clock: %s time of nginx -t):\n", cmd.Clock)
	for _, k := range calibrate.TimeKeys() {
		note := " measured"
		if i := slices.IndexFunc(res.Unidentified, func(u calibrate.Unidentified) bool { return u.Key == k }); i >= 0 {
			note = " unidentified, kept from the reference profile: " + res.Unidentified[i].Why
		} else if p.IsAssumed(k) {
			note = " assumed (reference profile)"
		}
		fmt.Fprintf(e.stdout, "  %-15s %s%s\n", k, costmodel.Seconds(p.Costs[k]), note)
	}
	for _, k := range calibrate.MemoryKeys() {
		fmt.Fprintf(e.stdout, "  %-15s %.0f bytes\n", k, p.Costs[k])
	}
	writeFitTable(e.stdout, "fit (the runs the costs were fitted on: not a validation)", res.Fitted)
	writeExtrasTable(e.stdout, res.Extras)
	writeHeldOutTable(e.stdout, res.HeldOut, res.HeldOutSizes)
	if cmd.Validate {
		writeFitTable(e.stdout, "validation (sizes never fitted)", res.Validation)
	}
	if len(res.Degenerate) > 0 && !cmd.Force {
		fmt.Fprintf(e.stderr, "nginx-lint: not writing %s: the held-out check refuses it:\n", cmd.Output)
		for _, s := range res.Degenerate {
			fmt.Fprintf(e.stderr, "  - %s\n", s)
		}
		fmt.Fprintln(e.stderr, "  time more and larger sizes (--sizes, --runs), or write it anyway with --force")
		return p, exitFindings, nil
	}
	b, err := costmodel.MarshalProfile(p)
	if err != nil {
		return nil, exitError, err
	}
	if real, err := atomicfile.WriteFile(cmd.Output, append(b, '\n'), atomicfile.Options{}); err != nil {
		return nil, exitError, fmt.Errorf("%s: %s", cmd.Output, writeError(err, real, ""))
	}
	if len(res.Degenerate) > 0 {
		fmt.Fprintf(e.stderr, "nginx-lint: wrote %s although the held-out check refuses it (--force): %s\n", cmd.Output, strings.Join(res.Degenerate, "; "))
	}
	fmt.Fprintf(e.stdout, "\nwrote %s\n", cmd.Output)
	return p, exitClean, nil
}

// calibrateProgress shows a calibration's advance on the progress line,
// and each configuration's medians above it as they are known.
type calibrateProgress struct{ p *progress }

func (c calibrateProgress) Measured(done, planned int, label string, left time.Duration) {
	c.p.step(done, planned, label, left)
}

func (c calibrateProgress) Timed(label string, m calibrate.Measurement) {
	c.p.printf("  %s: wall %.3f s, cpu %.3f s\n", label, m.Wall, m.CPU)
}

// writeReloadRow prints one layout's start and reload, predicted against
// the medians measured.
func writeReloadRow(w io.Writer, r calibrate.ReloadRun) {
	fmt.Fprintf(w, "| %s | %d | %.3f s | %.3f s ±%.3f | %+.0f%% | %.3f s | %.3f s ±%.3f | %+.0f%% |\n", r.Layout, r.Servers,
		r.PredictedStart, r.Start, spreadOf(r.StartRuns), 100*(r.PredictedStart-r.Start)/r.Start,
		r.PredictedReload, r.Reload, spreadOf(r.ReloadRuns), 100*(r.PredictedReload-r.Reload)/r.Reload)
}

// spreadOf is half the range of v, as calibrate reports a spread.
func spreadOf(v []float64) float64 {
	if len(v) < 2 {
		return 0
	}
	return (slices.Max(v) - slices.Min(v)) / 2
}

// writeHeldOutTable prints the held-out predictions against the
// measurements, and the verdict on each size.
func writeHeldOutTable(w io.Writer, runs []calibrate.Prediction, sizes []calibrate.SizeCheck) {
	fmt.Fprintln(w, "\nheld out (each size predicted by costs fitted on the other sizes):")
	if len(runs) == 0 {
		fmt.Fprintln(w, "none: no size can be predicted from the others alone")
		return
	}
	fmt.Fprint(w, "| layout | servers | predicted | measured (median) | error |\n|---|---|---|---|---|\n")
	var pred, meas []float64
	for _, h := range runs {
		pred, meas = append(pred, h.Predicted), append(meas, h.Measured)
		fmt.Fprintf(w, "| %s | %d | %.3f s | %.3f s | %+.0f%% |\n", h.Layout, h.Servers, h.Predicted, h.Measured, 100*(h.Predicted-h.Measured)/h.Measured)
	}
	med, worst, rank := costmodel.Errors(pred, meas)
	fmt.Fprintf(w, "held-out median |error| %.1f%%, worst %.1f%%, rank correlation %.3f\n", 100*med, 100*worst, rank)
	for _, c := range sizes {
		verdict := fmt.Sprintf("judged (%.0f%% allowed)", 100*calibrate.MaxHeldOutError)
		if !c.Judged {
			verdict = "not judged: the runs spread too far to tell"
		}
		fmt.Fprintf(w, "  size %d: median |error| %.1f%%, %.1f%% beyond the noise (runs spread ±%.1f%%): %s\n",
			c.Servers, 100*c.Error, 100*c.Beyond, 100*c.Spread, verdict)
	}
}

// writeExtrasTable prints the L3c variants that price locations, regexes
// and certificates.
func writeExtrasTable(w io.Writer, runs []calibrate.ExtraRun) {
	fmt.Fprint(w, "\nlocations, regexes and certificates (L3c variants):\n| configuration | measured (median) | spread | runs |\n|---|---|---|---|\n")
	for _, r := range runs {
		fmt.Fprintf(w, "| %s | %.3f s | ±%.3f s | %d |\n", r.Label, r.Seconds, r.Noise, len(r.Runs))
	}
}

// writeFitTable prints predicted against measured seconds with the error
// of each run and the summary, and what the reference profile (the one
// the fit started from) predicts: cost's figures before calibrate.
func writeFitTable(w io.Writer, title string, runs []calibrate.LayoutRun) {
	fmt.Fprintf(w, "\n%s:\n| layout | servers | predicted | measured (median) | spread | runs | error | reference profile | error | wall (median) | peak RSS |\n|---|---|---|---|---|---|---|---|---|---|---|\n", title)
	var pred, ref, meas []float64
	for _, r := range runs {
		pred, ref, meas = append(pred, r.Predicted), append(ref, r.Reference), append(meas, r.Seconds)
		fmt.Fprintf(w, "| %s | %d | %.3f s | %.3f s | ±%.1f%% | %d | %+.0f%% | %.3f s | %+.0f%% | %.3f s | %s |\n", r.Layout, r.Servers, r.Predicted, r.Seconds,
			100*r.Noise()/r.Seconds, len(r.Runs), 100*(r.Predicted-r.Seconds)/r.Seconds, r.Reference, 100*(r.Reference-r.Seconds)/r.Seconds,
			r.Median.Wall, report.Megabytes(r.Median.RSS))
	}
	med, worst, rank := costmodel.Errors(pred, meas)
	fmt.Fprintf(w, "median |error| %.1f%%, worst %.1f%%, rank correlation %.3f\n", 100*med, 100*worst, rank)
	med, worst, rank = costmodel.Errors(ref, meas)
	fmt.Fprintf(w, "the reference profile, before calibrate: median |error| %.1f%%, worst %.1f%%, rank correlation %.3f\n", 100*med, 100*worst, rank)
}
