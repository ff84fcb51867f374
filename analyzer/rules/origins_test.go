package rules

import (
	"regexp/syntax"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/regex"
)

func mustRegex(t *testing.T, expr string) *syntax.Regexp {
	t.Helper()
	re := regex.Parse(expr, false)
	if re == nil {
		t.Fatalf("cannot parse %q", expr)
	}
	return re
}

func TestOriginFlaw(t *testing.T) {
	for _, c := range []struct {
		expr   string
		origin bool
		opt    originOptions
		flawed bool
	}{
		{`^https://example\.com$`, true, originOptions{}, false},
		{`^https://([a-z0-9-]+\.)?example\.com(:[0-9]+)?$`, true, originOptions{}, false},
		{`^https://(app|www)\.example\.com$`, true, originOptions{}, false},
		{`^https://example\.com/`, false, originOptions{}, false},
		{`^https?://example\.com$`, true, originOptions{httpsOnly: true}, true},
		{`^https://example\.com$`, true, originOptions{domains: []string{"example.org"}}, true},
		{`^https://a\.example\.com$`, true, originOptions{domains: []string{"example.com"}}, false},
		{`^https://example\.com`, true, originOptions{}, true},
		{`^https://example.com$`, true, originOptions{}, true},
		{`^https://.*example\.com$`, true, originOptions{}, true},
		{`^https://example\.com|evil\.net$`, true, originOptions{}, true},
		{`example\.com`, true, originOptions{}, true},
	} {
		got := originFlaw(mustRegex(t, c.expr), c.origin, c.opt)
		if (got != "") != c.flawed {
			t.Errorf("%s (origin %v, %+v): flaw %q, want flawed=%v", c.expr, c.origin, c.opt, got, c.flawed)
		}
	}
}

func TestRegexAliasTraversal(t *testing.T) {
	for _, c := range []struct {
		loc, alias string
		want       bool
	}{
		{`/images(.*)`, "/srv/$1", true},
		{`/images/(.*)$`, "/srv/$1", false},
		{`/images/(.*)$`, "/srv$1", true},
		{`/images(/.*)`, "/srv$1", false},
		{`/images([^.]*)`, "/srv/$1", false},
		{`/images(?<rest>.*)`, "/srv/$rest", true},
		{`/images(.*)`, "/srv/static/", false},
		{`(.+/)tail$`, "/srv/$1", false},
		{`^(.*)/tail$`, "/srv/$1", false},
	} {
		if got := regexAliasTraversal(mustRegex(t, c.loc), c.alias); got != c.want {
			t.Errorf("location ~ %s alias %s: %v, want %v", c.loc, c.alias, got, c.want)
		}
	}
}
