package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/calibrate"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/parser"
)

// These tests cover the command: flags, tables, the profile file, exit
// codes and the progress line. The fitting, held-out validation and
// refusals are tested in analyzer/costmodel/calibrate.

// syntheticMachine is a fake nginx: it "times" a configuration as the cost
// model's operation counts priced at its own costs, so a fit must find
// those costs again. calls counts the runs.
type syntheticMachine struct {
	costs map[string]float64
	// noise, when set, multiplies each run by a factor drawn evenly from
	// [1-noise, 1+noise], seeded.
	noise float64
	// scale, when set, multiplies the time of a configuration with this
	// many servers (a machine the model does not describe).
	scale func(servers int) float64
	rng   *rand.Rand
	calls int
}

func (m *syntheticMachine) measure(_ context.Context, conf string) (calibrate.Measurement, error) {
	m.calls++
	src, err := os.ReadFile(conf)
	if err != nil {
		return calibrate.Measurement{}, err
	}
	c := (&parser.Loader{Kinds: analyzer.Kinds}).LoadSource(conf, src, nil)
	res := costmodel.Compute(parser.BuildModel(c), costmodel.Options{})
	s := 0.0
	for k, v := range res.Ops() {
		s += v * m.costs[k]
	}
	if m.scale != nil {
		s *= m.scale(res.Counts.Servers)
	}
	if m.noise != 0 {
		if m.rng == nil {
			m.rng = rand.New(rand.NewPCG(3, 4))
		}
		s *= 1 + m.noise*(2*m.rng.Float64()-1)
	}
	rss := m.costs[costmodel.MemBase] + m.costs[costmodel.MemServer]*float64(res.Counts.Servers) + m.costs[costmodel.MemSocket]*float64(res.Counts.Addrs)
	return calibrate.Measurement{Wall: s, CPU: s, RSS: int64(rss)}, nil
}

// twiceAsSlow is the reference profile with every cost doubled.
func twiceAsSlow() map[string]float64 {
	costs := costmodel.DefaultProfile().Costs
	for k := range costs {
		costs[k] *= 2
	}
	return costs
}

func testCalibrate(t *testing.T, m *syntheticMachine, tty bool, args ...string) (p *costmodel.Profile, code int, out, errs string, path string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "profile.json")
	var cmd calibrateCmd
	cmd.Output, cmd.Runs, cmd.Clock = path, 1, "cpu"
	if m.noise != 0 {
		cmd.Runs = 3
	}
	cmd.Sizes = []int{60, 180, 540}
	for _, a := range args {
		switch {
		case a == "--force":
			cmd.Force = true
		case strings.HasPrefix(a, "--sizes="):
			cmd.Sizes = nil
			for _, f := range strings.Split(strings.TrimPrefix(a, "--sizes="), ",") {
				n, _ := strconv.Atoi(f)
				cmd.Sizes = append(cmd.Sizes, n)
			}
		}
	}
	var o, e bytes.Buffer
	p, code, err := cmd.calibrate(context.Background(), &env{stdout: &o, stderr: &e, stderrTerminal: tty}, m.measure, "synthetic machine")
	if err != nil {
		t.Fatal(err)
	}
	return p, code, o.String(), e.String(), path
}

