package main

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/cmd/nginx-lint-gen/layout"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// costCmd is `nginx-lint cost`: the startup and reload estimate of one
// configuration.
type costCmd struct {
	loadFlags
	Path          string        `arg:"" name:"path" help:"Main configuration file, a directory (each configuration in it that no other includes, found as lint finds them), or \"-\" for standard input."`
	Format        string        `short:"f" enum:"text,json" default:"text" help:"Output format: ${enum}."`
	SVG           string        `name:"svg" help:"Also draw estimated startup against server count, for the current and the proposed layout, to this SVG file." placeholder:"FILE"`
	Profile       string        `help:"Per-operation costs written by nginx-lint calibrate (default: the shipped reference profile)." placeholder:"FILE"`
	Kernel        string        `help:"Linux version nginx runs on, e.g. 5.15; before 6.1 every bind() also scans the sockets already on its port (default: 6.1 or later)." placeholder:"VERSION"`
	NoFile        int           `name:"nofile" help:"The master's open-file limit; needing more is then an error, since nginx cannot start (default: 1024, systemd's default soft limit, assumed: a warning)." placeholder:"N"`
	NonRoot       bool          `name:"non-root" help:"nginx does not run as root: servers without listen get *:8000, not *:80."`
	CPUs          int           `name:"cpus" help:"What worker_processes auto resolves to (default: this machine's CPUs)."`
	StartupBudget time.Duration `name:"startup-budget" help:"Make an estimated startup above this duration an error (exit 1), for CI gates." placeholder:"DURATION"`
}

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
}

// costRules are the rules the cost command reports.
var costRules = []*analyzer.Rule{rules.ListenPortAggregation, rules.ListenSocketCount, rules.ListenBindConflict,
	rules.WorkerConnections, rules.OpenFilesLimit, rules.ServerNamesHash, rules.StartupBudget}

func (cmd *costCmd) options() (costmodel.Options, error) {
	o := costmodel.Options{NonRoot: cmd.NonRoot, NoFile: cmd.NoFile, CPUs: cmd.CPUs, Kernel: cmd.Kernel}
	if o.CPUs == 0 {
		o.CPUs = runtime.NumCPU()
	}
	if cmd.Profile != "" {
		b, err := os.ReadFile(cmd.Profile)
		if err != nil {
			return o, fmt.Errorf("--profile: %w", err)
		}
		p, err := costmodel.ParseProfile(b)
		if err != nil {
			return o, usageError{"--profile: " + err.Error()}
		}
		o.Profile = p
	}
	return o, nil
}

func (cmd *costCmd) run(e *env) (int, error) {
	opts, err := cmd.options()
	if err != nil {
		return 0, err
	}
	st, err := os.Stat(cmd.Path)
	isDir := err == nil && st.IsDir() && cmd.Path != "-"
	entries, unreadable, err := loadEntryPoints(e, cmd.loadFlags, cmd.Path)
	if err != nil {
		return 0, err
	}
	if !isDir && len(unreadable) > 0 {
		return exitError, fmt.Errorf("%s: %s", cmd.Path, readError(unreadable[0].err))
	}
	var reports []costReport
	skipped := 0
	for _, ep := range entries {
		res := costmodel.For(parser.BuildModel(ep.c), opts)
		if isDir && res.Counts.Servers == 0 {
			// A snippet of directives (fastcgi-php.conf) costs nothing
			// worth a report of its own.
			skipped++
			continue
		}
		reports = append(reports, costReport{name: ep.name, res: res, ds: cmd.diagnostics(ep.c, opts)})
	}
	if isDir && len(reports) == 0 {
		return 0, usageError{"no configuration with a server block under " + cmd.Path}
	}
	switch cmd.Format {
	case "json":
		// A directory gives a list (of one or more), a file one object:
		// the shape follows the command line, not what was found.
		if isDir {
			err = writeCostJSONList(e.stdout, reports)
		} else {
			err = writeCostJSON(e.stdout, reports[0])
		}
	default:
		for i, rep := range reports {
			if i > 0 {
				fmt.Fprintln(e.stdout)
			}
			if err = writeCostText(e.stdout, rep, cmd.NoFile > 0); err != nil {
				break
			}
		}
	}
	if err != nil {
		return exitError, err
	}
	if cmd.SVG != "" && len(reports) > 0 {
		// One chart: of the costliest configuration when there are several.
		top := reports[0]
		for _, rep := range reports[1:] {
			if rep.res.StartupSeconds > top.res.StartupSeconds {
				top = rep
			}
		}
		if len(reports) > 1 {
			fmt.Fprintf(e.stderr, "nginx-lint: %s: the chart shows %s, the costliest of %d configurations\n", cmd.SVG, top.name, len(reports))
		}
		if err := os.WriteFile(cmd.SVG, []byte(costSVG(top.res, top.name, cmd.budget())), 0o644); err != nil {
			return exitError, err
		}
	}
	if skipped > 0 {
		fmt.Fprintf(e.stderr, "nginx-lint: %s without server blocks not estimated\n", count(skipped, "file", "files"))
	}
	for _, u := range unreadable {
		fmt.Fprintf(e.stderr, "nginx-lint: %s: %s\n", u.path, readError(u.err))
	}
	if len(unreadable) > 0 {
		return exitError, nil
	}
	for _, rep := range reports {
		for _, d := range rep.ds {
			if d.Severity >= parser.Error {
				return exitFindings, nil
			}
		}
	}
	return exitClean, nil
}

