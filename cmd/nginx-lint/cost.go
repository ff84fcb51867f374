package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/internal/atomicfile"
	"github.com/nginx-lint/nginx-lint/parser"
)

// costCmd is `nginx-lint cost`: the startup and reload estimate of one
// configuration.
type costCmd struct {
	loadFlags
	settingsFlags
	Path          string        `arg:"" name:"path" help:"Main configuration file, a directory (each configuration in it that no other includes, found as lint finds them), or \"-\" for standard input."`
	Format        string        `short:"f" enum:"text,json" default:"text" help:"Output format: ${enum}."`
	SVG           string        `name:"svg" help:"Also draw estimated startup against server count, for the current and the proposed layout, to this SVG file." placeholder:"FILE"`
	Profile       string        `help:"Per-operation costs written by nginx-lint calibrate (default: the shipped reference profile)." placeholder:"FILE"`
	Kernel        string        `help:"Linux version nginx runs on, e.g. 5.15; before 6.1 every bind() also scans the sockets already on its port (default: 6.1 or later)." placeholder:"VERSION"`
	NoFile        int           `name:"nofile" help:"The master's open-file limit; needing more is then an error, since nginx cannot start (default: 1024, systemd's default soft limit, assumed: a warning)." placeholder:"N"`
	NonRoot       bool          `name:"non-root" help:"nginx does not run as root: servers without listen get *:8000, not *:80."`
	CPUs          int           `name:"cpus" help:"What worker_processes auto resolves to (default: this machine's CPUs)."`
	StartupBudget time.Duration `name:"startup-budget" help:"Make an estimated startup above this duration an error (exit 1), for CI gates." placeholder:"DURATION"`
	optimizeFlags
}

// options are the host facts the flags give the cost model.
func (cmd *costCmd) options() (costmodel.Options, error) {
	o := costmodel.Options{NonRoot: cmd.NonRoot, NoFile: cmd.NoFile, CPUs: cmd.CPUs, Kernel: cmd.Kernel}
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
	w, err := cmd.loadFlags.workspace(e)
	if err != nil {
		return 0, err
	}
	if err := cmd.settingsFlags.apply(e, w); err != nil {
		return 0, err
	}
	w.Loaded = bigInputGC
	if w.Cost, err = cmd.options(); err != nil {
		return 0, err
	}
	if cmd.StartupBudget > 0 {
		w.RuleOptions = map[string]map[string]any{rules.StartupBudget.Name: {"budget": cmd.StartupBudget}}
	}
	st, err := os.Stat(cmd.Path)
	isDir := err == nil && st.IsDir() && cmd.Path != "-"
	targets, err := lint.Targets([]string{cmd.Path})
	if err != nil {
		return 0, err
	}
	ests, rep, err := w.Estimate(targets)
	if err != nil {
		return 0, err
	}
	unreadable := rep.Unreadable
	if !isDir && len(unreadable) > 0 {
		return exitError, fmt.Errorf("%s: %s", cmd.Path, readError(unreadable[0].Err))
	}
	if cmd.optimizeFlags.any() {
		return cmd.runOptimize(e, w, targets, ests)
	}
	var reports []costReport
	skipped := 0
	for _, est := range ests {
		if isDir && est.Model.Counts.Servers == 0 {
			// A snippet of directives (fastcgi-php.conf) costs nothing
			// worth a report of its own.
			skipped++
			continue
		}
		reports = append(reports, costReport{name: est.Entry.Target.Path, res: est.Model, ds: est.Findings, nofileGiven: est.NoFileGiven})
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
			if err = writeCostText(e.stdout, rep); err != nil {
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
		if real, err := atomicfile.WriteFile(cmd.SVG, []byte(costSVG(top.res, top.name, cmd.budget())), atomicfile.Options{}); err != nil {
			return exitError, fmt.Errorf("--svg %s: %s", cmd.SVG, writeError(err, real, ""))
		}
	}
	if skipped > 0 {
		fmt.Fprintf(e.stderr, "nginx-lint: %s without server blocks not estimated\n", count(skipped, "file", "files"))
	}
	for _, u := range unreadable {
		fmt.Fprintf(e.stderr, "nginx-lint: %s: %s\n", terminalSafe(u.Path), terminalSafe(readError(u.Err)))
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
	// nofileGiven says whether the open-file limit is the user's (flag or
	// settings) or the assumed default.
	nofileGiven bool
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

// writeCostText prints one report.
func writeCostText(w io.Writer, rep costReport) error {
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
		if l.Name == "open files" && !rep.nofileGiven {
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
