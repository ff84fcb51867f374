package calibrate

import (
	"context"
	"errors"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/parser"
)

// syntheticMachine is a fake nginx: it "times" a configuration as the cost
// model's operation counts priced at its own costs, so a fit must find
// those costs again.
type syntheticMachine struct {
	costs map[string]float64
	// scale, when set, multiplies the time of a configuration with this
	// many servers (a machine the model does not describe).
	scale func(servers int) float64
	// wallFactor, when set, makes the wall time this multiple of the CPU
	// time, so that a test can tell which clock was fitted.
	wallFactor float64
	// noise, when set, multiplies each run by a factor drawn evenly from
	// [1-noise, 1+noise] (seeded, so every test run draws alike): a
	// machine that follows the model, measured on a busy host.
	noise float64
	// noiseAt, when set, is the noise at a size instead (the small
	// layouts' runs spread more).
	noiseAt func(servers int) float64
	// offset is added to every time: a machine faster at the smallest
	// configurations than the model's costs allow, whose process start
	// fits at zero.
	offset float64
	// near, when set, is where the machine's address scan leaves its
	// cache (Profile.NearAddresses): past it a step costs
	// addr-compare-far.
	near  int
	rng   *rand.Rand
	calls int
}

func (m *syntheticMachine) measure(_ context.Context, conf string) (Measurement, error) {
	m.calls++
	src, err := os.ReadFile(conf)
	if err != nil {
		return Measurement{}, err
	}
	c := (&parser.Loader{Kinds: analyzer.Kinds}).LoadSource(conf, src, nil)
	res := costmodel.Compute(parser.BuildModel(c), costmodel.Options{Profile: &costmodel.Profile{Costs: m.costs, NearAddresses: m.near}})
	s := 0.0
	for k, v := range res.Ops() {
		s += v * m.costs[k]
	}
	if m.scale != nil {
		s *= m.scale(res.Counts.Servers)
	}
	s += m.offset
	if m.noise != 0 {
		if m.rng == nil {
			m.rng = rand.New(rand.NewPCG(1, 2))
		}
		noise := m.noise
		if m.noiseAt != nil {
			noise = m.noiseAt(res.Counts.Servers)
		}
		s *= 1 + noise*(2*m.rng.Float64()-1)
	}
	wall := s
	if m.wallFactor != 0 {
		wall *= m.wallFactor
	}
	rss := m.costs[costmodel.MemBase] + m.costs[costmodel.MemServer]*float64(res.Counts.Servers) + m.costs[costmodel.MemSocket]*float64(res.Counts.Addrs)
	return Measurement{Wall: wall, CPU: s, RSS: int64(rss)}, nil
}

// testProfile is the profile the synthetic machines are made from and
// the tests' fits start from: the reference profile as fitted on
// 2026-12-02, whose costs the tests' small layouts can all measure. The
// tests of the fit logic do not change with each re-measurement of the
// shipped profile (TestRunDefaultBase checks that Run starts from it).
func testProfile() *costmodel.Profile {
	p := costmodel.DefaultProfile()
	maps.Copy(p.Costs, map[string]float64{
		costmodel.CostBase: 14.5e-3, costmodel.CostServer: 17.1e-6, costmodel.CostLocation: 19.1e-6,
		costmodel.CostRegex: 4.3e-6, costmodel.CostPortCompare: 3.28e-9, costmodel.CostAddrCompare: 10.0e-9,
		costmodel.CostAddrCompareFar: 10.0e-9, costmodel.CostServerCompare: 3.43e-9, costmodel.CostSSLServer: 1.04e-3,
		costmodel.CostSocket: 11.9e-6,
	})
	p.NearAddresses = 0
	return p
}

// twiceAsSlow is the test profile with every cost doubled.
func twiceAsSlow() map[string]float64 {
	costs := testProfile().Costs
	for k := range costs {
		costs[k] *= 2
	}
	return costs
}

// testSizes are small enough to generate and price quickly, and three so
// that every size can be held out.
var testSizes = []int{60, 180, 540}

