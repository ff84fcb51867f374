package calibrate

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
)

// The degenerate-fit guard against synthetic machines: a clean one is
// fitted exactly (TestRunFindsTheCosts), a noisy one that follows the
// model is usable with the costs its noise hides kept at their base
// values, and one that contradicts the model is refused with the reason.

// warningBase is the reference profile with a name warning costing 1 µs:
// on the test sizes the warnings of L3b then take about 1% of its time,
// enough to be fitted, and within ±10% noise.
func warningBase() *costmodel.Profile {
	p := testProfile()
	p.Costs[costmodel.CostNameWarning] = 1e-6
	return p
}

// noWarnings is a machine twice as slow as the reference on which name
// warnings cost nothing, as on the machine that refused "fitted at zero:
// name-warning".
func noWarnings() map[string]float64 {
	c := twiceAsSlow()
	c[costmodel.CostNameWarning] = 0
	return c
}

// TestRunNoisyConsistent: runs spread by ±10% on a machine that follows
// the model. The fit is usable; name-warning, whose share is within the
// noise, is unidentified and keeps the base value instead of being fitted
// at zero; the costs the runs do identify are near the machine's; and
// every held-out size is judged.
func TestRunNoisyConsistent(t *testing.T) {
	m := &syntheticMachine{costs: noWarnings(), noise: 0.10}
	res := run(t, m, Options{Runs: 3, Base: warningBase()})
	if len(res.Degenerate) > 0 {
		t.Fatalf("degenerate: %q", res.Degenerate)
	}
	p := res.Profile
	i := slices.IndexFunc(res.Unidentified, func(u Unidentified) bool { return u.Key == costmodel.CostNameWarning })
	if i < 0 || res.Unidentified[i].Kept != 1e-6 || p.Costs[costmodel.CostNameWarning] != 1e-6 || !p.IsAssumed(costmodel.CostNameWarning) ||
		!strings.Contains(res.Unidentified[i].Why, "noise") {
		t.Fatalf("name-warning %v, unidentified %+v, assumed %v", p.Costs[costmodel.CostNameWarning], res.Unidentified, p.Assumed)
	}
	for _, u := range res.Unidentified {
		if p.Costs[u.Key] != u.Kept || !p.IsAssumed(u.Key) {
			t.Errorf("%s unidentified but %v (kept %v), assumed %v", u.Key, p.Costs[u.Key], u.Kept, p.IsAssumed(u.Key))
		}
	}
	// The costs that dominate these runs are identified, and near the
	// machine's.
	for _, k := range []string{costmodel.CostBase, costmodel.CostServer} {
		if p.IsAssumed(k) {
			t.Errorf("%s unidentified: %+v", k, res.Unidentified)
		} else if got, want := p.Costs[k], m.costs[k]; math.Abs(got-want) > 0.25*want {
			t.Errorf("%s: fitted %s, machine %s", k, costmodel.Seconds(got), costmodel.Seconds(want))
		}
	}
	if len(res.HeldOutSizes) != 3 {
		t.Fatalf("held-out sizes %+v", res.HeldOutSizes)
	}
	for _, c := range res.HeldOutSizes {
		if !c.Judged || c.Beyond > c.Error || c.Spread <= 0 {
			t.Errorf("held-out size %+v", c)
		}
	}
	for _, r := range res.Fitted {
		if len(r.Runs) != 9 || r.Noise() <= 0 || r.Noise() > 0.1*r.Seconds {
			t.Errorf("%v %d: runs %v, noise %v", r.Layout, r.Servers, r.Runs, r.Noise())
		}
	}
	if len(res.Extras) != 4 || res.Extras[0].Label != "L3c 3000 plain" || len(res.Extras[0].Runs) != 3 || res.Extras[0].Noise <= 0 {
		t.Errorf("extras %+v", res.Extras)
	}
}

// TestRunNoiselessZero: the same machine measured without noise puts
// name-warning at zero: a cost the runs cannot measure, unidentified and
// kept at the base value as the noisy run keeps it; the profile is
// written.
func TestRunNoiselessZero(t *testing.T) {
	res := run(t, &syntheticMachine{costs: noWarnings()}, Options{Runs: 3, Base: warningBase()})
	if len(res.Degenerate) > 0 {
		t.Fatalf("degenerate %q", res.Degenerate)
	}
	i := slices.IndexFunc(res.Unidentified, func(u Unidentified) bool { return u.Key == costmodel.CostNameWarning })
	if i < 0 || res.Unidentified[i].Why != "fitted at zero: the runs cannot measure it" || res.Profile.Costs[costmodel.CostNameWarning] != 1e-6 {
		t.Errorf("name-warning %v, unidentified %+v", res.Profile.Costs[costmodel.CostNameWarning], res.Unidentified)
	}
}

