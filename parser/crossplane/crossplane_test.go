package crossplane_test

import (
	"testing"

	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/crossplane"
)

func build(src string) *crossplane.Payload {
	f := parser.ParseString("/x/nginx.conf", src, nil)
	return crossplane.Build(&parser.Config{Main: f, Files: []*parser.File{f}}, crossplane.Options{})
}

// TestStrayBraceAfterComment: a "}" with nothing to close is an error even
// when a comment precedes it; only a "}" that cuts a statement short is
// reported as crossplane does, as a directive not terminated by ";".
func TestStrayBraceAfterComment(t *testing.T) {
	p := build("events {}\nfoo bar; # c\n}\n")
	if p.Status != "failed" || len(p.Errors) != 1 || p.Errors[0].Error != `unexpected "}" in /x/nginx.conf:3` {
		t.Errorf("payload %+v", p)
	}
	p = build("http {\n    foo bar\n}\n")
	if len(p.Errors) != 1 || p.Errors[0].Error != `directive "foo" is not terminated by ";" in /x/nginx.conf:2` {
		t.Errorf("payload %+v", p.Errors)
	}
}
