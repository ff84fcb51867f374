package valuecheck

import (
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/directives"
)

func TestCandidates(t *testing.T) {
	for _, c := range []struct {
		name   string
		ctx    directives.Context
		arg    int
		want   string // Candidates joined, or a part of them with "~" first
		closed bool
	}{
		{"server_tokens", directives.HTTP, 0, "off on build", true},
		{"proxy_buffering", directives.Location, 0, "on off", true},
		{"proxy_buffering", directives.Location, 1, "", false},
		{"listen", directives.Server, 1, "~default_server", false},
		{"listen", directives.StreamServer, 1, "~udp", false},
		{"server", directives.Upstream, 1, "weight= max_conns= max_fails= fail_timeout= backup down resolve service=", false},
		{"server", directives.HTTP, 1, "", false},
		{"root", directives.Location, 0, "", false},
	} {
		got, closed := Candidates(c.name, c.ctx, c.arg)
		joined := strings.Join(got, " ")
		ok := joined == c.want
		if strings.HasPrefix(c.want, "~") {
			ok = strings.Contains(" "+joined+" ", " "+c.want[1:]+" ")
		}
		if !ok || closed != c.closed {
			t.Errorf("Candidates(%s, %v, %d) = %q %v, want %q %v", c.name, c.ctx, c.arg, joined, closed, c.want, c.closed)
		}
	}
	if got, _ := Candidates("listen", directives.Server, 1); strings.Contains(strings.Join(got, " "), "udp") {
		t.Errorf("http listen offers udp: %v", got)
	}
}

func TestReplacements(t *testing.T) {
	for _, c := range []struct {
		name  string
		ctx   directives.Context
		arg   int
		value string
		want  string
	}{
		{"server_tokens", directives.HTTP, 0, "maybe", "off on build"},
		{"gzip", directives.HTTP, 0, "onn", "on"},
		{"listen", directives.Server, 1, "defualt_server", "default_server"},
		{"listen", directives.Server, 1, "backlg=512", "backlog=512"},
		{"server", directives.Upstream, 1, "wieght=2", "weight=2"},
		{"root", directives.Location, 0, "/x", ""},
	} {
		if got := strings.Join(Replacements(c.name, c.ctx, c.arg, c.value), " "); got != c.want {
			t.Errorf("Replacements(%s %s) = %q, want %q", c.name, c.value, got, c.want)
		}
	}
}
