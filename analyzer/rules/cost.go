package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/parser"
)

// The startup-cost rules (category 4) all read one costmodel.Result per
// analysis, shared through the CostModel result. The facts that change the
// model itself (nonroot, nofile, cpus, kernel) are run-wide, Pass.Host
// (analyzer.Options.Host), and so is the calibration profile
// (CostProfile), so every rule reads the same model.

// withCostOptions returns a rule's own options followed by the host facts
// the cost rules accepted before the settings' host: section, still
// accepted there, deprecated (analyzer.HostAliases): the settings fold
// them into the run-wide Host, so a rule never reads them itself.
func withCostOptions(own ...analyzer.Option) []analyzer.Option {
	return append(own, analyzer.HostAliases()...)
}

// CostProfile is the per-operation costs the cost model prices its steps
// with (nginx-lint cost --profile, written by nginx-lint calibrate); none
// given is costmodel.DefaultProfile.
var CostProfile = &analyzer.Input[*costmodel.Profile]{Name: "cost profile"}

// CostOptions are the cost model's options for host facts h and profile
// prof (nil: the reference profile): what the run's CostModel is computed
// with, and what the optimizer estimates rewrites with.
func CostOptions(h analyzer.Host, prof *costmodel.Profile) costmodel.Options {
	return costmodel.Options{NonRoot: h.NonRoot, NoFile: h.NoFile, CPUs: h.CPUs, Kernel: h.Kernel, Profile: prof}
}

// costModel returns the run's cost model, computed once for all rules.
func costModel(p *analyzer.Pass) *costmodel.Result { return CostModel.Get(p, struct{}{}) }

// reportAt reports at a listen directive's address argument, or at the
// server block when the listen is implied, or at the main file's start.
func reportAt(p *analyzer.Pass, a *costmodel.Addr, format string, args ...any) *parser.Diagnostic {
	if d := a.First(); d != nil {
		r := d.Name.Range
		if len(d.Args) > 0 {
			r = d.Args[0].Range
		}
		return p.Reportf(d.File, r, format, args...)
	}
	if len(a.Instances) > 0 && a.Instances[0].Server != nil {
		return p.ReportDirective(a.Instances[0].Server.Directive, format, args...)
	}
	return p.Reportf(p.Config.Main, parser.Range{}, format, args...)
}

// repeat writes n copies of format (with the index, from 1), per to a
// line, for the documentation examples of rules about large configs.
func repeat(n, per int, indent, format string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if (i-1)%per == 0 {
			b.WriteString(indent)
		}
		fmt.Fprintf(&b, format, i)
		if i%per == 0 || i == n {
			b.WriteString("\n")
		} else {
			b.WriteString(" ")
		}
	}
	return b.String()
}

// firstSocket returns the first address that gets a listening socket, in
// nginx's order: where a finding about all the sockets is reported when
// no directive sets the limit. nil when there is none.
func firstSocket(r *costmodel.Result) *costmodel.Addr {
	for _, port := range r.Ports {
		for _, a := range port.Addrs {
			if a.Socket {
				return a
			}
		}
	}
	return nil
}

// settingEdit changes the value of an http-level setting, or inserts it
// at the top of the http block.
func settingEdit(r *costmodel.Result, d *parser.Directive, name string, v int) []parser.Edit {
	if d != nil && len(d.Args) == 1 {
		return []parser.Edit{{File: d.File, Range: d.Args[0].Range, NewText: strconv.Itoa(v)}}
	}
	h := r.HTTPBlock
	if d != nil || h == nil || h.LBrace() < 0 {
		return nil
	}
	at := h.LBrace() + 1
	return []parser.Edit{{File: h.File, Range: parser.Range{Start: at, End: at},
		NewText: fmt.Sprintf("\n    %s %d;", name, v)}}
}

// DefaultStartupBudget is the startup-budget rule's budget when no option
// sets one: the default its option declares.
var DefaultStartupBudget = startupBudget.Default()

// CostModel is the startup cost model of the analysed configuration for
// the run's host facts and profile: one computation per run, which every
// rule and the front ends (Result.Of) share.
var CostModel = &analyzer.Result[struct{}, *costmodel.Result]{
	Name: "cost model",
	Compute: func(p *analyzer.Pass, _ struct{}) *costmodel.Result {
		o := CostOptions(p.Host, CostProfile.Get(p))
		o.Ops = p.OpCounter()
		return costmodel.Compute(p.Model(), o)
	},
}
