package calibrate

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
)

// minShare is the smallest share of some run's time an operation must
// take for its cost to be fitted: below it the runs cannot tell the cost
// from noise (name warnings on small layouts), so it keeps base's value
// and is marked assumed instead of being fitted at zero or at nonsense.
// It is the floor that holds when the runs show no noise (one run each).
const minShare = 0.005

// noiseMargin is how many times the run-to-run noise a difference must
// exceed to count as measured: a cost below noiseMargin standard errors,
// an error within noiseMargin times the noise of the runs it compares.
const noiseMargin = 2

// Unidentified is a cost the runs could not measure: its operations take
// too small a share of every run, or its estimate is within the noise of
// the runs. It keeps its value from the base profile and is marked
// assumed in the profile.
type Unidentified struct {
	// Key is the cost (costmodel.Cost*).
	Key string
	// Kept is the value it keeps, from Options.Base.
	Kept float64
	// Why says what was measured: the share, or the estimate and its
	// standard error.
	Why string
}

// spread is the run-to-run noise of a median: half the range of its
// runs (0 for fewer than two). Three runs rarely span more than four
// standard deviations, so it errs on the side of calling a difference
// noise.
func spread(v []float64) float64 {
	if len(v) < 2 {
		return 0
	}
	return (slices.Max(v) - slices.Min(v)) / 2
}

// Noise is the spread of r's runs (half their range) in seconds: how far
// apart runs of one configuration fell.
func (r LayoutRun) Noise() float64 { return spread(r.Runs) }

// fit is a fitted profile with what the guard needs to judge it.
type fit struct {
	p            *costmodel.Profile
	unidentified []Unidentified
	// keys are the costs fitted (identified); cov their estimates'
	// covariance from the runs' noise, nil when the runs show none.
	keys []string
	cov  [][]float64
	// keptSE is the standard error of each cost found within the noise
	// of zero and its base value: keeping the base value is a guess that
	// uncertain.
	keptSE map[string]float64
}

// predictionNoise is the standard deviation that the noise of the fitted
// runs gives a prediction of ops: that of the fitted costs, and that of
// the costs kept at their base values because the runs could not tell
// them from zero or from the base value (a held-out fit on the larger
// sizes cannot measure the process start, so the prediction of the
// smallest size is no better than that guess).
func (f *fit) predictionNoise(ops map[string]float64) float64 {
	v := 0.0
	if f.cov != nil {
		for i, a := range f.keys {
			for j, b := range f.keys {
				v += ops[a] * f.cov[i][j] * ops[b]
			}
		}
	}
	for k, se := range f.keptSE {
		v += ops[k] * ops[k] * se * se
	}
	return math.Sqrt(max(v, 0))
}

