package rules

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/parser"
)

// The startup-cost rules (category 4) all read one costmodel.Result per
// analysis, shared through the CostModel result. The facts that change the
// model itself (nonroot, nofile, cpus, kernel, the profile) are run-wide,
// Pass.Cost (analyzer.Options.Cost), so every rule reads the same model.

// costModelOptions are the options every cost rule still accepts in a
// settings file, for compatibility: analyzer/config folds them into the
// run-wide analyzer.Options.Cost, so a rule never reads them itself.
var costModelOptions = []analyzer.Option{
	{Name: "nonroot", Type: analyzer.BoolOption, Default: "false", Doc: "nginx runs as a user other than root, so ports below 1024 cannot be bound. Run-wide: it sets the cost model every rule reads."},
	{Name: "nofile", Type: analyzer.IntOption, Default: "0", Doc: "The open-files limit (ulimit -n) nginx starts with; 0 means unknown. Run-wide: it sets the cost model every rule reads."},
	{Name: "cpus", Type: analyzer.IntOption, Default: "0", Doc: "CPUs of the host, for worker_processes auto; 0 means unknown. Run-wide: it sets the cost model every rule reads."},
	{Name: "kernel", Type: analyzer.StringOption, Default: "", Doc: "The host's Linux kernel version (\"6.1\"), for the socket options it supports. Run-wide: it sets the cost model every rule reads."},
}

// withCostOptions returns a rule's own options followed by the model's.
func withCostOptions(own ...analyzer.Option) []analyzer.Option {
	return append(own, costModelOptions...)
}

// costModel returns the run's cost model, computed once for all rules.
func costModel(p *analyzer.Pass) *costmodel.Result { return CostModel.Get(p, p.Cost) }

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
var DefaultStartupBudget = func() time.Duration {
	o, _ := StartupBudget.LookupOption("budget")
	v, _ := o.DefaultValue()
	return v.(time.Duration)
}()

// CostModel is the startup cost model of the analysed configuration, for
// the options of the host it is computed for; rules with the same options
// share one computation per run.
var CostModel = &analyzer.Result[costmodel.Options, *costmodel.Result]{
	Name: "cost model",
	Compute: func(p *analyzer.Pass, o costmodel.Options) *costmodel.Result {
		o.Ops = p.OpCounter()
		return costmodel.Compute(p.Model(), o)
	},
}