// TestCalibrateWritesTheProfile: a usable fit is written where -o says,
// as a profile `cost --profile` reads, and the tables show every size.
func TestCalibrateWritesTheProfile(t *testing.T) {
	m := &syntheticMachine{costs: twiceAsSlow()}
	p, code, out, errs, path := testCalibrate(t, m, false)
	if code != exitClean {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	written, err := costmodel.ParseProfile(b)
	if err != nil || !strings.HasPrefix(written.Source, "synthetic machine, fitted by nginx-lint calibrate") || written.Measured != [2]int{60, 540} {
		t.Fatalf("profile %v %+v", err, written)
	}
	if written.Costs[costmodel.CostServer] != p.Costs[costmodel.CostServer] {
		t.Errorf("written server cost %v, fitted %v", written.Costs[costmodel.CostServer], p.Costs[costmodel.CostServer])
	}
	if !strings.Contains(out, "wrote "+path) {
		t.Errorf("no 'wrote' line:\n%s", out)
	}
	// The cost lines: an assumed cost says so; memory in bytes.
	if !regexp.MustCompile(`(?m)^  name-warning +\S+ \S+ unidentified, kept from the reference profile: at most 0\.\d\d% of any run's time`).MatchString(out) ||
		!regexp.MustCompile(`(?m)^  server +\S+ \S+ measured$`).MatchString(out) ||
		!regexp.MustCompile(`(?m)^  memory-server +\d+ bytes$`).MatchString(out) {
		t.Errorf("cost lines:\n%s", out)
	}
	// Fit and held-out tables have a row for every size; the held-out
	// predictions of a machine that follows the model are right.
	for _, n := range []int{60, 180, 540} {
		if c := strings.Count(out, fmt.Sprintf("| L2c | %d |", n)); c != 2 {
			t.Errorf("%d rows for L2c at %d, want 2 (fit and held out):\n%s", c, n, out)
		}
	}
	if !regexp.MustCompile(`held-out median \|error\| 0\.\d%`).MatchString(out) {
		t.Errorf("held-out error not near zero:\n%s", out)
	}
	// Beside each fitted run, what the reference profile (the base of
	// the fit, half this machine's costs) predicts: half the time.
	if !strings.Contains(out, "| -50% |") || !strings.Contains(out, "the reference profile, before calibrate: median |error| 50.0%, worst 50.0%") {
		t.Errorf("no reference profile's predictions:\n%s", out)
	}
	// Off a terminal, no progress line, but each configuration's medians.
	if strings.Contains(errs, "\r") || strings.Contains(errs, "left") {
		t.Errorf("progress off a terminal: %q", errs)
	}
	if !strings.Contains(errs, "  L2c 180: wall ") || !strings.Contains(errs, "  L3c 3000 regex: wall ") {
		t.Errorf("no medians on stderr:\n%s", errs)
	}
}

// TestCalibrateRefusesDegenerateFits: a fit the held-out check refuses
// (a machine three times as slow at its largest size as the smaller ones
// predict) is not written (exit 1, the reasons on stderr) unless
// --force; too few sizes are a usage error before anything is timed.
func TestCalibrateRefusesDegenerateFits(t *testing.T) {
	jump := &syntheticMachine{costs: twiceAsSlow(), scale: func(servers int) float64 {
		if servers >= 500 {
			return 3
		}
		return 1
	}}
	_, code, _, errs, path := testCalibrate(t, jump, false)
	if code != exitFindings || !strings.Contains(errs, "not writing") || !strings.Contains(errs, "  - held-out size 540 predicted with a median error of") {
		t.Errorf("exit %d, stderr:\n%s", code, errs)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("profile written: %v", err)
	}
	_, code, _, errs, path = testCalibrate(t, jump, false, "--force")
	if code != exitClean || !strings.Contains(errs, "although the held-out check refuses it (--force): held-out size ") {
		t.Errorf("--force: exit %d, stderr:\n%s", code, errs)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("--force: %v", err)
	}
	// Two sizes: no held-out fit can separate the costs.
	_, code, out, errs, _ := testCalibrate(t, &syntheticMachine{costs: twiceAsSlow()}, false, "--sizes=100,300")
	if code != exitFindings || !strings.Contains(errs, "time three or more sizes") || !strings.Contains(out, "none: no size can be predicted") {
		t.Errorf("two sizes: exit %d\n%s\n%s", code, out, errs)
	}
	for _, sizes := range [][]int{{200, 200}, {0, 100}} {
		cmd := calibrateCmd{Sizes: sizes, Runs: 1, Clock: "cpu", Output: path}
		one := &syntheticMachine{costs: twiceAsSlow()}
		_, code, err := cmd.calibrate(context.Background(), &env{stdout: io.Discard, stderr: io.Discard}, one.measure, "x")
		if code != exitUsage || err == nil || !strings.HasPrefix(err.Error(), "--sizes: ") || one.calls != 0 {
			t.Errorf("%v: exit %d, %v, %d runs", sizes, code, err, one.calls)
		}
	}
}

// TestCalibrateNoisy: runs that spread by ±10% on a machine that follows
// the model still write the profile, the costs the noise hides marked
// unidentified and kept; runs spread by ±90% are refused with the reason.
// Each size's verdict and each run's spread are printed.
func TestCalibrateNoisy(t *testing.T) {
	noisy := &syntheticMachine{costs: twiceAsSlow(), noise: 0.1}
	p, code, out, errs, path := testCalibrate(t, noisy, false)
	if code != exitClean {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	un := regexp.MustCompile(`(?m)^  (\S+) +\S+ \S+ unidentified, kept from the reference profile: .*noise`).FindAllStringSubmatch(out, -1)
	if len(un) == 0 {
		t.Errorf("no cost unidentified for noise:\n%s", out)
	}
	for _, u := range un {
		if p.Costs[u[1]] != costmodel.DefaultProfile().Costs[u[1]] || !p.IsAssumed(u[1]) {
			t.Errorf("%s unidentified but %v", u[1], p.Costs[u[1]])
		}
	}
	if !regexp.MustCompile(`(?m)^\| L2c \| 540 \| [0-9.]+ s \| [0-9.]+ s \| ±[1-9]\d?\.\d% \| 9 \|`).MatchString(out) ||
		!regexp.MustCompile(`(?m)^  size 540: median \|error\| [0-9.]+%, [0-9.]+% beyond the noise \(runs spread ±[0-9.]+%\): judged`).MatchString(out) ||
		!regexp.MustCompile(`(?m)^\| L3c 3000 regex \| [0-9.]+ s \| ±[0-9.]+ s \| 3 \|$`).MatchString(out) {
		t.Errorf("measurements not shown:\n%s", out)
	}

	chaotic := &syntheticMachine{costs: twiceAsSlow(), noise: 0.9}
	_, code, out, errs, path = testCalibrate(t, chaotic, false)
	if code != exitFindings || !strings.Contains(errs, "  - no held-out size can be judged: the runs of every size spread too far") ||
		!strings.Contains(out, "not judged: the runs spread too far to tell") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("profile written: %v", err)
	}
}

// TestCalibrateProgress: on a terminal, an n/N line with the time left,
// whose last N is the number of runs made.
func TestCalibrateProgress(t *testing.T) {
	m := &syntheticMachine{costs: twiceAsSlow()}
	_, code, _, errs, _ := testCalibrate(t, m, true)
	if code != exitClean {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	re := regexp.MustCompile(`\r\x1b\[K\[(\d+)/(\d+)\] [^\r]*, about [0-9hms.]+ left`)
	ms := re.FindAllStringSubmatch(errs, -1)
	if len(ms) != m.calls {
		t.Fatalf("%d progress lines for %d runs:\n%q", len(ms), m.calls, errs)
	}
	last := ms[len(ms)-1]
	if last[1] != strconv.Itoa(m.calls) || last[2] != strconv.Itoa(m.calls) {
		t.Errorf("last progress %q, runs %d", last[0], m.calls)
	}
	for i, mm := range ms {
		if n, _ := strconv.Atoi(mm[1]); n != i+1 {
			t.Fatalf("progress %d reads %q", i, mm[0])
		}
	}
	if !strings.HasSuffix(errs, "\r\x1b[K") && !strings.Contains(errs[strings.LastIndex(errs, last[0])+len(last[0]):], "\r\x1b[K") {
		t.Errorf("progress line not cleared at the end: %q", errs[max(0, len(errs)-200):])
	}
}

// TestWriteReloadRow: a --reload row shows the medians with their spread
// and the error of each prediction.
func TestWriteReloadRow(t *testing.T) {
	l, _ := layout.ParseName("L2c")
	l2c := calibrate.ReloadRun{Layout: l, Servers: 5000, Start: 0.2, Reload: 0.5, StartRuns: []float64{0.25, 0.2, 0.19}, ReloadRuns: []float64{0.5},
		PredictedStart: 0.22, PredictedReload: 0.4}
	var b bytes.Buffer
	writeReloadRow(&b, l2c)
	if got, want := b.String(), "| L2c | 5000 | 0.220 s | 0.200 s ±0.030 | +10% | 0.400 s | 0.500 s ±0.000 | -20% |\n"; got != want {
		t.Errorf("row %q, want %q", got, want)
	}
}