// fitRuns fits the time costs on runs, then the memory costs on their peak
// resident sets, starting from base.
//
// A cost is fitted only when the runs can identify it. A cost whose
// operations take under minShare of every run keeps base's value. When
// the runs show noise (LayoutRun.Noise), the standard error of each
// estimate follows from it, and a cost is unidentified when its estimate
// is within noiseMargin standard errors of zero and of its base value
// alike: the runs cannot tell which. The least identified one keeps
// base's value, the others are refitted without it, until each one left
// is measured. An estimate near zero that rules the base value out is a
// measurement (this machine does that work faster); one at zero, the
// bound of the fit, is not: the runs would put it below zero, so it is
// unidentified and keeps base's value too, and the held-out check judges
// the profile that results.
func fitRuns(runs []LayoutRun, base *costmodel.Profile) (*fit, error) {
	var obs, mem []costmodel.Observation
	var noise []float64
	for _, r := range runs {
		obs = append(obs, costmodel.Observation{Label: r.Layout.String(), Ops: r.Ops, Seconds: r.Seconds})
		mem = append(mem, costmodel.Observation{Label: r.Layout.String(), Ops: r.mem, Seconds: float64(r.Median.RSS)})
		noise = append(noise, r.Noise())
	}
	f := &fit{}
	var keys []string
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
			f.unidentified = append(f.unidentified, Unidentified{Key: k, Kept: base.Costs[k],
				Why: fmt.Sprintf("at most %.2f%% of any run's time at the base value (under %.1f%%)", 100*share, 100*minShare)})
		}
	}
	noisy := slices.ContainsFunc(noise, func(n float64) bool { return n > 0 })
	for {
		p, err := costmodel.Fit(obs, base, keys)
		if err != nil {
			return nil, err
		}
		f.p, f.keys, f.cov = p, keys, nil
		if len(keys) == 0 {
			break
		}
		var cov [][]float64
		if noisy {
			if cov, err = covariance(obs, noise, keys); err == nil {
				f.cov = cov
			}
		}
		// A cost fitted at zero is one the runs cannot measure: the fit
		// would have it below zero, and zero is only the bound. It is
		// unidentified, keeps the base value as the others the runs
		// cannot tell apart do, and the rest are fitted again; whether
		// the profile then predicts well is the held-out check's to say.
		if i := slices.IndexFunc(keys, func(k string) bool { return p.Costs[k] <= 0 }); i >= 0 {
			k := keys[i]
			why := "fitted at zero: the runs cannot measure it"
			se := 0.0
			if cov != nil {
				se = math.Sqrt(max(cov[i][i], 0))
			}
			if se > 1e-6*base.Costs[k] {
				why = fmt.Sprintf("fitted at zero ± %s (the runs' noise): the runs cannot measure it", costmodel.Seconds(se))
			}
			f.unidentified = append(f.unidentified, Unidentified{Key: k, Kept: base.Costs[k], Why: why})
			if f.keptSE == nil {
				f.keptSE = map[string]float64{}
			}
			// Kept at the base value, a prediction is as uncertain as the
			// runs' noise left the cost; a base value far from what the
			// runs say shows in the held-out errors beyond that.
			f.keptSE[k] = se
			keys = slices.Delete(slices.Clone(keys), i, i+1)
			continue
		}
		if f.cov == nil {
			// No noise (or rounding the fit survived): judge without it.
			break
		}
		worst, worstRatio := -1, math.Inf(1)
		for i, k := range keys {
			se := math.Sqrt(max(cov[i][i], 0))
			v := p.Costs[k]
			if se > 0 && v < noiseMargin*se && math.Abs(base.Costs[k]-v) <= noiseMargin*se && v/se < worstRatio {
				worst, worstRatio = i, v/se
			}
		}
		if worst < 0 {
			break
		}
		k := keys[worst]
		se := math.Sqrt(cov[worst][worst])
		why := fmt.Sprintf("fitted %s ± %s (the runs' noise): within %d standard errors of both zero and the base value", costmodel.Seconds(p.Costs[k]), costmodel.Seconds(se), noiseMargin)
		if p.Costs[k] <= 0 {
			why = fmt.Sprintf("fitted at zero ± %s: the runs' noise cannot rule out the base value", costmodel.Seconds(se))
		}
		f.unidentified = append(f.unidentified, Unidentified{Key: k, Kept: base.Costs[k], Why: why})
		if f.keptSE == nil {
			f.keptSE = map[string]float64{}
		}
		f.keptSE[k] = se
		keys = slices.Delete(slices.Clone(keys), worst, worst+1)
	}
	for _, u := range f.unidentified {
		if !f.p.IsAssumed(u.Key) {
			f.p.Assumed = append(f.p.Assumed, u.Key)
		}
	}
	// Memory is fitted the same way on the peak resident set of each run;
	// when that fit fails, the memory costs keep base's values.
	if pm, err := costmodel.Fit(mem, f.p, MemoryKeys()); err == nil {
		f.p = pm
	}
	return f, nil
}

