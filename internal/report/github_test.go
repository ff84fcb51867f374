package report

import (
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/parser"
)

func TestGitHubEscaping(t *testing.T) {
	if got := githubData("50% done\r\nnext: a,b"); got != "50%25 done%0D%0Anext: a,b" {
		t.Errorf("data %q", got)
	}
	if got := githubProperty("C:\\x,y%\n"); got != "C%3A\\x%2Cy%25%0A" {
		t.Errorf("property %q", got)
	}
	// Detail goes on a second line of the message, escaped.
	f := parser.ParseString("/w/x.conf", "events {}\n", nil)
	d := &parser.Diagnostic{File: f, Range: parser.Range{Start: 0, End: 0}, Severity: parser.Info, Code: "NL5999", Name: "x", Message: "m", Detail: "d"}
	var b strings.Builder
	if err := (githubFormat{}).Format(&b, &Lint{Findings: []*parser.Diagnostic{d}, Dir: "/w"}); err != nil {
		t.Fatal(err)
	}
	if want := "::notice file=x.conf,line=1,col=1,endLine=1,endColumn=2,title=NL5999 x::m%0Ad\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
