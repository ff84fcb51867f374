package costmodel

import (
	"errors"
	"math"
	"slices"
	"sort"
)

// Observation is one measured run: the model's operation counts for a
// configuration (Result.Ops) and the seconds nginx -t took on it.
type Observation struct {
	Label   string
	Ops     map[string]float64
	Seconds float64
}

// FitKeys are the costs Fit estimates from the benchmark layouts; the
// layouts cannot tell the others apart, so they keep their values.
var FitKeys = []string{CostBase, CostServer, CostSocket, CostPortCompare, CostAddrCompare, CostAddrCompareFar,
	CostServerCompare, CostNameWarning}

// Fit estimates the costs of keys from observations by least squares on
// the relative error (each run weighs 1/seconds², so small and large
// configurations count alike), keeping every cost non-negative: a key
// whose estimate comes out negative is fixed at zero and the rest refitted.
// The other costs come from base. The result's Assumed list is base's
// minus keys.
func Fit(obs []Observation, base *Profile, keys []string) (*Profile, error) {
	// A key no observation counts cannot be fitted: it keeps base's
	// value (and its assumed state).
	keys = slices.DeleteFunc(slices.Clone(keys), func(k string) bool {
		return !slices.ContainsFunc(obs, func(o Observation) bool { return o.Ops[k] != 0 })
	})
	if len(obs) < len(keys) {
		return nil, errors.New("costmodel: fewer observations than costs to fit")
	}
	out := &Profile{Source: base.Source, Costs: map[string]float64{}, NearAddresses: base.NearAddresses, Measured: base.Measured}
	for k, v := range base.Costs {
		out.Costs[k] = v
	}
	for _, a := range base.Assumed {
		if !slices.Contains(keys, a) {
			out.Assumed = append(out.Assumed, a)
		}
	}
	active := slices.Clone(keys)
	for len(active) > 0 {
		x, err := weightedLS(obs, out, active, keys)
		if err != nil {
			return nil, err
		}
		neg := -1
		for i, v := range x {
			if v < 0 && (neg < 0 || v < x[neg]) {
				neg = i
			}
		}
		if neg < 0 {
			for i, k := range active {
				out.Costs[k] = x[i]
			}
			for _, k := range keys {
				if !slices.Contains(active, k) {
					out.Costs[k] = 0
				}
			}
			return out, nil
		}
		active = slices.Delete(active, neg, neg+1)
	}
	// Every key came out negative: all are at the bound.
	for _, k := range keys {
		out.Costs[k] = 0
	}
	return out, nil
}

// weightedLS solves min Σ ((Σ_k ops_k c_k − (t − fixed)) / t)² over the
// active keys, with the keys being fitted but inactive at zero and all
// other costs fixed at p's values.
func weightedLS(obs []Observation, p *Profile, active, fitting []string) ([]float64, error) {
	n := len(active)
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n+1)
	}
	for _, o := range obs {
		if o.Seconds <= 0 {
			continue
		}
		w := 1 / (o.Seconds * o.Seconds)
		y := o.Seconds
		for k, v := range o.Ops {
			if !slices.Contains(fitting, k) {
				y -= v * p.Costs[k]
			}
		}
		row := make([]float64, n)
		for i, k := range active {
			row[i] = o.Ops[k]
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				a[i][j] += w * row[i] * row[j]
			}
			a[i][n] += w * row[i] * y
		}
	}
	// Scale columns so that counts of 1 and of 10⁸ solve alike.
	scale := make([]float64, n)
	for i := range scale {
		scale[i] = math.Sqrt(a[i][i])
		if scale[i] == 0 {
			scale[i] = 1
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a[i][j] /= scale[i] * scale[j]
		}
		a[i][n] /= scale[i]
	}
	// Gaussian elimination with partial pivoting.
	for c := 0; c < n; c++ {
		piv := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[piv][c]) {
				piv = r
			}
		}
		if math.Abs(a[piv][c]) < 1e-12 {
			return nil, errors.New("costmodel: the observations cannot separate the costs " + active[c])
		}
		a[c], a[piv] = a[piv], a[c]
		for r := 0; r < n; r++ {
			if r == c {
				continue
			}
			f := a[r][c] / a[c][c]
			for k := c; k <= n; k++ {
				a[r][k] -= f * a[c][k]
			}
		}
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = a[i][n] / a[i][i] / scale[i]
	}
	return x, nil
}

// Errors summarises predicted against measured seconds: the median and
// worst absolute relative error and Spearman's rank correlation.
func Errors(pred, meas []float64) (median, worst, rank float64) {
	n := len(pred)
	if n == 0 || n != len(meas) {
		return 0, 0, 0
	}
	errs := make([]float64, n)
	for i := range pred {
		errs[i] = math.Abs(pred[i]-meas[i]) / meas[i]
	}
	sort.Float64s(errs)
	if n%2 == 1 {
		median = errs[n/2]
	} else {
		median = (errs[n/2-1] + errs[n/2]) / 2
	}
	worst = errs[n-1]
	return median, worst, spearman(pred, meas)
}

func spearman(x, y []float64) float64 {
	rx, ry := ranks(x), ranks(y)
	n := float64(len(x))
	var mx, my float64
	for i := range rx {
		mx += rx[i]
		my += ry[i]
	}
	mx /= n
	my /= n
	var sxy, sxx, syy float64
	for i := range rx {
		sxy += (rx[i] - mx) * (ry[i] - my)
		sxx += (rx[i] - mx) * (rx[i] - mx)
		syy += (ry[i] - my) * (ry[i] - my)
	}
	if sxx == 0 || syy == 0 {
		return 0
	}
	return sxy / math.Sqrt(sxx*syy)
}

// ranks gives average ranks (ties share the mean of their positions).
func ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	r := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
			j++
		}
		for k := i; k <= j; k++ {
			r[idx[k]] = float64(i+j)/2 + 1
		}
		i = j + 1
	}
	return r
}
