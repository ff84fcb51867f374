//go:build linux

package rules_test

import (
	"runtime"
	"sort"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/internal/door"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
)

// threadCPU returns the CPU time of the calling OS thread: unlike wall
// time it does not count the time other processes of a shared machine
// take, which is what makes a timing ratio steady enough for a test.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	const rusageThread = 1 // RUSAGE_THREAD
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		panic(err)
	}
	return time.Duration(syscall.TimevalToNsec(ru.Utime) + syscall.TimevalToNsec(ru.Stime))
}

// step is one measured part of a lint: parsing, the shared index and
// model, or one rule.
type step struct {
	name string
	run  func(c *parser.Config, s *analyzer.Session, ops *atomic.Int64)
}

func lintSteps() []step {
	steps := []step{
		{"index", func(c *parser.Config, _ *analyzer.Session, _ *atomic.Int64) { analyzer.NewIndex(c) }},
		{"model", func(c *parser.Config, _ *analyzer.Session, _ *atomic.Int64) { parser.BuildModel(c) }},
	}
	for _, r := range rules.All().Rules() {
		steps = append(steps, step{r.Name, func(_ *parser.Config, s *analyzer.Session, ops *atomic.Int64) {
			s.RunRule(r, analyzer.Options{Ops: ops})
		}})
	}
	return steps
}

// cpuOf returns the least thread CPU time of reps runs of st.
func cpuOf(st step, c *parser.Config, s *analyzer.Session, reps int) time.Duration {
	best := time.Duration(1<<63 - 1)
	for range reps {
		if reps > 1 {
			// A second look starts each run after a collection: the
			// thread's CPU time includes the marking it assists, which
			// depends on the heap both configurations fill and on when
			// the last cycle ended, not on the rule.
			runtime.GC()
		}
		t0 := threadCPU()
		st.run(c, s, nil)
		best = min(best, threadCPU()-t0)
	}
	return best
}

// opsOf returns the operations (Options.Ops) one run of st counts.
func opsOf(st step, c *parser.Config, s *analyzer.Session) int64 {
	var n atomic.Int64
	st.run(c, s, &n)
	return n.Load()
}

// TestRulesScaleLinearly lints 10,000 and 40,000 servers that carry every
// construct the rules look at, and fails when a rule costs more than 5
// times as much on 4 times the input: a linear rule costs 4 times as
// much, a quadratic one 16 times. The cost is counted in operations (the
// directives a rule is handed: walks, lookups by name, block bodies,
// Pass.CountOps), which do not depend on the machine, so the test
// cannot flake. A rule can also loop over its own data (the typed model,
// maps it builds), which operations do not see; for that the CPU time of
// the test's own OS thread is compared too, with a generous margin (10×,
// against 16× for quadratic): a step over it is measured again, three
// times at each size keeping the least, and reported in the log. Time is
// not a verdict in a pass/fail test (a loaded machine once made a linear
// step look 10×): the operations are, and the benchmarks watch the time.
// The index and the model are checked the same way.
func TestRulesScaleLinearly(t *testing.T) {
	if testing.Short() {
		t.Skip("lints 50,000 servers; skipped with -short")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const small, large = 10000, 40000
	cs, cl := richConfig(small), richConfig(large)
	ss, sl := analyzer.NewSession(door.Key{}, cs), analyzer.NewSession(door.Key{}, cl)
	type result struct {
		name               string
		opsSmall, opsLarge int64
		small, large       time.Duration
	}
	var results []result
	for _, st := range lintSteps() {
		r := result{name: st.name, opsSmall: opsOf(st, cs, ss), opsLarge: opsOf(st, cl, sl)}
		if r.opsLarge > 1000 && r.opsLarge > 5*r.opsSmall {
			t.Errorf("%s is superlinear: %d operations on %d servers, %d on %d (%.1f× for 4× the input; 5× allowed)",
				st.name, r.opsSmall, small, r.opsLarge, large, float64(r.opsLarge)/float64(max(r.opsSmall, 1)))
		}
		r.small, r.large = cpuOf(st, cs, ss, 1), cpuOf(st, cl, sl, 1)
		// A second look measures three pairs, each small run next to
		// its large one, and keeps the pair with the lowest ratio: a
		// linear rule's small run can be unusually quick once (a CPU
		// at a higher clock, caches still warm), while a quadratic one
		// costs about 16 times as much in every pair.
		for try := 0; try < 3 && r.large > 20*time.Millisecond && r.large > 10*r.small; try++ {
			s, l := cpuOf(st, cs, ss, 2), cpuOf(st, cl, sl, 2)
			if try == 0 || float64(l)/float64(max(s, 1)) < float64(r.large)/float64(max(r.small, 1)) {
				r.small, r.large = s, l
			}
		}
		if r.large > 20*time.Millisecond && r.large > 10*r.small {
			// Logged, not failed: CPU time is a measurement, and a
			// loaded machine made a linear step (duplicate-listen,
			// 4.5× as a rule) look 10.4× once. The operations above
			// are the verdict; BenchmarkLintL2c19900 watches the time.
			t.Logf("%s may be superlinear: %v CPU on %d servers, %v on %d (%.1f× for 4× the input, the lowest of three pairs)",
				st.name, r.small, small, r.large, large, float64(r.large)/float64(max(r.small, 1)))
		}
		results = append(results, r)
	}
	sort.Slice(results, func(i, j int) bool { return results[i].large > results[j].large })
	t.Logf("%-28s %10s %10s %6s %8s %8s %6s", "step", "ops 10k", "ops 40k", "ratio", "cpu 10k", "cpu 40k", "ratio")
	for _, r := range results {
		t.Logf("%-28s %10d %10d %5.1f× %8v %8v %5.1f×", r.name, r.opsSmall, r.opsLarge, float64(r.opsLarge)/float64(max(r.opsSmall, 1)),
			r.small.Round(time.Millisecond), r.large.Round(time.Millisecond), float64(r.large)/float64(max(r.small, 1)))
	}
}