// budget is the startup budget the chart draws: --startup-budget, else
// the startup-budget rule's default.
func (cmd *costCmd) budget() time.Duration {
	if cmd.StartupBudget > 0 {
		return cmd.StartupBudget
	}
	return rules.DefaultStartupBudget
}

// costReport is the estimate of one configuration.
type costReport struct {
	name string // as the user named it (or as found in a directory)
	res  *costmodel.Result
	ds   []*parser.Diagnostic
}

// entryPoint is one configuration to estimate.
type entryPoint struct {
	name string
	c    *parser.Config
}

// readFailure is a path that could not be read.
type readFailure struct {
	path string
	err  error
}

// loadEntryPoints loads path, or, for a directory, the configurations
// lint would find in it (expandDirs), minus those another one includes:
// a site is costed as part of the nginx.conf that includes it, once.
func loadEntryPoints(e *env, lf loadFlags, path string) ([]entryPoint, []readFailure, error) {
	targets, err := expandDirs([]string{path})
	if err != nil {
		return nil, nil, err
	}
	var out []entryPoint
	var bad []readFailure
	included := map[string]bool{}
	for _, t := range targets {
		f := lf
		if f.Prefix == "" {
			f.Prefix = t.prefix
		}
		c, err := f.loadWith(e, t.path, &parser.Loader{Kinds: analyzer.Kinds})
		if err != nil {
			bad = append(bad, readFailure{t.path, err})
			continue
		}
		for _, inc := range c.Files[1:] {
			included[parser.RealPath(inc.Path)] = true
		}
		out = append(out, entryPoint{t.path, c})
	}
	kept := out[:0]
	for _, ep := range out {
		if !included[parser.RealPath(ep.c.Main.Path)] {
			kept = append(kept, ep)
		}
	}
	return kept, bad, nil
}

// diagnostics runs the cost rules with the command's model options, so
// they share the Result the report shows.
func (cmd *costCmd) diagnostics(c *parser.Config, o costmodel.Options) []*parser.Diagnostic {
	reg, err := analyzer.NewRegistry(costRules...)
	if err != nil {
		panic(err)
	}
	ro := map[string]any{"nonroot": o.NonRoot, "cpus": o.CPUs, "kernel": o.Kernel}
	if cmd.NoFile > 0 {
		// A limit the user gave: exceeding it is an error.
		ro["nofile"] = cmd.NoFile
	}
	if o.Profile != nil {
		ro["profile"] = o.Profile
	}
	opts := analyzer.Options{RuleOptions: map[string]map[string]any{}}
	for _, r := range costRules {
		m := map[string]any{}
		for k, v := range ro {
			m[k] = v
		}
		if r == rules.StartupBudget && cmd.StartupBudget > 0 {
			m["budget"] = cmd.StartupBudget
		}
		opts.RuleOptions[r.Name] = m
	}
	var out []*parser.Diagnostic
	for _, d := range analyzer.Run(c, reg, opts) {
		// The report is about cost; the parser's own findings belong to
		// plain nginx-lint.
		if strings.HasPrefix(d.Code, "NL4") {
			out = append(out, d)
		}
	}
	return out
}

