package calibrate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
)

// Measurement is one timed `nginx -t`, or the medians of several.
type Measurement struct {
	// Wall and CPU are seconds: elapsed, and user plus system time.
	Wall, CPU float64
	// RSS is the peak resident set in bytes (0 where the system does not
	// report it).
	RSS int64
}

// Measure times one `nginx -t` of the configuration file conf. Run takes
// it as a dependency so that tests can fit against a synthetic machine
// without running nginx.
type Measure func(ctx context.Context, conf string) (Measurement, error)

// Progress receives a calibration's advance, for a display: a full run
// takes minutes. Run calls it from the goroutine that called Run.
type Progress interface {
	// Measured follows each measurement: done of planned measurements
	// so far (planned grows when short configurations are found to need
	// more runs, and when the extra variants start), the configuration
	// measured ("L2c 12000", "L3c 3000 regex") and an estimate of the
	// time the planned measurements still need.
	Measured(done, planned int, label string, left time.Duration)
	// Timed follows a configuration's last run with the medians of its
	// runs.
	Timed(label string, median Measurement)
}

// Options says what Run measures and how.
type Options struct {
	// Nginx is the nginx binary that Measure defaults to timing.
	Nginx string
	// Measure times one nginx -t; nil means NginxT(Nginx).
	Measure Measure
	// Sizes are the server counts the costs are fitted on: two or more
	// different ones (CheckSizes), three or more for every size to be
	// predictable from the others.
	Sizes []int
	// Runs is the number of runs per configuration, the median counting;
	// a configuration nginx -t reads in under 0.15 s runs three times as
	// often. Less than 1 means 1.
	Runs int
	// Wall fits the wall time of nginx -t. By default the CPU time (user
	// + system) is fitted, which other load on a shared machine disturbs
	// far less.
	Wall bool
	// Validate also times the nine layouts at 2000, 5000, 10000 and
	// 19900 servers, never fitted, for Result.Validation.
	Validate bool
	// Base is the profile the fits (the returned one and the held-out
	// ones) start from: the costs the runs cannot measure keep its
	// values, marked assumed. Nil means costmodel.DefaultProfile.
	Base *costmodel.Profile
	// Machine describes what was measured, for the profile's Source
	// (see DescribeMachine).
	Machine string
	// Progress, when set, is told of every measurement.
	Progress Progress
}

// LayoutRun is one layout at one size, timed and priced by the model.
type LayoutRun struct {
	Layout  layout.Layout
	Servers int
	// Seconds is the median of the fitted clock (Options.Wall).
	Seconds float64
	// Runs are the fitted clock's seconds of every run, in the order
	// they ran: their spread is the machine's noise, which the
	// degenerate-fit guard allows for.
	Runs []float64
	// Median holds the medians of both clocks and the largest peak
	// resident set of the runs.
	Median Measurement
	// Ops are the model's operation counts for the configuration.
	Ops map[string]float64
	// Predicted is the seconds Result.Profile predicts for it.
	Predicted float64
	// Reference is the seconds Options.Base (the shipped reference
	// profile by default) predicts for it: what cost says on this
	// machine before calibrate, beside what it says after.
	Reference float64

	// mem are the counts the memory costs multiply.
	mem map[string]float64
	// scans are its ports' address scans, to price them again for
	// another NearAddresses.
	scans []costmodel.AddrScan
}

// Prediction is a run predicted by costs fitted without its size.
type Prediction struct {
	Layout              layout.Layout
	Servers             int
	Predicted, Measured float64
}

// Result is what Run measured and fitted.
type Result struct {
	// Profile is the fitted profile, its Source naming Options.Machine
	// and the date, Measured the range of server counts timed.
	Profile *costmodel.Profile
	// Fitted are the runs the costs were fitted on (Options.Sizes), with
	// their predictions under Profile: an in-sample fit, which says
	// little about the model.
	Fitted []LayoutRun
	// Validation are the runs at sizes never fitted (Options.Validate).
	Validation []LayoutRun
	// HeldOut predicts each size's runs from costs fitted on the other
	// sizes alone; HeldOutSizes is the verdict on each size, and
	// HeldOutErrors its median |error| (+Inf when the other sizes cannot
	// be fitted). All are empty with fewer than two sizes.
	HeldOut       []Prediction
	HeldOutSizes  []SizeCheck
	HeldOutErrors map[int]float64
	// Unidentified are the time costs the runs could not measure, each
	// kept at its Options.Base value (and assumed in Profile), with why.
	Unidentified []Unidentified
	// Extras are the L3c variants that price locations, regexes and
	// certificates, as timed.
	Extras []ExtraRun
	// Degenerate says why Profile is unfit to use, one reason each, all
	// from the held-out check: a held-out size predicted with a median
	// error beyond the noise above MaxHeldOutError, a size the others
	// cannot be fitted without, or no size steady enough to judge. Empty
	// for a usable fit.
	Degenerate []string
}

// ExtraRun is one L3c variant of the extra costs, timed.
type ExtraRun struct {
	// Label names it ("L3c 3000 regex").
	Label string
	// Seconds is the median of the fitted clock, Noise the spread of the
	// runs (half their range).
	Seconds, Noise float64
	// Runs are the fitted clock's seconds of every run.
	Runs []float64
}

