package calibrate

import (
	"maps"
	"slices"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
)

// nearCandidates are the sizes chooseNear tries for where the address
// scan leaves the CPU's cache (Profile.NearAddresses), besides the base
// profile's and 0 (no far steps): the L2 layouts put every server's
// address on one port, so their fitted sizes straddle some of these.
var nearCandidates = []int{1000, 2000, 3000, 4000, 5000, 6000, 8000, 10000, 12000, 16000}

// chooseNear returns base with the NearAddresses that fits runs best: for
// each candidate the runs' address scans are priced again and the costs
// fitted, and the one with the least squared relative error wins (base's
// own on a tie). Only candidates some run's port exceeds can change the
// fit; with none, base is returned as it is. A candidate must fit
// clearly better (1% of the error, and more than rounding) than base's,
// else base's stays.
func chooseNear(runs []LayoutRun, base *costmodel.Profile) *costmodel.Profile {
	most := 0
	for _, r := range runs {
		for _, s := range r.scans {
			most = max(most, s.Addrs)
		}
	}
	cands := []int{base.NearAddresses}
	for _, n := range append([]int{0}, nearCandidates...) {
		if n < most-1 && !slices.Contains(cands, n) {
			cands = append(cands, n)
		}
	}
	if len(cands) == 1 {
		return base
	}
	best, bestErr := base.NearAddresses, -1.0
	for _, n := range cands {
		rs := slices.Clone(runs)
		for i := range rs {
			rs[i].Ops = maps.Clone(rs[i].Ops)
		}
		reprice(rs, n)
		b := withNear(base, n)
		f, err := fitRuns(rs, b)
		if err != nil {
			continue
		}
		e := 0.0
		for _, r := range rs {
			if r.Seconds > 0 {
				d := (predict(r.Ops, f.p) - r.Seconds) / r.Seconds
				e += d * d
			}
		}
		// Another size must fit clearly better than the one before it
		// (base's first, then none): on runs that cannot tell them
		// apart, the split stays as it was.
		if bestErr < 0 || e < 0.99*bestErr-1e-6 {
			best, bestErr = n, e
		}
	}
	return withNear(base, best)
}

// withNear is a copy of p with NearAddresses n.
func withNear(p *costmodel.Profile, n int) *costmodel.Profile {
	c := *p
	c.Costs = maps.Clone(p.Costs)
	c.Assumed = slices.Clone(p.Assumed)
	c.NearAddresses = n
	return &c
}

// reprice splits each run's address compares into near and far steps at
// near addresses (costmodel.FarCompares), in place.
func reprice(runs []LayoutRun, near int) {
	for i := range runs {
		r := &runs[i]
		far := int64(0)
		for _, s := range r.scans {
			far += costmodel.FarCompares(s.Addrs, s.Compares, near) * int64(s.Width)
		}
		all := r.Ops[costmodel.CostAddrCompare] + r.Ops[costmodel.CostAddrCompareFar]
		r.Ops[costmodel.CostAddrCompareFar] = float64(far)
		r.Ops[costmodel.CostAddrCompare] = all - float64(far)
		if far == 0 {
			delete(r.Ops, costmodel.CostAddrCompareFar)
		}
	}
}