// covariance is the covariance of the estimates of keys that
// costmodel.Fit's weighted least squares (weights 1/seconds²) makes when
// each observation's seconds carry noise of standard deviation sd:
// A⁻¹ B A⁻¹ with A = Σ w x xᵀ and B = Σ w² sd² x xᵀ. Columns are scaled
// so that counts of 1 and of 10⁸ invert alike.
func covariance(obs []costmodel.Observation, sd []float64, keys []string) ([][]float64, error) {
	n := len(keys)
	a, b := square(n), square(n)
	for i, o := range obs {
		if o.Seconds <= 0 {
			continue
		}
		w := 1 / (o.Seconds * o.Seconds)
		for r, kr := range keys {
			for c, kc := range keys {
				xx := o.Ops[kr] * o.Ops[kc]
				a[r][c] += w * xx
				b[r][c] += w * w * sd[i] * sd[i] * xx
			}
		}
	}
	scale := make([]float64, n)
	for i := range scale {
		scale[i] = math.Sqrt(a[i][i])
		if scale[i] == 0 {
			return nil, errors.New("no observation counts " + keys[i])
		}
	}
	for r := range n {
		for c := range n {
			a[r][c] /= scale[r] * scale[c]
			b[r][c] /= scale[r] * scale[c]
		}
	}
	ai, err := invert(a)
	if err != nil {
		return nil, err
	}
	cov := mul(mul(ai, b), ai)
	for r := range n {
		for c := range n {
			cov[r][c] /= scale[r] * scale[c]
		}
	}
	return cov, nil
}

func square(n int) [][]float64 {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
	}
	return m
}

func mul(x, y [][]float64) [][]float64 {
	n := len(x)
	out := square(n)
	for i := range n {
		for j := range n {
			for k := range n {
				out[i][j] += x[i][k] * y[k][j]
			}
		}
	}
	return out
}

// invert inverts m by Gauss-Jordan elimination with partial pivoting.
func invert(m [][]float64) ([][]float64, error) {
	n := len(m)
	a := square(n)
	inv := square(n)
	for i := range n {
		copy(a[i], m[i])
		inv[i][i] = 1
	}
	for c := range n {
		piv := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[piv][c]) {
				piv = r
			}
		}
		if math.Abs(a[piv][c]) < 1e-12 {
			return nil, errors.New("singular")
		}
		a[c], a[piv] = a[piv], a[c]
		inv[c], inv[piv] = inv[piv], inv[c]
		d := a[c][c]
		for k := range n {
			a[c][k] /= d
			inv[c][k] /= d
		}
		for r := range n {
			if r == c || a[r][c] == 0 {
				continue
			}
			f := a[r][c]
			for k := range n {
				a[r][k] -= f * a[c][k]
				inv[r][k] -= f * inv[c][k]
			}
		}
	}
	return inv, nil
}

// SizeCheck is the held-out verdict on one fitted size: its layouts
// predicted by costs fitted on the other sizes alone.
type SizeCheck struct {
	Servers int
	// Error is the median |error| of the size's predictions (+Inf when
	// the other sizes cannot be fitted); Beyond the median of the part of
	// each |error| that exceeds noiseMargin times the noise of the
	// prediction (the spread of the measured runs and what the noise of
	// the fitted runs gives the predicted seconds), relative to the
	// measured seconds. Without noise the two are equal.
	Error, Beyond float64
	// Spread is the median over the size's layouts of their runs'
	// spread (LayoutRun.Noise) relative to their medians.
	Spread float64
	// Judged is false when noiseMargin times Spread reaches
	// MaxHeldOutError: noise alone makes errors that large at this size,
	// so its runs cannot tell a good prediction from a bad one.
	Judged bool
}

