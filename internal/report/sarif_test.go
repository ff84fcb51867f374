package report

import (
	"net/url"
	"strings"
	"testing"
)

func TestRelativeRef(t *testing.T) {
	for in, want := range map[string]string{
		"conf/nginx.conf":  "conf/nginx.conf",
		"a:b/x.conf":       "./a:b/x.conf",
		"x/a:b.conf":       "x/a:b.conf", // a colon after the first segment is fine
		"with space/y":     "with%20space/y",
		"100%/a#b?c.conf":  "100%25/a%23b%3Fc.conf",
		"<stdin>":          "%3Cstdin%3E",
		"sites-enabled/ü":  "sites-enabled/%C3%BC",
		"C:/outside/x.cnf": "./C:/outside/x.cnf",
	} {
		got := relativeRef(in)
		if got != want {
			t.Errorf("relativeRef(%q) = %q, want %q", in, got, want)
		}
		u, err := url.Parse(got)
		if err != nil || u.Scheme != "" || strings.TrimPrefix(u.Path, "./") != in {
			t.Errorf("%q does not parse back to %q: %+v %v", got, in, u, err)
		}
	}
}