func run(t *testing.T, m *syntheticMachine, opts Options) *Result {
	t.Helper()
	opts.Measure = m.measure
	if opts.Base == nil {
		opts.Base = testProfile()
	}
	if opts.Sizes == nil {
		opts.Sizes = testSizes
	}
	res, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestRunFindsTheCosts: on a machine that follows the model, the fit
// finds its costs (time and memory), the held-out predictions are right,
// and the profile says what it measured.
func TestRunFindsTheCosts(t *testing.T) {
	m := &syntheticMachine{costs: twiceAsSlow()}
	res := run(t, m, Options{Runs: 1, Machine: "synthetic machine"})
	p := res.Profile
	if len(res.Degenerate) > 0 {
		t.Fatalf("degenerate: %q", res.Degenerate)
	}
	// Name warnings are too small a share of these small layouts to
	// measure: kept from the reference and marked assumed.
	if !p.IsAssumed(costmodel.CostNameWarning) || p.Costs[costmodel.CostNameWarning] != testProfile().Costs[costmodel.CostNameWarning] {
		t.Errorf("name-warning %v, assumed %v", p.Costs[costmodel.CostNameWarning], p.Assumed)
	}
	for _, k := range append(TimeKeys(), MemoryKeys()...) {
		if p.IsAssumed(k) {
			// No port of these sizes leaves the cache: the far step of
			// the address scan cannot be measured either.
			if k != costmodel.CostNameWarning && k != costmodel.CostAddrCompareFar {
				t.Errorf("%s assumed", k)
			}
			continue
		}
		if got, want := p.Costs[k], m.costs[k]; math.Abs(got-want) > 0.05*want {
			t.Errorf("%s: fitted %s, machine %s", k, costmodel.Seconds(got), costmodel.Seconds(want))
		}
	}
	if !strings.HasPrefix(p.Source, "synthetic machine, fitted by nginx-lint calibrate on 20") || p.Measured != [2]int{60, 540} {
		t.Errorf("source %q, measured %v", p.Source, p.Measured)
	}
	if len(res.Fitted) != 27 || len(res.Validation) != 0 {
		t.Fatalf("%d fitted runs, %d validation runs", len(res.Fitted), len(res.Validation))
	}
	for _, r := range res.Fitted {
		if math.Abs(r.Predicted-r.Seconds) > 0.05*r.Seconds || r.Median.RSS <= 0 {
			t.Errorf("%v %d: predicted %v, measured %v, rss %d", r.Layout, r.Servers, r.Predicted, r.Seconds, r.Median.RSS)
		}
		// The reference profile, half as costly as this machine in
		// every cost, predicts half its time.
		if math.Abs(2*r.Reference-r.Seconds) > 1e-9*r.Seconds {
			t.Errorf("%v %d: the reference profile predicts %v, measured %v", r.Layout, r.Servers, r.Reference, r.Seconds)
		}
	}
	// Every size is predicted from the others, and well.
	if len(res.HeldOut) != 27 {
		t.Errorf("%d held-out predictions", len(res.HeldOut))
	}
	for _, n := range testSizes {
		if e, ok := res.HeldOutErrors[n]; !ok || e > 0.01 {
			t.Errorf("held-out %d: error %v (%v)", n, e, ok)
		}
	}
	// Nine layouts at three sizes, one run each (all short: three), and
	// four L3c variants.
	if m.calls != 27*3+4 {
		t.Errorf("%d measurements", m.calls)
	}
}

// TestRunDefaultBase: without Options.Base, Run starts from the shipped
// reference profile, and says what it predicts.
func TestRunDefaultBase(t *testing.T) {
	m := &syntheticMachine{costs: twiceAsSlow()}
	res, err := Run(context.Background(), Options{Measure: m.measure, Sizes: testSizes, Runs: 1})
	if err != nil {
		t.Fatal(err)
	}
	ref := costmodel.DefaultProfile()
	for _, r := range res.Fitted {
		if want := predict(r.Ops, ref); math.Abs(r.Reference-want) > 1e-9*want {
			t.Errorf("%v %d: reference %v, the shipped profile predicts %v", r.Layout, r.Servers, r.Reference, want)
		}
	}
	for _, u := range res.Unidentified {
		if u.Kept != ref.Costs[u.Key] {
			t.Errorf("%s kept at %v, the shipped profile's is %v", u.Key, u.Kept, ref.Costs[u.Key])
		}
	}
}

// TestRunBase: a cost the runs cannot measure keeps the base profile's
// value, marked assumed; the measured ones do not depend on it.
func TestRunBase(t *testing.T) {
	base := testProfile()
	base.Costs[costmodel.CostNameWarning] = 1e-9
	base.Costs[costmodel.CostServer] *= 10
	res := run(t, &syntheticMachine{costs: twiceAsSlow()}, Options{Runs: 1, Base: base})
	p := res.Profile
	if !p.IsAssumed(costmodel.CostNameWarning) || p.Costs[costmodel.CostNameWarning] != 1e-9 {
		t.Errorf("name-warning %v, assumed %v", p.Costs[costmodel.CostNameWarning], p.Assumed)
	}
	if got, want := p.Costs[costmodel.CostServer], twiceAsSlow()[costmodel.CostServer]; math.Abs(got-want) > 0.05*want {
		t.Errorf("server %v, machine %v", got, want)
	}
}

// TestRunClock: Wall fits the wall medians, otherwise the CPU ones. A
// machine whose wall time is three times its CPU time fits, on the wall
// clock, the profile of a machine three times as slow on the CPU clock.
func TestRunClock(t *testing.T) {
	thrice := twiceAsSlow()
	for k := range thrice {
		thrice[k] *= 3
	}
	cpu := run(t, &syntheticMachine{costs: thrice}, Options{Runs: 1})
	wall := run(t, &syntheticMachine{costs: twiceAsSlow(), wallFactor: 3}, Options{Runs: 1, Wall: true})
	same := run(t, &syntheticMachine{costs: twiceAsSlow(), wallFactor: 3}, Options{Runs: 1})
	// (The memory costs of the slower machine are three times as large
	// too: only the time costs compare.)
	for _, k := range TimeKeys() {
		if a, b := cpu.Profile.Costs[k], wall.Profile.Costs[k]; !near(a, b) {
			t.Errorf("%s: %v on the CPU clock of a machine 3x as slow, %v on the wall clock", k, a, b)
		}
	}
	if a, b := same.Profile.Costs[costmodel.CostServer], 2*testProfile().Costs[costmodel.CostServer]; math.Abs(a-b) > 0.05*b {
		t.Errorf("CPU clock: server %v, machine %v", a, b)
	}
	for _, r := range wall.Fitted {
		if !near(r.Median.Wall, 3*r.Median.CPU) || r.Seconds != r.Median.Wall {
			t.Errorf("wall clock: seconds %v, medians %+v", r.Seconds, r.Median)
		}
	}
	for _, r := range same.Fitted {
		if r.Seconds != r.Median.CPU {
			t.Errorf("CPU clock: seconds %v, medians %+v", r.Seconds, r.Median)
		}
	}
}

// near reports whether a and b are equal but for rounding (sums over maps
// add in any order).
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(math.Abs(a), math.Abs(b)) }

