package routing_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/routing"
)

// orderedConfig is a generated configuration with many regexes
// wherever nginx tries regexes in order: regex locations (anchored,
// floating, caseless, some this model cannot run, nested ones), regex
// and wildcard server names on one address, and a map of hostnames and
// regexes that answers.
func orderedConfig(rng *rand.Rand) string {
	parts := []string{"a", "b", "api", "v1", "img", "x", "1", "2"}
	word := func() string { return parts[rng.IntN(len(parts))] }
	pattern := func() string {
		k := rng.IntN(9)
		if k == 6 && rng.IntN(10) != 0 {
			k = 8 // an unsure regex ends the search: rare
		}
		switch k {
		case 0:
			return fmt.Sprintf(`^/%s/%s`, word(), word())
		case 1:
			return fmt.Sprintf(`\.%s$`, word())
		case 2:
			return fmt.Sprintf(`/%s(/|$)`, word())
		case 3:
			return fmt.Sprintf(`^/(%s|%s)+/?$`, word(), word())
		case 4:
			return fmt.Sprintf(`%s\s`, word()) // no automaton: always tried
		case 5:
			return fmt.Sprintf(`^/(?<n>%s)/(\d+)`, word())
		case 6:
			return fmt.Sprintf(`(%s)\1`, word()) // not run: unsure
		case 7:
			return "$"
		}
		return fmt.Sprintf(`%s[0-9]*%s`, word(), word())
	}
	var b strings.Builder
	b.WriteString("events {}\nhttp {\n")
	b.WriteString("map $host $mapped {\n hostnames;\n default d;\n")
	for i := range 20 {
		switch rng.IntN(3) {
		case 0:
			fmt.Fprintf(&b, " *.%s%d.example m%d;\n", word(), i%4, i)
		case 1:
			fmt.Fprintf(&b, " %s%d.* m%d;\n", word(), i%4, i)
		default:
			fmt.Fprintf(&b, " ~^%s%d m%d;\n", word(), i%4, i)
		}
	}
	b.WriteString("}\n")
	for s := range 12 {
		fmt.Fprintf(&b, "server { listen 127.0.0.1:80; server_name s%d.example ~^%s%d\\.%s$ *.%s%d.example %s%d.*;\n", s, word(), s%5, word(), word(), s%3, word(), s%4)
		if s == 0 {
			fmt.Fprintf(&b, " location = /map { return 200 $mapped; }\n")
			for i := range 60 {
				mod := "~"
				if rng.IntN(4) == 0 {
					mod = "~*"
				}
				fmt.Fprintf(&b, " location %s %s { return 200 r%d; }\n", mod, pattern(), i)
				if i%20 == 0 {
					fmt.Fprintf(&b, " location /%s/ {\n", word())
					for j := range 12 {
						fmt.Fprintf(&b, "  location ~ %s { return 200 n%d.%d; }\n", pattern(), i, j)
					}
					b.WriteString(" }\n")
				}
			}
		}
		fmt.Fprintf(&b, " location / { return 200 s%d; }\n}\n", s)
	}
	b.WriteString("}\n")
	return b.String()
}

// answerLine is what Diff compares of an answer, and more.
func answerLine(a *routing.Answer) string {
	var steps []string
	for _, s := range a.Steps {
		steps = append(steps, s.URI+"?"+s.Args+" "+s.Location.String())
	}
	return fmt.Sprintf("server %d, %s, %s, steps %v, unsure %v", a.Server, a.Location, a.Describe(), steps, a.Unsure)
}

// TestOrderedAnswersAsLoop: on generated configurations with many
// regexes at every place nginx tries them in order, every request of
// the diff's request set and random ones get the same answer with the
// regexes asked as one regex.Ordered as tried one by one.
func TestOrderedAnswersAsLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 2))
	targets := []string{"/", "/a/b", "/api/v1/x.img", "/x1", "/b/2", "/API/V1", "/img/12", "/aa", "/a/", "/x.b", "/v1/", "/1/2/3", "/b b", "/a%0a", "/map"}
	hosts := []string{"s1.example", "a1.b", "x.a2.example", "api3.anything", "unknown", "B0.x", "q.v10.example"}
	for round := range 12 {
		src := orderedConfig(rng)
		var reqs []routing.HTTPRequest
		answers := func() []string {
			m := model(t, src, routing.Options{NoFiles: true})
			if reqs == nil {
				for r := range routing.Probes(m) {
					reqs = append(reqs, r)
				}
				for range 300 {
					r := get(hosts[rng.IntN(len(hosts))], targets[rng.IntN(len(targets))])
					r.Request.Port = 80
					reqs = append(reqs, r)
				}
			}
			var out []string
			for _, r := range reqs {
				out = append(out, r.String()+": "+answerLine(m.Route(r)))
			}
			return out
		}
		old := routing.SetOrderedFrom(math.MaxInt)
		loop := answers()
		routing.SetOrderedFrom(old)
		ordered := answers()
		if !slices.Equal(loop, ordered) {
			for i := range loop {
				if loop[i] != ordered[i] {
					t.Fatalf("round %d: one by one\n  %s\nas one\n  %s", round, loop[i], ordered[i])
				}
			}
		}
		if round == 0 {
			t.Logf("%d requests", len(reqs))
		}
	}
}

// regexLocations is one server of n regex locations, each with its own
// literal start and a part that backtracks, as issue 31's second attack
// wrote them.
func regexLocations(n int) string {
	var b strings.Builder
	b.WriteString("events {}\nhttp {\nserver { listen 127.0.0.1:8080; server_name a.example;\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "location ~ ^/r%d/(a|aa)+(b|bb)*c$ { return 200 r%d; }\n", i, i)
	}
	b.WriteString("}\n}\n")
	return b.String()
}

const smallConfig = "events {}\nhttp { server { listen 127.0.0.1:8080; server_name a.example; location / { return 200 x; } } }\n"

// TestDiffRegexLocationsWork: a diff of n regex locations against a
// small configuration asks about 3n requests, each tried against a
// regex of the level or two (a request may search the level again
// after an internal redirect), not against the n/2 a loop over them
// tries on average (which made the diff quadratic: 5.5 s of CPU for 5,000);
// the level's automaton grows with n, within its bound.
func TestDiffRegexLocationsWork(t *testing.T) {
	for _, n := range []int{500, 2000} {
		big, small := model(t, regexLocations(n), routing.Options{NoFiles: true}), model(t, smallConfig, routing.Options{NoFiles: true})
		changes, reqs := routing.Diff(big, small, routing.Probes(big, small))
		if reqs < 3*n || reqs > 4*n || len(changes) != reqs {
			t.Fatalf("%d locations: %d requests, %d changes; want about 3n, all changed", n, reqs, len(changes))
		}
		o := routing.ServerRegexes(big, 0)
		if o == nil {
			t.Fatalf("%d locations: the level's regexes are not asked as one", n)
		}
		work, spent := o.Work()
		offered := o.Offered()
		t.Logf("%d locations: %d requests, %d regexes tried, work %d", n, reqs, offered, work)
		if spent || work > 100*n || offered > 4*reqs+256 || offered < n {
			t.Errorf("%d locations: %d regexes tried for %d requests, work %d (spent %v); want %d to %d tried and at most %d work", n, offered, reqs, work, spent, n, 4*reqs+256, 100*n)
		}
	}
}