// MaxHeldOutError is the largest median |error| beyond the runs' noise
// accepted on the layouts of a held-out size; past it the costs do not
// describe how nginx's time grows and the profile would mislead.
const MaxHeldOutError = 0.35

// validationSizes are the server counts Options.Validate checks the
// fitted costs at (a variable so that tests can use small ones).
var validationSizes = []int{2000, 5000, 10000, 19900}

// TimeKeys are the time costs Run measures: those the layouts fit and
// those the L3c variants price.
func TimeKeys() []string {
	return append(slices.Clone(costmodel.FitKeys), costmodel.CostLocation, costmodel.CostRegex, costmodel.CostSSLServer)
}

// MemoryKeys are the memory costs Run fits on the peak resident sets.
func MemoryKeys() []string {
	return []string{costmodel.MemBase, costmodel.MemServer, costmodel.MemSocket}
}

// CheckSizes reports why sizes cannot be calibrated on: a count below
// one, or fewer than two different counts, which cannot tell a
// per-server cost from the fixed one and leave no size to validate on.
func CheckSizes(sizes []int) error {
	for _, n := range sizes {
		if n < 1 {
			return fmt.Errorf("%d is not a server count", n)
		}
	}
	if len(slices.Compact(slices.Sorted(slices.Values(sizes)))) < 2 {
		return errors.New("give two or more different server counts")
	}
	return nil
}

// Run times the layouts, fits the costs and checks the fit on held-out
// sizes. A degenerate fit is no error: it is returned with the reasons
// in Result.Degenerate. Errors are bad options, a measurement that
// failed, or ctx's.
func Run(ctx context.Context, opts Options) (*Result, error) {
	if err := CheckSizes(opts.Sizes); err != nil {
		return nil, fmt.Errorf("sizes: %w", err)
	}
	measure := opts.Measure
	if measure == nil {
		if opts.Nginx == "" {
			return nil, errors.New("calibrate: no nginx binary and no Measure")
		}
		measure = NginxT(opts.Nginx)
	}
	base := opts.Base
	if base == nil {
		base = costmodel.DefaultProfile()
	}
	runs := max(opts.Runs, 1)
	prog := &tracker{p: opts.Progress}
	// With Validate the validation layouts are timed in the same
	// round-robin as the calibration ones: a shared machine's speed drifts
	// over minutes, and timing them afterwards would validate against a
	// different machine than the one fitted.
	sizes := opts.Sizes
	if opts.Validate {
		sizes = append(slices.Clone(sizes), validationSizes...)
	}
	timed, err := timeLayouts(ctx, measure, sizes, runs, opts.Wall, prog)
	if err != nil {
		return nil, err
	}
	cut := len(opts.Sizes) * len(layout.All())
	res := &Result{Fitted: timed[:cut:cut], Validation: timed[cut:]}
	// What the base profile predicts before anything is fitted, its
	// address scans priced at its own NearAddresses.
	reprice(timed, base.NearAddresses)
	for i := range timed {
		timed[i].Reference = predict(timed[i].Ops, base)
	}
	// Where the address scan leaves the cache, from the fitted runs; the
	// profile's costs are fitted, and held out, at that size.
	base = chooseNear(res.Fitted, base)
	reprice(timed, base.NearAddresses)
	f, err := fitRuns(res.Fitted, base)
	if err != nil {
		return nil, err
	}
	p := f.p
	extras, unpriced, err := timeExtras(ctx, measure, p, runs, opts.Wall, prog)
	if err != nil {
		return nil, err
	}
	res.Extras = extras
	res.Unidentified = append(f.unidentified, unpriced...)
	p.Source = "fitted by nginx-lint calibrate on " + time.Now().UTC().Format("2006-01-02")
	if opts.Machine != "" {
		p.Source = opts.Machine + ", " + p.Source
	}
	p.Measured = [2]int{timed[0].Servers, timed[0].Servers}
	for _, r := range timed {
		p.Measured[0] = min(p.Measured[0], r.Servers)
		p.Measured[1] = max(p.Measured[1], r.Servers)
	}
	res.Profile = p
	for _, rs := range [][]LayoutRun{res.Fitted, res.Validation} {
		for i := range rs {
			rs[i].Predicted = predict(rs[i].Ops, p)
		}
	}
	res.HeldOut, res.HeldOutSizes = heldOut(res.Fitted, base)
	res.HeldOutErrors = heldOutErrors(res.HeldOutSizes)
	res.Degenerate = degenerate(res.HeldOutSizes)
	return res, nil
}

// predict prices operation counts at p's costs.
func predict(ops map[string]float64, p *costmodel.Profile) float64 {
	s := 0.0
	for k, v := range ops {
		s += v * p.Costs[k]
	}
	return s
}

// tracker counts measurements for Options.Progress, which may be nil.
type tracker struct {
	p             Progress
	done, planned int
}

// plan adds k measurements to the plan.
func (t *tracker) plan(k int) { t.planned += k }

// measured records one measurement of label done, with left the time the
// rest of the plan needs.
func (t *tracker) measured(label string, left time.Duration) {
	t.done++
	if t.p != nil {
		t.p.Measured(t.done, t.planned, label, left)
	}
}

// timed reports label's medians.
func (t *tracker) timed(label string, m Measurement) {
	if t.p != nil {
		t.p.Timed(label, m)
	}
}