// TestRunDegenerate: a machine whose time does not grow with the
// configuration fits every cost but the process start at zero: each is
// unidentified and keeps the reference value, and the profile is judged
// by its held-out predictions alone. Two sizes leave each held-out fit
// one size, which cannot separate per-server from fixed costs: refused
// with that reason.
func TestRunDegenerate(t *testing.T) {
	flat := &syntheticMachine{costs: map[string]float64{costmodel.CostBase: 0.05}}
	res := run(t, flat, Options{Runs: 1})
	ref := testProfile()
	for _, k := range []string{costmodel.CostServer, costmodel.CostSocket} {
		i := slices.IndexFunc(res.Unidentified, func(u Unidentified) bool { return u.Key == k })
		if i < 0 || !strings.HasPrefix(res.Unidentified[i].Why, "fitted at zero") || res.Profile.Costs[k] != ref.Costs[k] || !res.Profile.IsAssumed(k) {
			t.Errorf("flat machine: %s %v, unidentified %+v", k, res.Profile.Costs[k], res.Unidentified)
		}
	}
	for _, why := range res.Degenerate {
		if !strings.HasPrefix(why, "held-out size ") && !strings.HasPrefix(why, "no held-out size") {
			t.Errorf("flat machine refused for a reason the held-out check does not give: %q", why)
		}
	}
	res = run(t, &syntheticMachine{costs: twiceAsSlow()}, Options{Runs: 1, Sizes: []int{100, 300}})
	if len(res.HeldOut) != 0 || len(res.Degenerate) != 2 ||
		!strings.Contains(res.Degenerate[0], "held-out size 100: the other sizes alone cannot separate the costs") ||
		!strings.Contains(res.Degenerate[1], "held-out size 300:") {
		t.Errorf("two sizes: held out %v, degenerate %q", res.HeldOut, res.Degenerate)
	}
	if !math.IsInf(res.HeldOutErrors[100], 1) {
		t.Errorf("two sizes: errors %v", res.HeldOutErrors)
	}
}

