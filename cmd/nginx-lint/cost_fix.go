package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/optimize"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/internal/atomicfile"
	"github.com/nginx-lint/nginx-lint/internal/report"
	"github.com/nginx-lint/nginx-lint/parser"
)

// optimizeFlags are cost's rewriting flags.
type optimizeFlags struct {
	Fix        bool `name:"fix" help:"Rewrite the configuration into one that starts faster and routes every request as before (proven by the routing model), written atomically; prints each change with its estimated saving."`
	Diff       bool `name:"diff" help:"Print the rewrite of --fix as a unified diff instead of writing it."`
	Verify     bool `name:"verify" help:"Also run the real nginx (--nginx PATH, else the one installed) before and after the rewrite, in a private network namespace (Linux, root): time nginx -t, start and reload, count listening sockets, send requests to a sample of servers and compare which server answered. Prints measured against predicted; writes nothing."`
	Runs       int  `name:"runs" default:"1" help:"With --verify: time nginx -t, start and reload this many times each and print the medians."`
	AssumeHost bool `name:"assume-host" help:"Also apply the rewrites to name-based virtual hosts, which route requests without Host or with an unknown Host elsewhere: you accept that every client sends the Host of its server (they listen on a wildcard address: with --wildcard)."`
	Wildcard   bool `name:"wildcard" help:"Also apply the rewrites that give a port one wildcard listen where it listened on listed addresses only: nginx then answers that port on every address of the machine (connections to the others, refused before, are closed by a catch-all server); you accept that change."`
}

func (f optimizeFlags) any() bool { return f.Fix || f.Diff || f.Verify }

// optimizeOne plans the rewrite of one estimated configuration.
func optimizeOne(w *lint.Workspace, targets []lint.Target, est lint.Estimate, f optimizeFlags) (*optimize.Plan, error) {
	main := est.Unit.Config.Main.Path
	load := func(overlay map[string][]byte) (*parser.Model, error) {
		round := *w
		round.Overlay = overlay
		rep, err := round.Load(targets)
		if err != nil {
			return nil, err
		}
		for _, e := range rep.Units {
			if e.Config.Main.Path == main {
				return parser.BuildModel(e.Config), nil
			}
		}
		return nil, errors.New(main + ": not found after the rewrite")
	}
	return optimize.Optimize(load, optimize.Options{Cost: est.Unit.CostOptions(), AssumeHost: f.AssumeHost, Wildcard: f.Wildcard})
}

// runOptimize is cost --fix, --diff and --verify.
func (cmd *costCmd) runOptimize(e *env, w *lint.Workspace, targets []lint.Target, ests []lint.Estimate) (int, error) {
	if cmd.Path == "-" {
		return 0, &lint.UsageError{Msg: "--fix, --diff and --verify need files, not standard input"}
	}
	if cmd.Format != "text" || cmd.SVG != "" {
		return 0, &lint.UsageError{Msg: "--fix, --diff and --verify print a text report: --format json and --svg do not go with them"}
	}
	cwd, _ := os.Getwd()
	// Only a configuration nginx accepts is rewritten: the routing proof
	// reads the configuration as nginx would, and nginx reads none of one
	// it refuses (a server block inside a server, a directive it cannot
	// parse).
	lintRep, err := w.Lint(targets)
	if err != nil {
		return exitError, err
	}
	refused := map[string]*parser.Diagnostic{}
	for _, en := range lintRep.Units {
		for _, d := range en.Findings {
			if refusedByNginx(d, w.Registry) {
				refused[en.Config.Main.Path] = d
				break
			}
		}
	}
	// The report and the diff go where they go, and a write to either
	// that fails (a full disk, /dev/full) fails the run before any file
	// is written.
	stdout, stderr := &checkedWriter{w: e.stdout}, &checkedWriter{w: e.stderr}
	changed, refusedAny := false, false
	var changes []atomicfile.Change
	for _, est := range ests {
		if est.Model.Counts.Servers == 0 {
			continue
		}
		name := report.DisplayPath(est.Unit.Config.Main.Path, cwd)
		if d := refused[est.Unit.Config.Main.Path]; d != nil {
			fmt.Fprintf(e.stderr, "nginx-lint: %s: not rewritten: nginx refuses this configuration: %s:%d: %s (%s); fix that first\n",
				report.TerminalSafe(name), report.TerminalSafe(report.DisplayPath(d.FilePath(), cwd)), d.Start().Line, report.TerminalSafe(d.Message), d.Name)
			refusedAny = true
			continue
		}
		plan, err := optimizeOne(w, targets, est, cmd.optimizeFlags)
		if err != nil {
			return exitError, err
		}
		var out io.Writer = stdout
		if cmd.Diff {
			out = stderr
		}
		writePlan(out, name, plan)
		if len(plan.Fixed) > 0 {
			changed = true
		}
		switch {
		case cmd.Verify:
			code, err := cmd.verify(e, plan)
			if err != nil || code != exitClean {
				return code, err
			}
		case cmd.Diff:
			for _, p := range sortedKeys(plan.Fixed) {
				fmt.Fprint(stdout, unifiedDiff(report.DisplayPath(p, cwd), string(plan.Original[p]), string(plan.Fixed[p])))
			}
		case cmd.Fix:
			for _, p := range sortedKeys(plan.Fixed) {
				root := ""
				if t := est.Unit.Target; t.Root != "" && lint.Within(p, t.Root) {
					root = t.Root
				}
				// Expect: a file edited since it was read is not
				// overwritten with a rewrite of the old text, whose
				// routing proof says nothing about the new one.
				changes = append(changes, atomicfile.Change{Name: p, Data: plan.Fixed[p], Options: atomicfile.Options{Root: root, Expect: plan.Original[p]}})
			}
		}
	}
	for _, cw := range []*checkedWriter{stdout, stderr} {
		if cw.err != nil {
			fmt.Fprintf(e.stderr, "nginx-lint: cannot write the report: %v; nothing was written\n", cw.err)
			return exitError, nil
		}
	}
	// Every file of every configuration, or none: a half-rewritten
	// configuration routes as neither the old nor the new one.
	if beforeWrite != nil {
		for _, c := range changes {
			beforeWrite(c.Name)
		}
	}
	if !writeAll(e.stderr, changes, cwd, "") {
		return exitError, nil
	}
	switch {
	case refusedAny:
		return exitFindings, nil
	case cmd.Diff && changed:
		return exitFindings, nil
	}
	return exitClean, nil
}

