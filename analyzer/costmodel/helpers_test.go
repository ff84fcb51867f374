package costmodel_test

import (
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/parser"
)

// model parses src as /t/nginx.conf (context inferred) and builds its model.
func model(t testing.TB, src string) *parser.Model {
	t.Helper()
	probe := parser.ParseString("/t/nginx.conf", src, nil)
	_, anc := analyzer.InferContext(probe)
	c := (&parser.Loader{Kinds: analyzer.Kinds, FS: &parser.Overlay{}}).LoadSource("/t/nginx.conf", []byte(src), anc)
	return parser.BuildModel(c)
}

func compute(t testing.TB, src string, opts costmodel.Options) *costmodel.Result {
	t.Helper()
	return costmodel.Compute(model(t, src), opts)
}

// layoutModel generates one benchmark layout and models it.
func layoutModel(t testing.TB, o layout.Options) *parser.Model {
	t.Helper()
	return model(t, string(layout.Generate(o)))
}
