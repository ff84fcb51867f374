package costpass

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
)

// Profile is the per-operation costs the cost model prices its steps
// with (nginx-lint cost --profile, written by nginx-lint calibrate): a
// run-wide input a front end sets; none given is
// costmodel.DefaultProfile.
var Profile = &analyzer.Input[*costmodel.Profile]{Name: "cost profile"}

// Options are the cost model's options for host facts h and profile
// prof (nil: the reference profile): what the run's Model is computed
// with, and what the optimizer estimates rewrites with.
func Options(h analyzer.Host, prof *costmodel.Profile) costmodel.Options {
	return costmodel.Options{NonRoot: h.NonRoot, NoFile: h.NoFile, CPUs: h.CPUs, Kernel: h.Kernel, Profile: prof}
}

// Model is the startup cost model of the analysed configuration for the
// run's host facts (Pass.Host) and Profile: one computation per run,
// which every rule and the front ends (Result.Of) share.
var Model = &analyzer.Result[struct{}, *costmodel.Result]{
	Name: "cost model",
	Compute: func(p *analyzer.Pass, _ struct{}) *costmodel.Result {
		o := Options(p.Host, Profile.Get(p))
		o.Ops = p.OpCounter()
		return costmodel.Compute(p.Model(), o)
	},
}

// Get returns the run's cost model, computed once for all rules.
func Get(p *analyzer.Pass) *costmodel.Result { return Model.Get(p, struct{}{}) }
