package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/internal/atomicfile"
	"github.com/nginx-lint/nginx-lint/internal/report"
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
	MaxSockets    int           `name:"max-sockets" help:"Make more listening sockets at start than this an error (exit 1), for CI gates (listen-socket-count's max-sockets)." placeholder:"N"`
	FailLevel     string        `enum:"error,warning,info,none" default:"error" help:"Exit with 1 when a finding of the cost rules is at least this severe: ${enum}. The default, error, fails on what keeps nginx from starting (a bind conflict, a fatal names hash, a limit given with --nofile or --max-sockets) and on an estimate over --startup-budget."`
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
			return o, &lint.UsageError{Msg: "--profile: " + err.Error()}
		}
		o.Profile = p
	}
	return o, nil
}

// Run is called by kong when the command is chosen (run); the exit
// code goes to e.
func (cmd *costCmd) Run(e *env) error { return e.exit(cmd.run(e)) }

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
	w.RuleOptions = map[string]map[string]any{}
	if cmd.StartupBudget > 0 {
		w.RuleOptions[rules.StartupBudget.Name] = map[string]any{"budget": cmd.StartupBudget}
	}
	if cmd.MaxSockets < 0 {
		return 0, &lint.UsageError{Msg: fmt.Sprintf("--max-sockets %d: give 0 or more", cmd.MaxSockets)}
	}
	if cmd.MaxSockets > 0 {
		w.RuleOptions[rules.ListenSocketCount.Name] = map[string]any{"max-sockets": cmd.MaxSockets}
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
	var reports []report.Cost
	var skipped []string
	for _, est := range ests {
		if isDir && est.Model.Counts.Servers == 0 {
			// A snippet of directives (fastcgi-php.conf) costs nothing
			// worth a report of its own.
			skipped = append(skipped, est.Unit.Target.Path)
			continue
		}
		reports = append(reports, report.Cost{Name: est.Unit.Target.Path, Result: est.Model, Findings: est.Findings, NoFileGiven: est.NoFileGiven})
	}
	if isDir && len(reports) == 0 {
		return 0, &lint.UsageError{Msg: "no configuration with a server block under " + cmd.Path}
	}
	cwd, _ := os.Getwd()
	// A report that cannot be written (a full disk, /dev/full) fails the
	// run rather than vanish.
	out := &checkedWriter{w: e.stdout}
	if cmd.Format == "json" {
		// A directory gives a list (of one or more), a file one object:
		// the shape follows the command line, not what was found.
		if isDir {
			err = report.CostJSONList(out, reports, cwd)
		} else {
			err = report.CostJSON(out, reports[0], cwd)
		}
	} else {
		for i, rep := range reports {
			if i > 0 {
				fmt.Fprintln(out)
			}
			if err = report.CostText(out, rep, cwd); err != nil {
				break
			}
		}
	}
	if err == nil {
		err = out.err
	}
	if err != nil {
		return exitError, fmt.Errorf("cannot write the report: %w", err)
	}
	if cmd.SVG != "" && len(reports) > 0 {
		// One chart: of the costliest configuration when there are several.
		top := reports[0]
		for _, rep := range reports[1:] {
			if rep.Result.StartupSeconds > top.Result.StartupSeconds {
				top = rep
			}
		}
		if len(reports) > 1 {
			fmt.Fprintf(e.stderr, "nginx-lint: %s: the chart shows %s, the costliest of %d configurations\n", cmd.SVG, top.Name, len(reports))
		}
		if real, err := atomicfile.WriteFile(cmd.SVG, []byte(report.CostSVG(top.Result, top.Name, cmd.budget())), atomicfile.Options{}); err != nil {
			return exitError, fmt.Errorf("--svg %s: %s", cmd.SVG, writeError(err, real, ""))
		}
	}
	if len(skipped) > 0 {
		names := make([]string, 0, len(skipped))
		for i, p := range skipped {
			if i == 10 {
				names = append(names, fmt.Sprintf("and %d more", len(skipped)-10))
				break
			}
			names = append(names, report.TerminalSafe(report.DisplayPath(p, cwd)))
		}
		fmt.Fprintf(e.stderr, "nginx-lint: not estimated (no server block): %s\n", strings.Join(names, ", "))
	}
	for _, u := range unreadable {
		fmt.Fprintf(e.stderr, "nginx-lint: %s: %s\n", report.TerminalSafe(u.Path), report.TerminalSafe(readError(u.Err)))
	}
	if len(unreadable) > 0 {
		return exitError, nil
	}
	// A configuration nginx cannot read (an unterminated block, blocks
	// nested too deep) never starts: its estimate counts what could be
	// read, and says so.
	if refusedAny := refusedReading(e.stderr, ests, cwd); refusedAny && cmd.FailLevel != "none" {
		return exitFindings, nil
	}
	if cmd.FailLevel != "none" {
		failAt, _ := parser.ParseSeverity(cmd.FailLevel)
		for _, rep := range reports {
			for _, d := range rep.Findings {
				if d.Severity >= failAt {
					return exitFindings, nil
				}
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

// refusedReading prints the first error of the parser or the loader of
// each estimated configuration (nginx refuses to read it) and reports
// whether there was one.
func refusedReading(stderr io.Writer, ests []lint.Estimate, cwd string) bool {
	refused := false
	for _, est := range ests {
		for _, d := range est.Unit.Config.AllDiagnostics() {
			if d.Severity < parser.Error {
				continue
			}
			fmt.Fprintf(stderr, "nginx-lint: %s: nginx refuses this configuration: %s:%d:%d: %s (%s); the estimate counts what could be read\n",
				report.TerminalSafe(report.DisplayPath(est.Unit.Config.Main.Path, cwd)), report.TerminalSafe(report.DisplayPath(d.FilePath(), cwd)),
				d.Start().Line, d.Start().Column, report.TerminalSafe(d.Message), d.Name)
			refused = true
			break
		}
	}
	return refused
}