type costJSON struct {
	File           string           `json:"file"`
	StartupSeconds float64          `json:"startup_seconds"`
	TestSeconds    float64          `json:"test_seconds"`
	ReloadSeconds  float64          `json:"reload_seconds"`
	MemoryBytes    int64            `json:"memory_bytes"`
	ReloadMemory   int64            `json:"reload_memory_bytes"`
	Servers        int              `json:"servers"`
	Sockets        costSocketsJSON  `json:"sockets"`
	Phases         []costPhaseJSON  `json:"phases"`
	Hashes         []costHashJSON   `json:"hashes"`
	Limits         []costLimitJSON  `json:"limits"`
	Contributors   []string         `json:"contributors"`
	WhatIfs        []costWhatIfJSON `json:"what_ifs"`
	Unknown        []string         `json:"not_estimated"`
	Profile        string           `json:"profile"`
	Diagnostics    []jsonDiagnostic `json:"diagnostics"`
}

type costSocketsJSON struct {
	Test  int `json:"test"`
	Start int `json:"start"`
}

type costPhaseJSON struct {
	Name    string  `json:"name"`
	Func    string  `json:"function"`
	Ops     int64   `json:"ops"`
	Seconds float64 `json:"seconds"`
	Start   bool    `json:"start_only,omitempty"`
	Assumed bool    `json:"assumed_cost,omitempty"`
}

type costHashJSON struct {
	Address       string `json:"address"`
	Names         int    `json:"names"`
	Outcome       string `json:"outcome"`
	Message       string `json:"message,omitempty"`
	FixMaxSize    int    `json:"fix_max_size,omitempty"`
	FixBucketSize int    `json:"fix_bucket_size,omitempty"`
}

type costLimitJSON struct {
	Name string `json:"name"`
	Need int    `json:"need"`
	Have int    `json:"have"`
	OK   bool   `json:"ok"`
}

type costWhatIfJSON struct {
	Change string  `json:"change"`
	Saving float64 `json:"saving_seconds"`
	Note   string  `json:"note,omitempty"`
}

// writeCostJSON prints one report as an indented JSON object.
func writeCostJSON(w io.Writer, rep costReport) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(costJSONOf(rep))
}

