package lint

import (
	"maps"
	"runtime"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/costpass"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Estimate is the startup and reload cost of one configuration.
type Estimate struct {
	Unit *Unit
	// Model is the cost model the cost rules computed, once, for every
	// rule and the report.
	Model *costmodel.Result
	// Findings are the cost rules' (NL4xxx); the parser's own findings
	// belong to a plain lint.
	Findings []*parser.Diagnostic
	// NoFileGiven says whether the open-file limit is the user's (a flag
	// or the settings) or the assumed default.
	NoFileGiven bool
}

// Estimate reads targets as Lint does and lints each configuration with
// the cost rules (those marked analyzer.Rule.Cost; every other rule is
// disabled): a site is costed as part of the nginx.conf that includes it,
// once. It is Run like any lint, so the ignore comments, severities and
// dedupe apply as they do under "nginx-lint"; a comment that ignores a
// rule the estimate does not run is neither unknown nor unused here. The
// host facts are Cost over the settings'; worker_processes auto resolves
// to this machine's CPUs unless either gives cpus.
func (w *Workspace) Estimate(targets []Target) ([]Estimate, *Report, error) {
	rep, err := w.Load(targets)
	if err != nil {
		return nil, nil, err
	}
	if w.Loaded != nil {
		w.Loaded(rep.Read)
	}
	reg := w.registry()
	var out []Estimate
	for _, e := range rep.Units {
		if e.Options.Host.CPUs == 0 {
			e.Options.Host.CPUs = runtime.NumCPU()
		}
		opts := e.Options
		opts.Disabled = maps.Clone(opts.Disabled)
		if opts.Disabled == nil {
			opts.Disabled = map[string]bool{}
		}
		for _, r := range reg.Rules() {
			if !r.Cost {
				opts.Disabled[r.Name] = true
			}
		}
		ds, rs := Run(e.Config, reg, opts)
		e.results = rs
		est := Estimate{Unit: e, Model: costpass.Model.Of(rs, struct{}{}), NoFileGiven: e.Options.Host.NoFile > 0}
		for _, d := range ds {
			// The cost rules' findings: the parser's own belong to a
			// plain lint.
			if r := reg.Lookup(d.Code); r != nil && r.Cost {
				est.Findings = append(est.Findings, d)
			}
		}
		e.Findings = est.Findings
		out = append(out, est)
	}
	return out, rep, nil
}
