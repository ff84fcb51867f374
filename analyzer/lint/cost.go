package lint

import (
	"runtime"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
)

// costRules are the rules an estimate reports: those that read the cost
// model.
var costRules = func() *analyzer.Registry {
	r, err := analyzer.NewRegistry(rules.ListenPortAggregation, rules.ListenSocketCount, rules.ListenBindConflict,
		rules.WorkerConnections, rules.OpenFilesLimit, rules.ServerNamesHash, rules.StartupBudget)
	if err != nil {
		panic(err)
	}
	return r
}()

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

// Estimate reads targets as Lint does and runs the cost rules on each
// configuration: a site is costed as part of the nginx.conf that includes
// it, once. The host facts are Cost over the settings'; worker_processes
// auto resolves to this machine's CPUs unless either gives cpus.
func (w *Workspace) Estimate(targets []Target) ([]Estimate, *Report, error) {
	rep, err := w.Load(targets)
	if err != nil {
		return nil, nil, err
	}
	if w.Loaded != nil {
		w.Loaded(rep.Read)
	}
	var out []Estimate
	for _, e := range rep.Units {
		if e.Options.Cost.CPUs == 0 {
			e.Options.Cost.CPUs = runtime.NumCPU()
		}
		ds, rs := analyzer.RunResults(e.Config, costRules, e.Options)
		// The same ignore comments as a lint: a finding suppressed
		// under "nginx-lint" stays suppressed under "nginx-lint cost".
		ds = suppressRan(e.Config, w.registry(), costRules, e.Options, ds)
		e.results = rs
		est := Estimate{Unit: e, Model: rules.CostModel.Of(rs, e.Options.Cost), NoFileGiven: e.Options.Cost.NoFile > 0}
		for _, d := range ds {
			if strings.HasPrefix(d.Code, "NL4") {
				est.Findings = append(est.Findings, d)
			}
		}
		e.Findings = est.Findings
		out = append(out, est)
	}
	return out, rep, nil
}
