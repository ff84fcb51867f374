package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/parser"
)

// syntheticMachine is a fake nginx: it "times" a configuration as the cost
// model's operation counts priced at its own costs, so a fit must find
// those costs again. calls counts the runs.
type syntheticMachine struct {
	costs map[string]float64
	// scale, when set, multiplies the time of a configuration with this
	// many servers (a machine the model does not describe).
	scale func(servers int) float64
	calls int
}

func (m *syntheticMachine) measure(_ context.Context, conf string) (measurement, error) {
	m.calls++
	src, err := os.ReadFile(conf)
	if err != nil {
		return measurement{}, err
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
	rss := m.costs[costmodel.MemBase] + m.costs[costmodel.MemServer]*float64(res.Counts.Servers) + m.costs[costmodel.MemSocket]*float64(res.Counts.Addrs)
	return measurement{wall: s, cpu: s, rss: int64(rss)}, nil
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

// TestCalibrateFindsTheCosts: on a machine that follows the model, the fit
// finds its costs, the held-out predictions are right, and the profile
// is written with the sizes it was measured at.
func TestCalibrateFindsTheCosts(t *testing.T) {
	m := &syntheticMachine{costs: twiceAsSlow()}
	p, code, out, errs, path := testCalibrate(t, m, false)
	if code != exitClean {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	// Name warnings are too small a share of these small layouts to
	// measure: kept from the reference and marked assumed.
	if !p.IsAssumed(costmodel.CostNameWarning) || p.Costs[costmodel.CostNameWarning] != costmodel.DefaultProfile().Costs[costmodel.CostNameWarning] {
		t.Errorf("name-warning %v, assumed %v", p.Costs[costmodel.CostNameWarning], p.Assumed)
	}
	for _, k := range fittedKeys() {
		if p.IsAssumed(k) {
			continue
		}
		if got, want := p.Costs[k], m.costs[k]; math.Abs(got-want) > 0.05*want {
			t.Errorf("%s: fitted %s, machine %s", k, costmodel.Seconds(got), costmodel.Seconds(want))
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	written, err := costmodel.ParseProfile(b)
	if err != nil || !strings.HasPrefix(written.Source, "synthetic machine, fitted by nginx-lint calibrate") || written.Measured != [2]int{60, 540} {
		t.Errorf("profile %v %+v", err, written)
	}
	// Every size is predicted from the others.
	for _, n := range []int{60, 180, 540} {
		if !strings.Contains(out, fmt.Sprintf("| L2c | %d |", n)) {
			t.Errorf("no row for %d:\n%s", n, out)
		}
	}
	if !regexp.MustCompile(`held-out median \|error\| 0\.\d%`).MatchString(out) {
		t.Errorf("held-out error not near zero:\n%s", out)
	}
	// Off a terminal, no progress line.
	if strings.Contains(errs, "\r") || strings.Contains(errs, "left") {
		t.Errorf("progress off a terminal: %q", errs)
	}
}

// TestCalibrateRefusesDegenerateFits: a machine whose time does not grow
// with the configuration fits costs at zero; the profile is not written
// unless --force.
func TestCalibrateRefusesDegenerateFits(t *testing.T) {
	flat := &syntheticMachine{costs: map[string]float64{costmodel.CostBase: 0.05}}
	_, code, _, errs, path := testCalibrate(t, flat, false)
	if code != exitFindings || !strings.Contains(errs, "not writing") || !strings.Contains(errs, "fitted at zero: server,") {
		t.Errorf("exit %d, stderr:\n%s", code, errs)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("profile written: %v", err)
	}
	_, code, _, errs, path = testCalibrate(t, flat, false, "--force")
	if code != exitClean || !strings.Contains(errs, "although the fit is degenerate (--force)") {
		t.Errorf("--force: exit %d, stderr:\n%s", code, errs)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("--force: %v", err)
	}
	// Two sizes leave one to fit each held-out fit on, which cannot
	// separate per-server from fixed costs.
	_, code, out, errs, _ := testCalibrate(t, &syntheticMachine{costs: twiceAsSlow()}, false, "--sizes=100,300")
	if code != exitFindings || !strings.Contains(errs, "give three or more --sizes") || !strings.Contains(out, "none: no size can be predicted") {
		t.Errorf("two sizes: exit %d\n%s\n%s", code, out, errs)
	}
	// One size cannot be fitted or validated: a usage error, before
	// anything is timed.
	cmd := calibrateCmd{Sizes: []int{200, 200}, Runs: 1, Clock: "cpu", Output: path}
	one := &syntheticMachine{costs: twiceAsSlow()}
	_, code, err := cmd.calibrate(context.Background(), &env{stdout: io.Discard, stderr: io.Discard}, one.measure, "x")
	if code != exitUsage || err == nil || !strings.Contains(err.Error(), "two or more") || one.calls != 0 {
		t.Errorf("one size: exit %d, %v, %d runs", code, err, one.calls)
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
	_, code, out, errs, path := testCalibrate(t, m, false)
	if code != exitFindings || !strings.Contains(errs, "held-out size 540 predicted with a median error of") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("profile written: %v", err)
	}
	got := degenerate(costmodel.DefaultProfile(), map[int]float64{1000: 0.2, 3000: 0.36})
	if len(got) != 1 || !strings.Contains(got[0], "held-out size 3000") {
		t.Errorf("degenerate: %q", got)
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
