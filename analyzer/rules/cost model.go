package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
)

// CostModel is the startup cost model of the analysed configuration, for
// the options of the host it is computed for; rules with the same options
// share one computation per run.
var CostModel = &analyzer.Result[costmodel.Options, *costmodel.Result]{
	Name: "cost model",
	Compute: func(p *analyzer.Pass, o costmodel.Options) *costmodel.Result {
		return costmodel.Compute(p.Model(), o)
	},
}
