package rules

import (
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/costpass"
	"github.com/nginx-lint/nginx-lint/parser"
)

// TestOneCostModelPerRun: every cost rule, the socket grouping and the
// front end reading the finished run (nginx-lint cost) get the same
// *costmodel.Result, computed once with the run-wide options.
func TestOneCostModelPerRun(t *testing.T) {
	var seen []*costmodel.Result
	spy := &analyzer.Rule{Code: "NL5998", Name: "cost-spy", Title: "records the cost model it reads",
		Doc: analyzer.Doc{Text: "t", Bad: "x;", Good: "y;"},
		Run: func(p *analyzer.Pass) { seen = append(seen, costpass.Get(p)) }}
	reg, err := analyzer.NewRegistry(spy, ListenSocketCount, OpenFilesLimit, DuplicateListen, WorkerConnections)
	if err != nil {
		t.Fatal(err)
	}
	f := parser.ParseString("/x/nginx.conf", "events {}\nhttp { server { } server { listen 8000; } }\n", nil)
	_, rs := runRules(&parser.Config{Main: f, Files: []*parser.File{f}}, reg, analyzer.Options{Host: analyzer.Host{NonRoot: true, NoFile: 4096, CPUs: 4}})
	got := costpass.Model.Of(rs, struct{}{})
	if len(seen) != 1 || seen[0] != got {
		t.Fatalf("the run's model %p, the rule saw %v", got, seen)
	}
	// The run-wide options reached it: a server without listen is on
	// *:8000 when nginx is not root.
	if got.Instances[0].Port != 8000 {
		t.Errorf("port %d, want 8000 (nonroot)", got.Instances[0].Port)
	}
}