// TestHeldOut: validation predicts each size from a fit on the others, so
// a size the others do not explain shows, where an in-sample fit would
// absorb it.
func TestHeldOut(t *testing.T) {
	m := &syntheticMachine{costs: twiceAsSlow(), scale: func(servers int) float64 {
		if servers >= 500 {
			return 3
		}
		return 1
	}}
	res := run(t, m, Options{Runs: 1})
	if !slices.ContainsFunc(res.Degenerate, func(s string) bool {
		return strings.HasPrefix(s, "held-out size 540 predicted with a median error of")
	}) || res.HeldOutErrors[540] <= MaxHeldOutError {
		t.Errorf("degenerate %q, errors %v", res.Degenerate, res.HeldOutErrors)
	}
	// The in-sample fit absorbs much of the jump.
	var pred, meas []float64
	for _, r := range res.Fitted {
		pred, meas = append(pred, r.Predicted), append(meas, r.Seconds)
	}
	if in, _, _ := costmodel.Errors(pred, meas); in >= res.HeldOutErrors[540] {
		t.Errorf("in-sample median error %v, held-out %v", in, res.HeldOutErrors[540])
	}
}

func TestDegenerate(t *testing.T) {
	got := degenerate([]SizeCheck{
		{Servers: 1000, Error: 0.2, Beyond: 0.2, Judged: true},
		{Servers: 3000, Error: 0.36, Beyond: 0.36, Judged: true},
		{Servers: 4000, Error: 0.6, Beyond: 0.4, Judged: true},
		{Servers: 5000, Error: 0.6, Beyond: 0.3, Judged: true},
		{Servers: 500, Error: 0.9, Beyond: 0.9, Spread: 0.25},
		{Servers: 6000, Error: math.Inf(1), Beyond: math.Inf(1), Judged: true},
	})
	want := []string{
		"held-out size 3000 predicted with a median error of 36% (more than 35%)",
		"held-out size 4000 predicted with a median error of 60%, 40% beyond the runs' noise (more than 35%)",
		"held-out size 6000: the other sizes alone cannot separate the costs (time three or more sizes)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("degenerate:\n%q\nwant\n%q", got, want)
	}
	// No size steady enough to judge is a reason of its own.
	got = degenerate([]SizeCheck{{Servers: 300, Error: 0.9, Spread: 0.4}, {Servers: 100, Error: 0.1, Spread: 0.25}})
	want = []string{"no held-out size can be judged: the runs of every size spread too far (100: ±25%, 300: ±40%; 2 times that must stay under 35%): time larger sizes or more runs"}
	if !slices.Equal(got, want) {
		t.Errorf("nothing judged:\n%q\nwant\n%q", got, want)
	}
	if got := degenerate([]SizeCheck{{Servers: 300, Error: 0.1, Beyond: 0, Judged: true}}); len(got) != 0 {
		t.Errorf("a good size: %q", got)
	}
}

