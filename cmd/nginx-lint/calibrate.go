package main

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"maps"
	"math"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// calibrateCmd is `nginx-lint calibrate`: time the local nginx on the
// benchmark layouts and fit a cost profile.
type calibrateCmd struct {
	Nginx    string `help:"nginx binary (default: $NGINX or nginx on PATH)." placeholder:"PATH"`
	Output   string `short:"o" default:"nginx-lint-profile.json" help:"Where to write the profile."`
	Sizes    []int  `default:"1000,3000,6000,12000" help:"Server counts to fit on."`
	Runs     int    `default:"3" help:"Runs per configuration (three times as many for a configuration nginx -t reads in under 0.15 s); the median counts."`
	Validate bool   `help:"Also time the nine layouts at 2000, 5000, 10000 and 19900 servers and print predicted against measured (timing never fails the command)."`
	Reload   bool   `help:"Also start nginx on L1c, L2c and L3c at 2000, 5000 and 10000 servers and time the start and a reload (wall clock), against the predictions."`
	Clock    string `enum:"cpu,wall" default:"cpu" help:"What to fit and compare: the CPU time (user + system) of nginx -t, which other load on the machine disturbs little, or its wall time: ${enum}."`
	Force    bool   `help:"Write the profile even when the fit is degenerate (a cost fitted at zero, or held-out predictions off by more than 35%)."`
}

// measureFunc times one nginx -t of a configuration file. calibrate takes
// it as a dependency so that tests can fit against a synthetic machine
// without running nginx.
type measureFunc func(ctx context.Context, conf string) (measurement, error)

// maxHeldOutError is the largest median |error| calibrate accepts on the
// layouts of a held-out size; past it the costs do not describe how
// nginx's time grows and the profile would mislead.
const maxHeldOutError = 0.35

// calibrationRun is one timed layout.
type calibrationRun struct {
	layout layout.Layout
	n      int
	// seconds is the median of the chosen clock, wall and cpu the medians
	// of both; rss is the largest resident set in bytes.
	seconds, wall, cpu float64
	rss                int64
	ops                map[string]float64
	mem                map[string]float64
	pred               float64
}

// maxSockets keeps generated layouts below the sandbox's 20,000 open
// files: L1 and L2 bind one socket per server.
const maxSockets = 18900

func (cmd *calibrateCmd) run(e *env) (int, error) {
	ngx := cmd.Nginx
	if ngx == "" {
		p, err := nginxtest.Find()
		if err != nil {
			return exitError, err
		}
		ngx = p
	}
	ctx := context.Background()
	ver, err := nginxtest.Version(ctx, ngx)
	if err != nil {
		return exitError, err
	}
	fmt.Fprintf(e.stderr, "calibrating %s (nginx %s) on the nine layouts at %v servers, %d runs each\n", ngx, ver, cmd.Sizes, max(cmd.Runs, 1))
	measure := func(ctx context.Context, conf string) (measurement, error) { return timeNginxT(ctx, ngx, conf) }
	machine := fmt.Sprintf("nginx %s, %s, %d CPUs", ver, kernelVersion(), runtime.NumCPU())
	p, code, err := cmd.calibrate(ctx, e, measure, machine)
	if err != nil || code != exitClean {
		return code, err
	}
	if cmd.Reload {
		if err := validateReload(ctx, e, ngx, p); err != nil {
			return exitError, err
		}
	}
	return exitClean, nil
}