// TestRunCostAtZero: a machine whose small configurations take a little
// less than its per-server costs imply (its process start is below what
// the runs can see): the fit puts the process start at zero, the bound,
// as the machine that refused "fitted at zero: base" did. It is
// unidentified and keeps the reference value, as the costs within the
// noise do; the others are still measured; the held-out check passes and
// the profile is written.
func TestRunCostAtZero(t *testing.T) {
	c := twiceAsSlow()
	c[costmodel.CostBase] = 0
	ref := testProfile()
	ref.Costs[costmodel.CostBase] = 0.2e-3
	res := run(t, &syntheticMachine{costs: c, noise: 0.05, offset: -0.0003}, Options{Runs: 3, Base: ref})
	if len(res.Degenerate) > 0 {
		t.Fatalf("degenerate: %q; unidentified %+v", res.Degenerate, res.Unidentified)
	}
	p := res.Profile
	i := slices.IndexFunc(res.Unidentified, func(u Unidentified) bool { return u.Key == costmodel.CostBase })
	if i < 0 || !strings.HasPrefix(res.Unidentified[i].Why, "fitted at zero ± ") || p.Costs[costmodel.CostBase] != 0.2e-3 ||
		!p.IsAssumed(costmodel.CostBase) {
		t.Fatalf("base %s, unidentified %+v", costmodel.Seconds(p.Costs[costmodel.CostBase]), res.Unidentified)
	}
	for _, k := range []string{costmodel.CostServer, costmodel.CostSocket} {
		if got, want := p.Costs[k], c[k]; p.IsAssumed(k) || math.Abs(got-want) > 0.25*want {
			t.Errorf("%s: fitted %s (assumed %v), machine %s; unidentified %+v; assumed %v", k, costmodel.Seconds(got), p.IsAssumed(k), costmodel.Seconds(want), res.Unidentified, p.Assumed)
		}
	}
}

// TestRunWritesTenOfTen: ten calibrations of a noisy machine like this
// one (the reference's costs but a process start the runs cannot see,
// runs spread ±15% on the small layouts and ±5% on the large ones, each
// with its own draw of the noise) all write their profile: no cost at
// zero, no noise, refuses it; only what the held-out check shows could.
func TestRunWritesTenOfTen(t *testing.T) {
	c := twiceAsSlow()
	c[costmodel.CostBase] = c[costmodel.CostBase] / 20
	for seed := range uint64(10) {
		m := &syntheticMachine{costs: c, noise: 0.15, noiseAt: func(servers int) float64 {
			if servers >= 500 {
				return 0.05
			}
			return 0.15
		}, rng: rand.New(rand.NewPCG(seed, 7))}
		res := run(t, m, Options{Runs: 3})
		if len(res.Degenerate) > 0 {
			t.Errorf("run %d of 10 refused: %q (unidentified %+v)", seed+1, res.Degenerate, res.Unidentified)
		}
	}
}

// TestRunNoisyInconsistent: runs spread by ±3% on a machine three times
// as slow at the largest size: the held-out error there is far beyond
// the noise, and the fit is refused saying so.
func TestRunNoisyInconsistent(t *testing.T) {
	m := &syntheticMachine{costs: twiceAsSlow(), noise: 0.03, scale: func(servers int) float64 {
		if servers >= 500 {
			return 3
		}
		return 1
	}}
	res := run(t, m, Options{Runs: 3})
	if !slices.ContainsFunc(res.Degenerate, func(s string) bool {
		return strings.HasPrefix(s, "held-out size 540 predicted with a median error of") && strings.Contains(s, "beyond the runs' noise (more than 35%)")
	}) {
		t.Errorf("degenerate %q, sizes %+v", res.Degenerate, res.HeldOutSizes)
	}
}

// TestRunChaotic: a machine whose times vary by ±90% from run to run
// leaves no size to judge; refused with that reason.
func TestRunChaotic(t *testing.T) {
	res := run(t, &syntheticMachine{costs: twiceAsSlow(), noise: 0.9}, Options{Runs: 3})
	if !slices.ContainsFunc(res.Degenerate, func(s string) bool { return strings.HasPrefix(s, "no held-out size can be judged: ") }) {
		t.Errorf("degenerate %q, sizes %+v", res.Degenerate, res.HeldOutSizes)
	}
}