// refusedByNginx reports whether d says that nginx refuses the
// configuration: an error of the parser, the loader or a correctness
// rule (the cost rules' errors are about starting, which the rewrite
// is for).
func refusedByNginx(d *parser.Diagnostic, reg *analyzer.Registry) bool {
	if d.Severity != parser.Error {
		return false
	}
	if reg == nil {
		reg = rules.All()
	}
	r := reg.Lookup(d.Code)
	return r != nil && (r.Category() == analyzer.Syntax || r.Category() == analyzer.Correctness)
}

func sortedKeys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// writePlan prints the rewrites of one configuration: applied ones with
// their saving, the others with the reason, the requests a routing change
// would move, and the totals.
func writePlan(w io.Writer, name string, p *optimize.Plan) {
	b, a := p.Before, p.After
	fmt.Fprintf(w, "%s: start ≈ %s → %s, nginx -t ≈ %s → %s, reload ≈ %s → %s; listening sockets at start %d → %d\n",
		report.TerminalSafe(name), costmodel.Seconds(b.StartupSeconds), costmodel.Seconds(a.StartupSeconds),
		costmodel.Seconds(b.TestSeconds), costmodel.Seconds(a.TestSeconds),
		costmodel.Seconds(b.ReloadSeconds), costmodel.Seconds(a.ReloadSeconds), b.Counts.SocketsStart, a.Counts.SocketsStart)
	if len(p.Rewrites) == 0 {
		fmt.Fprintln(w, "  nothing to rewrite")
	}
	for _, rw := range p.Rewrites {
		at := ""
		if rw.Path != "" {
			at = fmt.Sprintf(" (%s:%d)", report.TerminalSafe(report.DisplayPath(rw.Path, "")), rw.Line)
		}
		switch {
		case rw.Applied && rw.Saving > 0:
			fmt.Fprintf(w, "  applied: %s: saves ≈ %s at start%s\n", report.TerminalSafe(rw.Title), costmodel.Seconds(rw.Saving), at)
		case rw.Applied && rw.Saving < -1e-6:
			// A setting that fixes a warning or a failure may cost time.
			fmt.Fprintf(w, "  applied: %s: costs ≈ %s at start%s\n", report.TerminalSafe(rw.Title), costmodel.Seconds(-rw.Saving), at)
		case rw.Applied:
			fmt.Fprintf(w, "  applied: %s%s\n", report.TerminalSafe(rw.Title), at)
		default:
			saving := ""
			if rw.Saving > 0 {
				saving = fmt.Sprintf(" (would save ≈ %s)", costmodel.Seconds(rw.Saving))
			}
			fmt.Fprintf(w, "  not applied: %s%s: %s%s\n", report.TerminalSafe(rw.Title), saving, report.TerminalSafe(rw.Reason), at)
		}
		for _, c := range rw.Changes {
			fmt.Fprintf(w, "    - %s\n", report.TerminalSafe(c))
		}
	}
	if len(p.Fixed) > 0 {
		msg := fmt.Sprintf("every request served before goes to the same server, location and handler (%d requests answered alike by the request model)", p.Requests)
		if len(p.Opened) > 0 {
			msg += fmt.Sprintf("; as --wildcard accepted, nginx now listens on %s, every address of the machine", strings.Join(p.Opened, " and "))
		}
		if p.CatchAll >= 0 {
			msg += "; connections to addresses no listen names, refused before, reach the added catch-all server, which closes them (return 444)"
		}
		fmt.Fprintf(w, "  routing: %s\n", msg)
	}
}
