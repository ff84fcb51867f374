package routing_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/routing"
)

// prefixesAndRegexes is one server of n prefix locations and n regex
// locations not anchored at the start: the request set asks each
// regex's example below each prefix, n² requests a host.
func prefixesAndRegexes(n int, status int) string {
	var b strings.Builder
	b.WriteString("events {}\nhttp { server { listen 127.0.0.1:8080; server_name a.example;\n")
	for i := range n {
		fmt.Fprintf(&b, "location /p%d/ { return 200; }\nlocation ~ \\.e%d$ { return %d; }\n", i, i, status)
	}
	b.WriteString("} }\n")
	return b.String()
}

// busyNested is n locations nested in one another, each setting a
// variable, sending it in a header and holding an exact and a regex
// location of its own: every request walks the levels down to its
// location, n levels for n requests.
func busyNested(n int) string { return busyNestedRegex(n, "^/r%d/") }

// busyNestedRegex is busyNested with each level's regex written as re
// (with %d for the level).
func busyNestedRegex(n int, re string) string {
	var b strings.Builder
	b.WriteString("events {}\nhttp { server { listen 127.0.0.1:8080;\n")
	for i := range n {
		fmt.Fprintf(&b, "location / {\nset $v%d x$request_id;\nadd_header X-V%d $v%d;\nproxy_set_header Host $host;\n"+
			"location = /e%d { return 204; }\nlocation ~ "+re+" { return 204; }\n", i, i, i, i, i)
	}
	b.WriteString("return 200 deep;\n" + strings.Repeat("}\n", n) + "} }\n")
	return b.String()
}

// TestBoundCutsBothShapes: the two shapes whose request set or answers
// grow as the square of the configuration stop at the work their Bound
// allows, and say they were cut; the work done passes the limit by one
// request's answers at most. Without the bound they ask n² requests
// (prefixes and regexes: 3 × 250,000 here) or walk n² levels (nested:
// 6,000 requests of 1,000 levels each, 12 million).
func TestBoundCutsBothShapes(t *testing.T) {
	for _, tc := range []struct {
		name          string
		before, after string
		limit, slack  int
	}{
		// The first limit ends in finding the paths below the prefixes.
		{"prefixes × regexes, cut while finding paths", prefixesAndRegexes(500, 204), prefixesAndRegexes(500, 204), 100_000, 8},
		{"prefixes × regexes", prefixesAndRegexes(500, 204), prefixesAndRegexes(500, 204), 1_000_000, 8},
		{"prefixes × regexes, every regex changed", prefixesAndRegexes(500, 204), prefixesAndRegexes(500, 205), 1_000_000, routing.ChangeWork + 8},
		{"prefixes × regexes against a small configuration", prefixesAndRegexes(500, 204), smallConfig, 1_000_000, routing.ChangeWork + 8},
		{"busy nested levels", busyNested(1000), busyNested(1000), 1_000_000, routing.ChangeWork + 4*1002},
	} {
		before, after := model(t, tc.before, routing.Options{NoFiles: true}), model(t, tc.after, routing.Options{NoFiles: true})
		b := routing.NewBound(before, after)
		if b.Limit < routing.BoundFloor {
			t.Errorf("%s: the default limit %d is below the floor", tc.name, b.Limit)
		}
		b.Limit = tc.limit
		changes := 0
		n := routing.DiffBounded(before, after, b.Probes(before, after), b, func(routing.Change) { changes++ })
		t.Logf("%s: %d requests, %d changes, work %d of %d", tc.name, n, changes, b.Work, b.Limit)
		if !b.Cut || n != b.Requests {
			t.Errorf("%s: %d requests (%d counted), cut %v: want the request set cut", tc.name, n, b.Requests, b.Cut)
		}
		if b.Work > b.Limit+routing.RequestWork+tc.slack || n*routing.RequestWork > b.Limit {
			t.Errorf("%s: work %d, %d requests: past the limit %d by more than a request", tc.name, b.Work, n, b.Limit)
		}
	}
}

// TestBoundDefault: the default bound grows with the configurations
// (a 1,000-level configuration of the second shape, 0.7 s of CPU, is
// compared whole), and a comparison within it is not cut and asks what
// Probes asks.
func TestBoundDefault(t *testing.T) {
	small := model(t, smallConfig, routing.Options{NoFiles: true})
	deep := model(t, busyNested(1000), routing.Options{NoFiles: true})
	if l0, l1 := routing.NewBound(small).Limit, routing.NewBound(deep, deep).Limit; l0 < routing.BoundFloor || l0 > routing.BoundFloor+10*routing.BoundPerDirective ||
		l1 < l0+2*6000*routing.BoundPerDirective {
		t.Errorf("limits %d (small) and %d (two of 1,000 busy levels): want the floor and %d a directive", l0, l1, routing.BoundPerDirective)
	}
	for _, tc := range []struct {
		name          string
		before, after *routing.Model
	}{{"small", small, small}, {"1,000 busy nested levels", deep, deep}, {"regex locations", model(t, regexLocations(500), routing.Options{NoFiles: true}), small}} {
		b := routing.NewBound(tc.before, tc.after)
		n := routing.DiffBounded(tc.before, tc.after, b.Probes(tc.before, tc.after), b, func(routing.Change) {})
		whole := 0
		for range routing.Probes(tc.before, tc.after) {
			whole++
		}
		if b.Cut || n != whole {
			t.Errorf("%s: %d of %d requests, cut %v (work %d of %d)", tc.name, n, whole, b.Cut, b.Work, b.Limit)
		}
	}
}

// TestNestedPrefixAskedOnce: levels nested under "location /" repeat
// the same prefix; each regex not anchored at the start is tried below
// it once, not once a level (n² regex runs for n levels).
func TestNestedPrefixAskedOnce(t *testing.T) {
	const n = 1000
	m := model(t, busyNestedRegex(n, "/r%d/"), routing.Options{NoFiles: true})
	b := routing.NewBound(m)
	b.Limit = 1 << 40
	reqs := 0
	for range b.Probes(m) {
		reqs++
	}
	if pairs := b.Work - reqs*routing.RequestWork; pairs > 2*n {
		t.Errorf("%d levels: %d prefix and regex pairs tried, want about %d", n, pairs, n)
	}
}
