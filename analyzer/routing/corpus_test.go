package routing_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/corpustest"
)

// TestCorpusRoutes routes the request set of every configuration of
// the corpus (nginx's own tests, distributions', projects'), accepted by
// nginx or not, plus targets nginx refuses: no request panics or loops,
// every answer has a server or is refused, and an answer the model is
// sure of has a handler.
func TestCorpusRoutes(t *testing.T) {
	root := corpustest.Root(t)
	configs, requests, unsure := 0, 0, 0
	for _, e := range corpustest.Manifest(t) {
		if e["kind"] != "main" {
			continue
		}
		path := filepath.Join(root, e["path"])
		c, err := (&parser.Loader{Kinds: analyzer.Kinds}).Load(path)
		if err != nil {
			continue
		}
		configs++
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: panic %v", e["path"], r)
				}
			}()
			m := parser.BuildModel(c)
			md := routing.New(m, costmodel.Compute(m, costmodel.Options{}), routing.Options{NoFiles: true})
			var reqs []routing.HTTPRequest
			for r := range routing.Probes(md) {
				if len(reqs) == 3000 {
					break
				}
				reqs = append(reqs, r)
			}
			n := len(reqs)
			for i := 0; i < n && i < 50; i++ {
				for _, target := range []string{"/..", "/%00", "//%2e%2e/x", "/a%zz", "/\xff"} {
					r := reqs[i]
					r.Target = target
					reqs = append(reqs, r)
				}
			}
			for _, r := range reqs {
				a := md.Route(r)
				requests++
				if a.Handler.Kind == routing.HandlerUnknown {
					unsure++
					if len(a.Unsure) == 0 {
						t.Errorf("%s: %s: unknown handler without a reason", e["path"], r)
					}
				}
				if a.Server >= 0 && len(a.Steps) == 0 {
					t.Errorf("%s: %s: no step", e["path"], r)
				}
				if len(a.Steps) > 12 {
					t.Errorf("%s: %s: %d steps, beyond nginx's 10 URI changes", e["path"], r, len(a.Steps))
				}
			}
		}()
	}
	if configs < 100 {
		t.Fatalf("only %d configurations read", configs)
	}
	t.Logf("%d configurations, %d requests, %s unsure", configs, requests, fmt.Sprintf("%.1f%%", 100*float64(unsure)/float64(max(requests, 1))))
}