// TestRunRejects: bad sizes and a missing nginx are errors before
// anything is measured; a failed measurement or a cancelled context ends
// the run with their error.
func TestRunRejects(t *testing.T) {
	for _, sizes := range [][]int{nil, {100}, {200, 200}, {0, 100}, {-1, 5, 9}} {
		m := &syntheticMachine{costs: twiceAsSlow()}
		if err := CheckSizes(sizes); err == nil {
			t.Errorf("CheckSizes(%v) accepted", sizes)
		}
		_, err := Run(context.Background(), Options{Measure: m.measure, Sizes: append([]int{}, sizes...)})
		if err == nil || !strings.HasPrefix(err.Error(), "sizes: ") || m.calls != 0 {
			t.Errorf("%v: %v after %d measurements", sizes, err, m.calls)
		}
	}
	if err := CheckSizes([]int{1, 2}); err != nil {
		t.Errorf("CheckSizes(1, 2): %v", err)
	}
	if _, err := Run(context.Background(), Options{Sizes: testSizes}); err == nil {
		t.Error("no nginx and no Measure accepted")
	}

	failing := errors.New("nginx -t failed: boom")
	calls := 0
	_, err := Run(context.Background(), Options{Sizes: testSizes, Measure: func(context.Context, string) (Measurement, error) {
		calls++
		return Measurement{}, failing
	}})
	if !errors.Is(err, failing) || !strings.HasPrefix(err.Error(), "L1a at 60 servers: ") || calls != 1 {
		t.Errorf("failing measure: %v after %d calls", err, calls)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m := &syntheticMachine{costs: twiceAsSlow()}
	if _, err := Run(ctx, Options{Sizes: testSizes, Measure: m.measure}); !errors.Is(err, context.Canceled) || m.calls != 0 {
		t.Errorf("cancelled: %v after %d measurements", err, m.calls)
	}
}

// TestRunValidate: the validation sizes are timed with the others but
// never fitted: the profile is the one fitted without them.
func TestRunValidate(t *testing.T) {
	saved := validationSizes
	validationSizes = []int{120, 1000}
	defer func() { validationSizes = saved }()
	plain := run(t, &syntheticMachine{costs: twiceAsSlow()}, Options{Runs: 1})
	res := run(t, &syntheticMachine{costs: twiceAsSlow()}, Options{Runs: 1, Validate: true})
	if len(res.Fitted) != 27 || len(res.Validation) != 18 {
		t.Fatalf("%d fitted, %d validation runs", len(res.Fitted), len(res.Validation))
	}
	for _, r := range res.Validation {
		if r.Servers != 120 && r.Servers != 1000 || math.Abs(r.Predicted-r.Seconds) > 0.05*r.Seconds {
			t.Errorf("validation %v %d: predicted %v, measured %v", r.Layout, r.Servers, r.Predicted, r.Seconds)
		}
	}
	for _, k := range TimeKeys() {
		if a, b := plain.Profile.Costs[k], res.Profile.Costs[k]; !near(a, b) {
			t.Errorf("%s: %v without validation, %v with", k, a, b)
		}
	}
	// Nor are they held out: only fitted sizes are.
	if len(res.HeldOut) != 27 || len(res.HeldOutErrors) != 3 {
		t.Errorf("%d held-out predictions, errors %v", len(res.HeldOut), res.HeldOutErrors)
	}
	// The profile's measured range spans every size timed.
	if res.Profile.Measured != [2]int{60, 1000} {
		t.Errorf("measured %v", res.Profile.Measured)
	}
}

// events records what Run tells a Progress.
type events struct {
	done, planned []int
	labels        []string
	timed         []string
}

func (e *events) Measured(done, planned int, label string, left time.Duration) {
	e.done, e.planned, e.labels = append(e.done, done), append(e.planned, planned), append(e.labels, label)
}

func (e *events) Timed(label string, m Measurement) {
	e.timed = append(e.timed, label)
}

// TestRunProgress: one event per measurement, counted from 1, never past
// the plan, which ends at the number of measurements made; one Timed per
// configuration.
func TestRunProgress(t *testing.T) {
	m := &syntheticMachine{costs: twiceAsSlow()}
	var ev events
	run(t, m, Options{Runs: 2, Progress: &ev})
	if len(ev.done) != m.calls {
		t.Fatalf("%d events for %d measurements", len(ev.done), m.calls)
	}
	for i := range ev.done {
		if ev.done[i] != i+1 || ev.planned[i] < ev.done[i] {
			t.Fatalf("event %d: %d of %d", i, ev.done[i], ev.planned[i])
		}
	}
	if last := len(ev.planned) - 1; ev.planned[last] != m.calls {
		t.Errorf("planned %d at the end, made %d", ev.planned[last], m.calls)
	}
	if ev.labels[0] != "L1a 60" || ev.labels[len(ev.labels)-1] != "L3c 3000 ssl" {
		t.Errorf("labels %q ... %q", ev.labels[0], ev.labels[len(ev.labels)-1])
	}
	if len(ev.timed) != 27+4 || ev.timed[0] != "L1a 60" || ev.timed[27] != "L3c 3000 plain" {
		t.Errorf("timed %q", ev.timed)
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{{[]float64{3}, 3}, {[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 3}} {
		if got := median(c.in); got != c.want {
			t.Errorf("median %v = %v, want %v", c.in, got, c.want)
		}
	}
}

// TestTimeLeft: configurations not timed yet count at the average first
// run; one found short runs three times as often.
func TestTimeLeft(t *testing.T) {
	walls := [][]float64{{1}, {0.1}, nil}
	short := func(j int) bool { return j == 1 }
	// runs 2: conf 0 has 1 left at 1 s; conf 1 (short) 5 left at 0.1 s;
	// conf 2 has 2 left at the average 0.55 s.
	want := time.Duration((1 + 0.5 + 1.1) * float64(time.Second))
	if got := timeLeft(2, walls, short); (got - want).Abs() > time.Millisecond {
		t.Errorf("timeLeft %v, want %v", got, want)
	}
}

// TestRunFindsWhereTheScanLeavesTheCache: a machine whose address scan
// costs four times as much a step past 200 addresses (its cache): the
// L2 layouts of 360 and 540 addresses show it, calibrate finds the size among
// its candidates and the far cost, and the held-out sizes are predicted
// well.
func TestRunFindsWhereTheScanLeavesTheCache(t *testing.T) {
	saved := nearCandidates
	nearCandidates = []int{100, 200, 300, 400}
	defer func() { nearCandidates = saved }()
	c := twiceAsSlow()
	c[costmodel.CostAddrCompareFar] = 4 * c[costmodel.CostAddrCompare]
	sizes := []int{60, 180, 360, 540}
	// On layouts this small the near steps are a small share of a run:
	// a base value large enough lets the fit measure them.
	base := testProfile()
	base.Costs[costmodel.CostAddrCompare] = 5 * c[costmodel.CostAddrCompare]
	res := run(t, &syntheticMachine{costs: c, near: 200}, Options{Runs: 1, Sizes: sizes, Base: base})
	p := res.Profile
	if p.NearAddresses != 200 {
		t.Errorf("near addresses %d, machine 200", p.NearAddresses)
	}
	for _, k := range []string{costmodel.CostAddrCompare, costmodel.CostAddrCompareFar} {
		if got, want := p.Costs[k], c[k]; p.IsAssumed(k) || math.Abs(got-want) > 0.05*want {
			t.Errorf("%s: fitted %s (assumed %v), machine %s; %+v", k, costmodel.Seconds(got), p.IsAssumed(k), costmodel.Seconds(want), res.Unidentified)
		}
	}
	if len(res.Degenerate) > 0 {
		t.Errorf("degenerate %q", res.Degenerate)
	}
	// The base profile's predictions price the scans at its own
	// NearAddresses: the machine's profile as base predicts the machine.
	same := run(t, &syntheticMachine{costs: c, near: 200}, Options{Runs: 1, Sizes: sizes, Base: &costmodel.Profile{Costs: c, NearAddresses: 200}})
	for _, r := range same.Fitted {
		if math.Abs(r.Reference-r.Seconds) > 1e-9*r.Seconds {
			t.Errorf("%v %d: the machine's own profile predicts %v, measured %v", r.Layout, r.Servers, r.Reference, r.Seconds)
		}
	}
	// A machine without the jump fits as well with no far step.
	one := run(t, &syntheticMachine{costs: twiceAsSlow()}, Options{Runs: 1, Sizes: sizes})
	if n := one.Profile.NearAddresses; n != 0 {
		t.Errorf("a machine without the jump: near addresses %d", n)
	}
}