// writeCostJSONList prints reports as an indented JSON array.
func writeCostJSONList(w io.Writer, reps []costReport) error {
	out := []costJSON{}
	for _, rep := range reps {
		out = append(out, costJSONOf(rep))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func costJSONOf(rep costReport) costJSON {
	r, ds := rep.res, rep.ds
	out := costJSON{File: rep.name, StartupSeconds: r.StartupSeconds, TestSeconds: r.TestSeconds, ReloadSeconds: r.ReloadSeconds,
		MemoryBytes: r.MemoryBytes, ReloadMemory: r.ReloadMemoryBytes, Servers: r.Counts.Servers,
		Sockets: costSocketsJSON{r.Counts.SocketsTest, r.Counts.SocketsStart}, Profile: r.Profile.Source,
		Phases: []costPhaseJSON{}, Hashes: []costHashJSON{}, Limits: []costLimitJSON{}, WhatIfs: []costWhatIfJSON{},
		Contributors: r.Contributors(5), Unknown: r.Unknown, Diagnostics: []jsonDiagnostic{}}
	if out.Unknown == nil {
		out.Unknown = []string{}
	}
	for _, p := range r.Phases {
		out.Phases = append(out.Phases, costPhaseJSON{p.Name, p.Func, p.Ops, p.Seconds, p.StartOnly, p.Assumed})
	}
	for _, h := range r.Hashes {
		fm, fb := h.Fix()
		out.Hashes = append(out.Hashes, costHashJSON{h.Addr.Key, h.Exact + h.WildcardHead + h.WildcardTail,
			h.Outcome.String(), h.Message, fm, fb})
	}
	for _, l := range r.Limits {
		out.Limits = append(out.Limits, costLimitJSON{l.Name, l.Need, l.Have, l.OK})
	}
	for _, wi := range r.WhatIfs() {
		out.WhatIfs = append(out.WhatIfs, costWhatIfJSON{wi.Title, wi.Saving, wi.Note})
	}
	for _, d := range ds {
		out.Diagnostics = append(out.Diagnostics, toJSON(d))
	}
	return out
}

// writeCostText prints one report; nofileGiven says whether the open-file
// limit is the user's or the assumed default.
func writeCostText(w io.Writer, rep costReport, nofileGiven bool) error {
	r, ds := rep.res, rep.ds
	c := r.Counts
	fmt.Fprintf(w, "%s: %s, %s on %s and %s\n", rep.name, count(c.Servers, "server", "servers"), count(c.Listens, "listen", "listens"),
		count(c.Ports, "port", "ports"), count(c.Addrs, "address", "addresses"))
	fmt.Fprintf(w, "costs measured on: %s\n\n", r.Profile.Source)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "phase\toperations\testimate\tshare\t")
	for _, p := range r.Phases {
		share := 0.0
		if r.StartupSeconds > 0 {
			share = 100 * p.Seconds / r.StartupSeconds
		}
		name := p.Name
		if p.Assumed {
			name += " *"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%.1f%%\t\n", name, p.Ops, costmodel.Seconds(p.Seconds), share)
	}
	tw.Flush()
	fmt.Fprintln(w, "(* assumed cost, not measured on the reference machine)")
	fmt.Fprintf(w, "\nnginx -t  ≈ %s\nstart     ≈ %s\nreload    ≈ %s (the signaller and the master both parse; 100 ms wait)\n",
		costmodel.Seconds(r.TestSeconds), costmodel.Seconds(r.StartupSeconds), costmodel.Seconds(r.ReloadSeconds))
	fmt.Fprintf(w, "memory    ≈ %s, %s during a reload\n", mb(r.MemoryBytes), mb(r.ReloadMemoryBytes))
	fmt.Fprintf(w, "\nsockets: %d at nginx -t, %d at start", c.SocketsTest, c.SocketsStart)
	if c.SocketsStart > c.SocketsTest {
		fmt.Fprintf(w, " (reuseport sockets cloned for %s)", count(c.Workers, "worker", "workers"))
	}
	fmt.Fprintln(w)
	if len(r.Hashes) > 0 {
		fmt.Fprintln(w, "\nserver_names hashes:")
		for _, h := range r.Hashes {
			fmt.Fprintf(w, "  %s: %s, %s", h.Addr.Key, count(h.Exact+h.WildcardHead+h.WildcardTail, "name", "names"), h.Outcome)
			if h.Outcome == costmodel.HashOK {
				fmt.Fprintf(w, " (%s)\n", count(h.Size, "bucket", "buckets"))
				continue
			}
			fmt.Fprintf(w, ": %s\n", h.Message)
			if fm, fb := h.Fix(); fm > 0 || fb > 0 {
				fmt.Fprintf(w, "    smallest fix: server_names_hash_max_size %d or server_names_hash_bucket_size %d\n", fm, fb)
			}
		}
	}
	fmt.Fprintln(w, "\nlimits:")
	for _, l := range r.Limits {
		state := "ok"
		if !l.OK {
			state = "EXCEEDED"
		}
		have := strconv.Itoa(l.Have)
		if l.Name == "open files" && !nofileGiven {
			have += " (assumed, systemd's default; --nofile gives the real limit)"
		}
		fmt.Fprintf(w, "  %s: need %d, have %s: %s\n", l.Name, l.Need, have, state)
	}
	fmt.Fprintln(w, "\nlargest costs:")
	for _, s := range r.Contributors(5) {
		fmt.Fprintf(w, "  - %s\n", s)
	}
	if len(r.Unknown) > 0 {
		fmt.Fprintln(w, "\nnot estimated:")
		for _, s := range r.Unknown {
			fmt.Fprintf(w, "  - %s\n", s)
		}
	}
	if wis := r.WhatIfs(); len(wis) > 0 {
		fmt.Fprintln(w, "\nwhat if:")
		for i, wi := range wis {
			if i == 5 {
				break
			}
			fmt.Fprintf(w, "  - %s: saves ≈ %s at start (%s)\n", wi.Title, costmodel.Seconds(wi.Saving), wi.Note)
		}
	}
	if len(ds) > 0 {
		fmt.Fprintln(w)
		return writeText(w, ds, false)
	}
	return nil
}

// count words a number of things: "1 port", "2 ports", "1 address".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func mb(b int64) string { return fmt.Sprintf("%.0f MB", float64(b)/1e6) }

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
	runs := max(cmd.Runs, 1)
	fmt.Fprintf(e.stderr, "calibrating %s (nginx %s) on the nine layouts at %v servers, %d runs each\n", ngx, ver, cmd.Sizes, runs)
	// With --validate the validation layouts are timed in the same
	// round-robin as the calibration ones: a shared machine's speed drifts
	// over minutes, and timing them afterwards would validate against a
	// different machine than the one fitted.
	sizes := cmd.Sizes
	if cmd.Validate {
		sizes = append(slices.Clone(sizes), validationSizes...)
	}
	timed, err := timeLayouts(ctx, e, ngx, sizes, runs, cmd.Clock == "wall")
	if err != nil {
		return exitError, err
	}
	cal, val := timed[:len(cmd.Sizes)*len(layout.All())], timed[len(cmd.Sizes)*len(layout.All()):]
	var obs, mem []costmodel.Observation
	for _, c := range cal {
		obs = append(obs, costmodel.Observation{Label: c.layout.String(), Ops: c.ops, Seconds: c.seconds})
		mem = append(mem, costmodel.Observation{Label: c.layout.String(), Ops: c.mem, Seconds: float64(c.rss)})
	}
	p, err := costmodel.Fit(obs, costmodel.DefaultProfile(), costmodel.FitKeys)
	if err != nil {
		return exitError, err
	}
	// Memory is fitted the same way on the peak resident set of each run.
	if pm, err := costmodel.Fit(mem, p, memKeys); err == nil {
		p = pm
	}
	if err := calibrateExtras(ctx, e, ngx, p, runs, cmd.Clock == "wall"); err != nil {
		return exitError, err
	}
	p.Source = fmt.Sprintf("nginx %s, %s, %d CPUs, fitted by nginx-lint calibrate on %s", ver, kernelVersion(), runtime.NumCPU(), time.Now().UTC().Format("2006-01-02"))
	b, err := costmodel.MarshalProfile(p)
	if err != nil {
		return exitError, err
	}
	if err := os.WriteFile(cmd.Output, append(b, '\n'), 0o644); err != nil {
		return exitError, err
	}
	fmt.Fprintf(e.stdout, "wrote %s (clock: %s time of nginx -t)\n", cmd.Output, cmd.Clock)
	for _, k := range costmodel.FitKeys {
		fmt.Fprintf(e.stdout, "  %-15s %s\n", k, costmodel.Seconds(p.Costs[k]))
	}
	for _, k := range memKeys {
		fmt.Fprintf(e.stdout, "  %-15s %.0f bytes\n", k, p.Costs[k])
	}
	writeFitTable(e.stdout, "fit", cal, p)
	if cmd.Validate {
		writeFitTable(e.stdout, "validation", val, p)
	}
	if cmd.Reload {
		if err := validateReload(ctx, e, ngx, p); err != nil {
			return exitError, err
		}
	}
	return exitClean, nil
}

// validateReload starts nginx (loopback only, temporary prefix, stopped
// by its pid: nginxtest.Start) on three layouts, times the start (until
// the pid file appears, after every socket is bound) and a reload (from
// running `nginx -s reload` until the old worker is gone and a new one
// runs), and prints them against the model.
func validateReload(ctx context.Context, e *env, ngx string, p *costmodel.Profile) error {
	fmt.Fprintf(e.stdout, "\nstart and reload (wall clock, one run each):\n| layout | servers | start predicted | start measured | reload predicted | reload measured |\n|---|---|---|---|---|---|\n")
	dir, err := os.MkdirTemp("", "nginx-lint-reload-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	for _, n := range []int{2000, 5000, 10000} {
		for _, name := range []string{"L1c", "L2c", "L3c"} {
			l, _ := layout.ParseName(name)
			src := layout.Generate(layout.Options{Layout: l, N: n})
			conf := filepath.Join(dir, "nginx.conf")
			if err := os.WriteFile(conf, src, 0o644); err != nil {
				return err
			}
			c := (&parser.Loader{Kinds: analyzer.Kinds}).LoadSource(conf, src, nil)
			res := costmodel.Compute(parser.BuildModel(c), costmodel.Options{Profile: p})
			start, reload, err := timeStartReload(ctx, ngx, conf)
			if err != nil {
				return fmt.Errorf("%s at %d servers: %w", name, n, err)
			}
			fmt.Fprintf(e.stdout, "| %s | %d | %.3f s | %.3f s | %.3f s | %.3f s |\n", name, n,
				res.StartupSeconds, start, res.ReloadSeconds, reload)
		}
	}
	return nil
}

// timeStartReload starts nginx on conf and reloads it once.
func timeStartReload(ctx context.Context, ngx, conf string) (start, reload float64, err error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	inst, err := nginxtest.Start(ctx, ngx, conf)
	if err != nil {
		return 0, 0, err
	}
	defer func() {
		if serr := inst.Stop(context.Background()); serr != nil && err == nil {
			err = serr
		}
	}()
	start = inst.Ready.Seconds()
	var old []int
	for len(old) == 0 {
		if old, err = childrenOf(inst.Pid); err != nil {
			return 0, 0, err
		}
		if ctx.Err() != nil {
			return 0, 0, ctx.Err()
		}
		time.Sleep(2 * time.Millisecond)
	}
	t0 := time.Now()
	sig := exec.CommandContext(ctx, ngx, "-s", "reload", "-p", inst.Prefix+"/", "-c", conf)
	if out, err := sig.CombinedOutput(); err != nil {
		return 0, 0, fmt.Errorf("nginx -s reload: %v: %s", err, out)
	}
	for {
		kids, err := childrenOf(inst.Pid)
		if err != nil {
			return 0, 0, err
		}
		if len(kids) > 0 && !slices.ContainsFunc(kids, func(k int) bool { return slices.Contains(old, k) }) {
			return start, time.Since(t0).Seconds(), nil
		}
		if ctx.Err() != nil {
			return 0, 0, ctx.Err()
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// childrenOf lists the processes whose parent is pid, from /proc.
func childrenOf(pid int) ([]int, error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, fmt.Errorf("timing a reload needs /proc: %w", err)
	}
	var out []int
	for _, e := range ents {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// "pid (comm) state ppid ...": comm may hold spaces, so cut at
		// the last ')'.
		i := strings.LastIndexByte(string(b), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) > 1 {
			if pp, err := strconv.Atoi(f[1]); err == nil && pp == pid {
				out = append(out, n)
			}
		}
	}
	return out, nil
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
func calibrateExtras(ctx context.Context, e *env, ngx string, p *costmodel.Profile, runs int, wall bool) error {
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
	for _, v := range variants {
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
			m, err := timeNginxT(ctx, ngx, conf)
			if err != nil {
				return fmt.Errorf("%s: %w", v.name, err)
			}
			if wall {
				xs = append(xs, m.wall)
			} else {
				xs = append(xs, m.cpu)
			}
		}
		t[v.name] = median(xs)
		fmt.Fprintf(e.stderr, "  L3c %d %s: %.3f s\n", extraServers, v.name, t[v.name])
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
func timeLayouts(ctx context.Context, e *env, ngx string, sizes []int, runs int, wall bool) ([]calibrationRun, error) {
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
	for i := 0; i < 3*runs; i++ {
		for j, conf := range confs {
			if i >= runs && (len(cpus[j]) == 0 || cpus[j][0] >= shortRun && walls[j][0] >= shortRun) {
				continue
			}
			m, err := timeNginxT(ctx, ngx, conf)
			if err != nil {
				return nil, fmt.Errorf("%v at %d servers: %w", out[j].layout, out[j].n, err)
			}
			walls[j], cpus[j] = append(walls[j], m.wall), append(cpus[j], m.cpu)
			out[j].rss = max(out[j].rss, m.rss)
		}
	}
	for j := range out {
		run := &out[j]
		run.wall, run.cpu = median(walls[j]), median(cpus[j])
		run.seconds = run.cpu
		if wall {
			run.seconds = run.wall
		}
		fmt.Fprintf(e.stderr, "  %v %d: wall %.3f s, cpu %.3f s\n", run.layout, run.n, run.wall, run.cpu)
	}
	return out, nil
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