// TestPriceExtras: a difference within the variants' spreads is
// unidentified and keeps the value; one beyond it is measured; one below
// zero beyond the noise measures nothing and keeps the value too.
func TestPriceExtras(t *testing.T) {
	p := testProfile()
	t0 := map[string]float64{"plain": 0.100, "locations": 0.101, "regex": 0.150, "ssl": 0.050}
	noise := map[string]float64{"plain": 0.002, "locations": 0.002, "regex": 0.002, "ssl": 0.002}
	un := priceExtras(p, t0, noise)
	loc := testProfile().Costs[costmodel.CostLocation]
	if len(un) < 1 || un[0].Key != costmodel.CostLocation || un[0].Kept != loc || p.Costs[costmodel.CostLocation] != loc ||
		!p.IsAssumed(costmodel.CostLocation) || !strings.Contains(un[0].Why, "within 2 times the runs' spread (±0.004 s)") {
		t.Errorf("unidentified %+v, location %v, assumed %v", un, p.Costs[costmodel.CostLocation], p.Assumed)
	}
	if got, want := p.Costs[costmodel.CostRegex], 0.049/(4*extraServers); !near(got, want) || p.IsAssumed(costmodel.CostRegex) {
		t.Errorf("regex %v, want %v", got, want)
	}
	if len(un) != 2 || un[1].Key != costmodel.CostSSLServer || p.Costs[costmodel.CostSSLServer] != testProfile().Costs[costmodel.CostSSLServer] ||
		!p.IsAssumed(costmodel.CostSSLServer) || !strings.Contains(un[1].Why, "no time to charge to it") {
		t.Errorf("ssl %v, unidentified %+v", p.Costs[costmodel.CostSSLServer], un)
	}
}

// TestCovariance: one cost, observations of equal seconds and noise sd:
// the estimate's variance is sd²/Σx², as for ordinary least squares.
func TestCovariance(t *testing.T) {
	var obs []costmodel.Observation
	var sd []float64
	sumSq := 0.0
	for _, x := range []float64{1, 2, 3, 4} {
		obs = append(obs, costmodel.Observation{Ops: map[string]float64{"k": x * 1000}, Seconds: 0.5})
		sd = append(sd, 0.01)
		sumSq += x * 1000 * x * 1000
	}
	cov, err := covariance(obs, sd, []string{"k"})
	if err != nil || !near(cov[0][0], 0.01*0.01/sumSq) {
		t.Errorf("covariance %v, %v, want %v", cov, err, 0.01*0.01/sumSq)
	}
	// Two costs no observation tells apart cannot be inverted.
	obs = []costmodel.Observation{{Ops: map[string]float64{"a": 1, "b": 1}, Seconds: 1}, {Ops: map[string]float64{"a": 2, "b": 2}, Seconds: 2}}
	if _, err := covariance(obs, []float64{0.1, 0.1}, []string{"a", "b"}); err == nil {
		t.Error("collinear costs inverted")
	}
}

func TestSpread(t *testing.T) {
	if spread(nil) != 0 || spread([]float64{3}) != 0 || spread([]float64{3, 1, 2}) != 1 {
		t.Error("spread")
	}
	r := LayoutRun{Layout: layout.All()[0], Runs: []float64{0.2, 0.3, 0.25}}
	if !near(r.Noise(), 0.05) {
		t.Errorf("noise %v", r.Noise())
	}
}

// TestRunNoisyFasterStart: a machine whose process start costs a tenth of
// the reference's, measured with ±10% noise. Its base cost is small but
// rules the reference value out, so it is measured, not kept: keeping
// 14.5 ms would push every other cost off.
func TestRunNoisyFasterStart(t *testing.T) {
	c := twiceAsSlow()
	c[costmodel.CostBase] = testProfile().Costs[costmodel.CostBase] / 10
	res := run(t, &syntheticMachine{costs: c, noise: 0.10}, Options{Runs: 3})
	if len(res.Degenerate) > 0 {
		t.Fatalf("degenerate: %q", res.Degenerate)
	}
	p := res.Profile
	for _, k := range []string{costmodel.CostBase, costmodel.CostServer} {
		if got, want := p.Costs[k], c[k]; p.IsAssumed(k) || math.Abs(got-want) > 0.5*want {
			t.Errorf("%s: fitted %s (assumed %v), machine %s", k, costmodel.Seconds(got), p.IsAssumed(k), costmodel.Seconds(want))
		}
	}
}

// TestPredictionNoise: a prediction carries the covariance of the fitted
// costs and the standard error of each cost kept at its base value, so
// a held-out size is not failed for a guess its training sizes could not
// check (the process start, fitted on the larger sizes alone).
func TestPredictionNoise(t *testing.T) {
	f := &fit{keys: []string{"a", "b"}, cov: [][]float64{{4, 1}, {1, 9}}}
	ops := map[string]float64{"a": 1, "b": 2, "base": 1}
	// 1·4·1 + 2·1·1·2 + 2·9·2 = 4 + 4 + 36
	if got := f.predictionNoise(ops); !near(got, math.Sqrt(44)) {
		t.Errorf("fitted only: %v", got)
	}
	f.keptSE = map[string]float64{"base": 3}
	if got := f.predictionNoise(ops); !near(got, math.Sqrt(53)) {
		t.Errorf("with a kept cost: %v", got)
	}
	if got := (&fit{}).predictionNoise(ops); got != 0 {
		t.Errorf("no noise: %v", got)
	}
}
