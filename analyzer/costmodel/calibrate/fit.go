package calibrate

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
)

// minShare is the smallest share of some run's time an operation must
// take for its cost to be fitted: below it the runs cannot tell the cost
// from noise (name warnings on small layouts), so it keeps base's value
// and is marked assumed instead of being fitted at zero or at nonsense.
const minShare = 0.005

// fitRuns fits the time costs on runs, then the memory costs on their peak
// resident sets, starting from base.
func fitRuns(runs []LayoutRun, base *costmodel.Profile) (*costmodel.Profile, error) {
	var obs, mem []costmodel.Observation
	for _, r := range runs {
		obs = append(obs, costmodel.Observation{Label: r.Layout.String(), Ops: r.Ops, Seconds: r.Seconds})
		mem = append(mem, costmodel.Observation{Label: r.Layout.String(), Ops: r.mem, Seconds: float64(r.Median.RSS)})
	}
	var keys, weak []string
	for _, k := range costmodel.FitKeys {
		share := 0.0
		for _, o := range obs {
			if o.Seconds > 0 {
				share = max(share, o.Ops[k]*base.Costs[k]/o.Seconds)
			}
		}
		if share >= minShare {
			keys = append(keys, k)
		} else {
			weak = append(weak, k)
		}
	}
	p, err := costmodel.Fit(obs, base, keys)
	if err != nil {
		return nil, err
	}
	for _, k := range weak {
		if !slices.Contains(p.Assumed, k) {
			p.Assumed = append(p.Assumed, k)
		}
	}
	// Memory is fitted the same way on the peak resident set of each run;
	// when that fit fails, the memory costs keep base's values.
	if pm, err := costmodel.Fit(mem, p, MemoryKeys()); err == nil {
		p = pm
	}
	return p, nil
}

// heldOut validates the fit on runs it was not fitted on: for each size,
// it fits the costs on the other sizes and predicts that size's layouts
// (leave one size out). It returns the predictions and, per held-out
// size, the median |error|. With one size there is nothing to hold out.
func heldOut(runs []LayoutRun, base *costmodel.Profile) ([]Prediction, map[int]float64) {
	var sizes []int
	for _, r := range runs {
		if !slices.Contains(sizes, r.Servers) {
			sizes = append(sizes, r.Servers)
		}
	}
	errs := map[int]float64{}
	if len(sizes) < 2 {
		return nil, errs
	}
	var out []Prediction
	for _, n := range sizes {
		var train, test []LayoutRun
		for _, r := range runs {
			if r.Servers == n {
				test = append(test, r)
			} else {
				train = append(train, r)
			}
		}
		p, err := fitRuns(train, base)
		if err != nil {
			errs[n] = math.Inf(1)
			continue
		}
		var pred, meas []float64
		for _, r := range test {
			h := Prediction{Layout: r.Layout, Servers: r.Servers, Predicted: predict(r.Ops, p), Measured: r.Seconds}
			out = append(out, h)
			pred, meas = append(pred, h.Predicted), append(meas, h.Measured)
		}
		errs[n], _, _ = costmodel.Errors(pred, meas)
	}
	return out, errs
}

// degenerate lists what makes a fitted profile unfit to use: a measured
// cost at zero (nginx spends time on every one of these operations, so
// zero means the runs could not tell it apart), or held-out sizes
// predicted badly.
func degenerate(p *costmodel.Profile, heldErrs map[int]float64) []string {
	var out []string
	var zero []string
	for _, k := range TimeKeys() {
		if p.Costs[k] <= 0 && !p.IsAssumed(k) {
			zero = append(zero, k)
		}
	}
	if len(zero) > 0 {
		out = append(out, "fitted at zero: "+strings.Join(zero, ", "))
	}
	for _, n := range slices.Sorted(maps.Keys(heldErrs)) {
		if e := heldErrs[n]; math.IsInf(e, 1) {
			out = append(out, fmt.Sprintf("held-out size %d: the other sizes alone cannot separate the costs (time three or more sizes)", n))
		} else if e > MaxHeldOutError {
			out = append(out, fmt.Sprintf("held-out size %d predicted with a median error of %.0f%% (more than %.0f%%)", n, 100*e, 100*MaxHeldOutError))
		}
	}
	return out
}