// calibrate times the layouts with measure, fits the costs, checks the fit
// on held-out runs and writes the profile unless the fit is degenerate
// (or --force). machine describes what was measured, for the profile's
// source line.
func (cmd *calibrateCmd) calibrate(ctx context.Context, e *env, measure measureFunc, machine string) (*costmodel.Profile, int, error) {
	runs := max(cmd.Runs, 1)
	for _, n := range cmd.Sizes {
		if n < 1 {
			return nil, exitUsage, usageError{fmt.Sprintf("--sizes: %d is not a server count", n)}
		}
	}
	if distinct := len(slices.Compact(slices.Sorted(slices.Values(cmd.Sizes)))); distinct < 2 {
		// One size cannot tell a per-server cost from the fixed one, and
		// leaves no size to validate on.
		return nil, exitUsage, usageError{"--sizes: give two or more different server counts"}
	}
	// With --validate the validation layouts are timed in the same
	// round-robin as the calibration ones: a shared machine's speed drifts
	// over minutes, and timing them afterwards would validate against a
	// different machine than the one fitted.
	sizes := cmd.Sizes
	if cmd.Validate {
		sizes = append(slices.Clone(sizes), validationSizes...)
	}
	prog := newProgress(e.stderr, e.stderrTerminal)
	timed, err := timeLayouts(ctx, measure, sizes, runs, cmd.Clock == "wall", prog)
	if err != nil {
		return nil, exitError, err
	}
	cal, val := timed[:len(cmd.Sizes)*len(layout.All())], timed[len(cmd.Sizes)*len(layout.All()):]
	p, err := fitRuns(cal, costmodel.DefaultProfile())
	if err != nil {
		return nil, exitError, err
	}
	if err := calibrateExtras(ctx, measure, p, runs, cmd.Clock == "wall", prog); err != nil {
		return nil, exitError, err
	}
	prog.done()
	p.Source = fmt.Sprintf("%s, fitted by nginx-lint calibrate on %s", machine, time.Now().UTC().Format("2006-01-02"))
	p.Measured = [2]int{timed[0].n, timed[0].n}
	for _, c := range timed {
		p.Measured[0] = min(p.Measured[0], c.n)
		p.Measured[1] = max(p.Measured[1], c.n)
	}

	fmt.Fprintf(e.stdout, "costs (clock: %s time of nginx -t):\n", cmd.Clock)
	for _, k := range fittedKeys() {
		note := ""
		if p.IsAssumed(k) {
			note = " (too small a share of these runs to measure: kept from the reference profile)"
		}
		fmt.Fprintf(e.stdout, "  %-15s %s%s\n", k, costmodel.Seconds(p.Costs[k]), note)
	}
	for _, k := range memKeys {
		fmt.Fprintf(e.stdout, "  %-15s %.0f bytes\n", k, p.Costs[k])
	}
	writeFitTable(e.stdout, "fit (the runs the costs were fitted on: not a validation)", cal, p)
	held, heldErrs := heldOut(cal)
	writeHeldOutTable(e.stdout, held)
	if cmd.Validate {
		writeFitTable(e.stdout, "validation (sizes never fitted)", val, p)
	}
	problems := degenerate(p, heldErrs)
	if len(problems) > 0 && !cmd.Force {
		fmt.Fprintf(e.stderr, "nginx-lint: not writing %s: the fit is degenerate:\n", cmd.Output)
		for _, s := range problems {
			fmt.Fprintf(e.stderr, "  - %s\n", s)
		}
		fmt.Fprintln(e.stderr, "  time more and larger sizes (--sizes, --runs), or write it anyway with --force")
		return p, exitFindings, nil
	}
	b, err := costmodel.MarshalProfile(p)
	if err != nil {
		return nil, exitError, err
	}
	if err := os.WriteFile(cmd.Output, append(b, '\n'), 0o644); err != nil {
		return nil, exitError, err
	}
	if len(problems) > 0 {
		fmt.Fprintf(e.stderr, "nginx-lint: wrote %s although the fit is degenerate (--force): %s\n", cmd.Output, strings.Join(problems, "; "))
	}
	fmt.Fprintf(e.stdout, "\nwrote %s\n", cmd.Output)
	return p, exitClean, nil
}

// fittedKeys are the costs calibrate measures: those the layouts fit and
// those calibrateExtras prices.
func fittedKeys() []string {
	return append(slices.Clone(costmodel.FitKeys), costmodel.CostLocation, costmodel.CostRegex, costmodel.CostSSLServer)
}

// minShare is the smallest share of some run's time an operation must
// take for its cost to be fitted: below it the runs cannot tell the cost
// from noise (name warnings on small layouts), so it keeps base's value
// and is marked assumed instead of being fitted at zero or at nonsense.
const minShare = 0.005