// heldOut validates the fit on runs it was not fitted on: for each size,
// it fits the costs on the other sizes and predicts that size's layouts
// (leave one size out). It returns the predictions and the verdict on
// each size. With one size there is nothing to hold out.
func heldOut(runs []LayoutRun, base *costmodel.Profile) ([]Prediction, []SizeCheck) {
	var sizes []int
	for _, r := range runs {
		if !slices.Contains(sizes, r.Servers) {
			sizes = append(sizes, r.Servers)
		}
	}
	if len(sizes) < 2 {
		return nil, nil
	}
	var out []Prediction
	var checks []SizeCheck
	for _, n := range sizes {
		var train, test []LayoutRun
		for _, r := range runs {
			if r.Servers == n {
				test = append(test, r)
			} else {
				train = append(train, r)
			}
		}
		var errs, beyond, spreads []float64
		for _, r := range test {
			if r.Seconds > 0 {
				spreads = append(spreads, r.Noise()/r.Seconds)
			}
		}
		c := SizeCheck{Servers: n, Spread: medianOf(spreads)}
		c.Judged = noiseMargin*c.Spread < MaxHeldOutError
		f, err := fitRuns(train, base)
		if err != nil {
			c.Error, c.Beyond = math.Inf(1), math.Inf(1)
			checks = append(checks, c)
			continue
		}
		for _, r := range test {
			h := Prediction{Layout: r.Layout, Servers: r.Servers, Predicted: predict(r.Ops, f.p), Measured: r.Seconds}
			out = append(out, h)
			if r.Seconds <= 0 {
				continue
			}
			d := math.Abs(h.Predicted - h.Measured)
			tol := noiseMargin * math.Hypot(r.Noise(), f.predictionNoise(r.Ops))
			errs = append(errs, d/r.Seconds)
			beyond = append(beyond, max(0, d-tol)/r.Seconds)
		}
		c.Error, c.Beyond = medianOf(errs), medianOf(beyond)
		checks = append(checks, c)
	}
	return out, checks
}

// medianOf is the median of v (the mean of the middle two of an even
// count), 0 for none; v is not changed.
func medianOf(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(v))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// degenerate lists what makes a fitted profile unfit to use, each a
// reason the held-out figures show: a held-out size predicted badly
// beyond the noise of the runs, a size the others cannot be fitted
// without, or no held-out size whose runs are steady enough to judge. A
// cost the runs could not measure (at zero, or within the noise) is no
// reason: it keeps the base value, and the held-out check judges the
// profile with it.
func degenerate(checks []SizeCheck) []string {
	var out []string
	judged := 0
	for _, c := range checks {
		switch {
		case math.IsInf(c.Error, 1):
			out = append(out, fmt.Sprintf("held-out size %d: the other sizes alone cannot separate the costs (time three or more sizes)", c.Servers))
		case !c.Judged:
		case c.Beyond > MaxHeldOutError && c.Beyond == c.Error:
			out = append(out, fmt.Sprintf("held-out size %d predicted with a median error of %.0f%% (more than %.0f%%)", c.Servers, 100*c.Error, 100*MaxHeldOutError))
		case c.Beyond > MaxHeldOutError:
			out = append(out, fmt.Sprintf("held-out size %d predicted with a median error of %.0f%%, %.0f%% beyond the runs' noise (more than %.0f%%)",
				c.Servers, 100*c.Error, 100*c.Beyond, 100*MaxHeldOutError))
		}
		if c.Judged {
			judged++
		}
	}
	if len(checks) > 0 && judged == 0 && !slices.ContainsFunc(checks, func(c SizeCheck) bool { return math.IsInf(c.Error, 1) }) {
		spreads := make([]string, len(checks))
		for i, c := range slices.SortedFunc(slices.Values(checks), func(a, b SizeCheck) int { return a.Servers - b.Servers }) {
			spreads[i] = fmt.Sprintf("%d: ±%.0f%%", c.Servers, 100*c.Spread)
		}
		out = append(out, fmt.Sprintf("no held-out size can be judged: the runs of every size spread too far (%s; %d times that must stay under %.0f%%): time larger sizes or more runs",
			strings.Join(spreads, ", "), noiseMargin, 100*MaxHeldOutError))
	}
	return out
}

// heldOutErrors is the median |error| of each held-out size.
func heldOutErrors(checks []SizeCheck) map[int]float64 {
	m := make(map[int]float64, len(checks))
	for _, c := range checks {
		m[c.Servers] = c.Error
	}
	return m
}