// fitRuns fits the time costs on runs, then the memory costs on their peak
// resident sets, starting from base.
func fitRuns(runs []calibrationRun, base *costmodel.Profile) (*costmodel.Profile, error) {
	var obs, mem []costmodel.Observation
	for _, c := range runs {
		obs = append(obs, costmodel.Observation{Label: c.layout.String(), Ops: c.ops, Seconds: c.seconds})
		mem = append(mem, costmodel.Observation{Label: c.layout.String(), Ops: c.mem, Seconds: float64(c.rss)})
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
	// Memory is fitted the same way on the peak resident set of each run.
	if pm, err := costmodel.Fit(mem, p, memKeys); err == nil {
		p = pm
	}
	return p, nil
}

// heldOutRun is a run predicted by costs fitted without its size.
type heldOutRun struct {
	calibrationRun
	pred float64
}

// heldOut validates the fit on runs it was not fitted on: for each size,
// it fits the costs on the other sizes and predicts that size's layouts
// (leave one size out). It returns the predictions and, per held-out
// size, the median |error|. With one size there is nothing to hold out.
func heldOut(runs []calibrationRun) ([]heldOutRun, map[int]float64) {
	var sizes []int
	for _, r := range runs {
		if !slices.Contains(sizes, r.n) {
			sizes = append(sizes, r.n)
		}
	}
	errs := map[int]float64{}
	if len(sizes) < 2 {
		return nil, errs
	}
	var out []heldOutRun
	for _, n := range sizes {
		var train, test []calibrationRun
		for _, r := range runs {
			if r.n == n {
				test = append(test, r)
			} else {
				train = append(train, r)
			}
		}
		p, err := fitRuns(train, costmodel.DefaultProfile())
		if err != nil {
			errs[n] = math.Inf(1)
			continue
		}
		var pred, meas []float64
		for _, r := range test {
			h := heldOutRun{calibrationRun: r}
			for k, v := range r.ops {
				h.pred += v * p.Costs[k]
			}
			out = append(out, h)
			pred, meas = append(pred, h.pred), append(meas, r.seconds)
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
	for _, k := range fittedKeys() {
		if p.Costs[k] <= 0 && !p.IsAssumed(k) {
			zero = append(zero, k)
		}
	}
	if len(zero) > 0 {
		out = append(out, "fitted at zero: "+strings.Join(zero, ", "))
	}
	ns := slices.Sorted(maps.Keys(heldErrs))
	for _, n := range ns {
		if e := heldErrs[n]; math.IsInf(e, 1) {
			out = append(out, fmt.Sprintf("held-out size %d: the other sizes alone cannot separate the costs (give three or more --sizes)", n))
		} else if e > maxHeldOutError {
			out = append(out, fmt.Sprintf("held-out size %d predicted with a median error of %.0f%% (more than %.0f%%)", n, 100*e, 100*maxHeldOutError))
		}
	}
	return out
}

// writeHeldOutTable prints the held-out predictions against the
// measurements.
func writeHeldOutTable(w io.Writer, runs []heldOutRun) {
	fmt.Fprintln(w, "\nheld out (each size predicted by costs fitted on the other sizes):")
	if len(runs) > 0 {
		fmt.Fprint(w, "| layout | servers | predicted | measured (median) | error |\n|---|---|---|---|---|\n")
	}
	if len(runs) == 0 {
		fmt.Fprintln(w, "none: no size can be predicted from the others alone")
		return
	}
	var pred, meas []float64
	for _, h := range runs {
		pred, meas = append(pred, h.pred), append(meas, h.seconds)
		fmt.Fprintf(w, "| %s | %d | %.3f s | %.3f s | %+.0f%% |\n", h.layout, h.n, h.pred, h.seconds, 100*(h.pred-h.seconds)/h.seconds)
	}
	med, worst, rank := costmodel.Errors(pred, meas)
	fmt.Fprintf(w, "held-out median |error| %.1f%%, worst %.1f%%, rank correlation %.3f\n", 100*med, 100*worst, rank)
}

// writeFitTable prints predicted against measured seconds with the error
// summary: median and worst |error| and Spearman's rank correlation.
func writeFitTable(w io.Writer, title string, runs []calibrationRun, p *costmodel.Profile) {
	fmt.Fprintf(w, "\n%s:\n| layout | servers | predicted | measured (median) | error | wall (median) | peak RSS |\n|---|---|---|---|---|---|---|\n", title)
	var pred, meas []float64
	for i := range runs {
		c := &runs[i]
		c.pred = 0
		for k, v := range c.ops {
			c.pred += v * p.Costs[k]
		}
		pred = append(pred, c.pred)
		meas = append(meas, c.seconds)
		fmt.Fprintf(w, "| %s | %d | %.3f s | %.3f s | %+.0f%% | %.3f s | %s |\n", c.layout, c.n, c.pred, c.seconds,
			100*(c.pred-c.seconds)/c.seconds, c.wall, mb(c.rss))
	}
	med, worst, rank := costmodel.Errors(pred, meas)
	fmt.Fprintf(w, "median |error| %.1f%%, worst %.1f%%, rank correlation %.3f\n", 100*med, 100*worst, rank)
}

// extraServers is the size of the layouts that price locations, regexes
// and certificates.
const extraServers = 3000

// calibrateExtras prices what the nine layouts cannot separate: it times
// L3c with four prefix locations per server, with four regex locations
// per server, and with a shared RSA-2048 certificate per server, and
// charges the difference from plain L3c to each location, regex and
// SSL server. The keys become measured in p.
func calibrateExtras(ctx context.Context, measure measureFunc, p *costmodel.Profile, runs int, wall bool, prog *progress) error {
	dir, err := os.MkdirTemp("", "nginx-lint-calibrate-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cert, key, err := writeTestCertificate(dir)
	if err != nil {
		return err
	}
	l3c, _ := layout.ParseName("L3c")
	variants := []struct {
		name  string
		http  []string
		lines []string
		ssl   bool
	}{
		{name: "plain"},
		{name: "locations", lines: []string{"location /a {}", "location /b {}", "location /c {}", "location /d {}"}},
		{name: "regex", lines: []string{"location ~ ^/a$ {}", "location ~ ^/b$ {}", "location ~ ^/c$ {}", "location ~ ^/d$ {}"}},
		{name: "ssl", http: []string{"ssl_certificate " + cert + ";", "ssl_certificate_key " + key + ";"}, ssl: true},
	}
	t := map[string]float64{}
	prog.add(len(variants) * runs)
	for vi, v := range variants {
		opts := layout.Options{Layout: l3c, N: extraServers, HTTP: v.http, Server: func(s *layout.Server) {
			s.Lines = v.lines
			if v.ssl {
				s.ListenParams = []string{"ssl"}
			}
		}}
		conf := filepath.Join(dir, "nginx.conf")
		if err := os.WriteFile(conf, layout.Generate(opts), 0o644); err != nil {
			return err
		}
		var xs []float64
		for i := 0; i < runs; i++ {
			m, err := measure(ctx, conf)
			if err != nil {
				return fmt.Errorf("%s: %w", v.name, err)
			}
			// The variants left take about as long as this one.
			prog.step(fmt.Sprintf("L3c %d %s", extraServers, v.name), time.Duration(float64((len(variants)-vi)*runs-i-1)*m.wall*float64(time.Second)))
			if wall {
				xs = append(xs, m.wall)
			} else {
				xs = append(xs, m.cpu)
			}
		}
		t[v.name] = median(xs)
		prog.printf("  L3c %d %s: %.3f s\n", extraServers, v.name, t[v.name])
	}
	n := float64(extraServers)
	loc := max(0, (t["locations"]-t["plain"])/(4*n))
	set := func(k string, v float64) {
		p.Costs[k] = v
		p.Assumed = slices.DeleteFunc(p.Assumed, func(a string) bool { return a == k })
	}
	set(costmodel.CostLocation, loc)
	set(costmodel.CostRegex, max(0, (t["regex"]-t["plain"])/(4*n)-loc))
	set(costmodel.CostSSLServer, max(0, (t["ssl"]-t["plain"])/n))
	return nil
}

// writeTestCertificate writes a self-signed RSA-2048 certificate and key
// for localhost, the common kind of certificate, for timing only.
func writeTestCertificate(dir string) (certPath, keyPath string, err error) {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return "", "", err
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "localhost"},
		DNSNames: []string{"localhost"}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		return "", "", err
	}
	certPath, keyPath = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		return "", "", err
	}
	kb := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
	return certPath, keyPath, os.WriteFile(keyPath, kb, 0o600)
}

// validationSizes are the server counts calibrate --validate checks the
// fitted costs at.
var validationSizes = []int{2000, 5000, 10000, 19900}

// memKeys are the memory costs calibrate fits on peak RSS.
var memKeys = []string{costmodel.MemBase, costmodel.MemServer, costmodel.MemSocket}

// timeLayouts generates the nine layouts at each size and times nginx -t
// on them runs times (three times that for short runs), keeping the
// medians. The runs go round-robin over all configurations rather than
// back to back, so that a shared machine's drift over minutes spreads over
// every layout instead of biasing the ones measured during a busy spell.
func timeLayouts(ctx context.Context, measure measureFunc, sizes []int, runs int, wall bool, prog *progress) ([]calibrationRun, error) {
	dir, err := os.MkdirTemp("", "nginx-lint-calibrate-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var out []calibrationRun
	var confs []string
	for _, n := range sizes {
		for _, l := range layout.All() {
			nn := n
			if l.Listen != layout.SharedAddr && nn > maxSockets {
				nn = maxSockets
			}
			src := layout.Generate(layout.Options{Layout: l, N: nn})
			conf := filepath.Join(dir, fmt.Sprintf("%v-%d.conf", l, nn))
			if err := os.WriteFile(conf, src, 0o644); err != nil {
				return nil, err
			}
			c := (&parser.Loader{Kinds: analyzer.Kinds}).LoadSource(conf, src, nil)
			res := costmodel.Compute(parser.BuildModel(c), costmodel.Options{})
			out = append(out, calibrationRun{layout: l, n: nn, ops: res.Ops(), mem: map[string]float64{
				costmodel.MemBase: 1, costmodel.MemServer: float64(res.Counts.Servers), costmodel.MemSocket: float64(res.Counts.Addrs)}})
			confs = append(confs, conf)
		}
	}
	walls := make([][]float64, len(out))
	cpus := make([][]float64, len(out))
	// A run shorter than shortRun is timed three times as often: the
	// machine's jitter is a larger share of it, and the extra runs are
	// cheap.
	const shortRun = 0.15
	short := func(j int) bool { return len(cpus[j]) > 0 && (cpus[j][0] < shortRun || walls[j][0] < shortRun) }
	prog.add(runs * len(confs))
	for i := 0; i < 3*runs; i++ {
		if i == runs {
			// Now it is known which configurations are short.
			for j := range confs {
				if short(j) {
					prog.add(2 * runs)
				}
			}
		}
		for j, conf := range confs {
			if i >= runs && !short(j) {
				continue
			}
			m, err := measure(ctx, conf)
			if err != nil {
				return nil, fmt.Errorf("%v at %d servers: %w", out[j].layout, out[j].n, err)
			}
			walls[j], cpus[j] = append(walls[j], m.wall), append(cpus[j], m.cpu)
			out[j].rss = max(out[j].rss, m.rss)
			prog.step(fmt.Sprintf("%v %d", out[j].layout, out[j].n), timeLeft(runs, walls, short))
		}
	}
	for j := range out {
		run := &out[j]
		run.wall, run.cpu = median(walls[j]), median(cpus[j])
		run.seconds = run.cpu
		if wall {
			run.seconds = run.wall
		}
		prog.printf("  %v %d: wall %.3f s, cpu %.3f s\n", run.layout, run.n, run.wall, run.cpu)
	}
	return out, nil
}

// timeLeft estimates the time the round-robin still needs: each run to
// come takes as long as its configuration's first run did (one not timed
// yet, the average of those that were), and a configuration found short
// runs three times as often.
func timeLeft(runs int, walls [][]float64, short func(int) bool) time.Duration {
	sum, seen := 0.0, 0
	for _, w := range walls {
		if len(w) > 0 {
			sum += w[0]
			seen++
		}
	}
	avg := sum / float64(max(seen, 1))
	left := 0.0
	for k, w := range walls {
		per, planned := avg, runs
		if len(w) > 0 {
			per = w[0]
			if short(k) {
				planned = 3 * runs
			}
		}
		left += float64(max(planned-len(w), 0)) * per
	}
	return time.Duration(left * float64(time.Second))
}

func median(v []float64) float64 {
	sort.Float64s(v)
	return v[len(v)/2]
}

type measurement struct {
	wall, cpu float64
	rss       int64
}

// timeNginxT runs `nginx -t -q` on conf with a fresh temporary prefix and
// returns its wall time, CPU time and peak RSS. It refuses configurations
// that are not loopback-only (nginx -t binds every listen). The generated
// layouts set pid and error_log relative to the prefix.
func timeNginxT(ctx context.Context, ngx, conf string) (measurement, error) {
	if err := nginxtest.CheckLoopback(conf); err != nil {
		return measurement{}, err
	}
	prefix, err := os.MkdirTemp("", "nginx-lint-prefix-")
	if err != nil {
		return measurement{}, err
	}
	defer os.RemoveAll(prefix)
	if err := os.Mkdir(filepath.Join(prefix, "logs"), 0o755); err != nil {
		return measurement{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, ngx, "-t", "-q", "-p", prefix+"/", "-c", conf)
	cmd.Dir = prefix
	start := time.Now()
	out, err := cmd.CombinedOutput()
	m := measurement{wall: time.Since(start).Seconds()}
	if err != nil {
		return m, fmt.Errorf("nginx -t failed: %v: %s", err, out)
	}
	if st := cmd.ProcessState; st != nil {
		m.cpu = (st.UserTime() + st.SystemTime()).Seconds()
		m.rss = maxRSS(st)
	}
	return m, nil
}

// kernelVersion reads the running kernel's release for the profile's
// source line.
func kernelVersion() string {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return runtime.GOOS
	}
	return "Linux " + strings.TrimSpace(string(b))
}

// maxRSS reads the peak resident set of a finished process, in bytes.
// The rusage type differs between systems (and Windows has no Maxrss), so
// the field is looked up by name rather than through syscall.Rusage.
func maxRSS(st *os.ProcessState) int64 {
	v := reflect.ValueOf(st.SysUsage())
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return 0
	}
	f := v.FieldByName("Maxrss")
	if !f.IsValid() || !f.CanInt() {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return f.Int()
	}
	return f.Int() * 1024 // Linux and the BSDs count KiB
}
