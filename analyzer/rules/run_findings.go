package rules

import (
	"slices"
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/routing"
)

// maxSpansNamed is how many address spans a finding names before it
// counts the rest.
const maxSpansNamed = 3

// oncePerKey merges what the runs of ports of one range say alike
// (routing.MergeRuns, with same), then keeps one item per key: the first,
// with every span of ports its key was found on, written out
// ("127.0.0.1:1-99, 127.0.0.1:101-65535"). A range cut into runs by other
// listens is one listen to its author: a rule that reports at a listen or
// a server says so once, however many runs (or separate spans of runs)
// the cuts made. same must imply equal keys.
func oncePerKey[T any, K comparable](items []routing.Run[T], key func(T) K, same func(a, b T) bool) (out []T, addrs []string) {
	if len(items) == 0 {
		return nil, nil
	}
	merged, spans := routing.MergeRuns(items, same)
	type group struct {
		first int
		spans []string
		seen  map[string]bool
	}
	var order []K
	groups := make(map[K]*group, len(merged))
	for i, it := range merged {
		k := key(it)
		g := groups[k]
		if g == nil {
			g = &group{first: i}
			groups[k] = g
			order = append(order, k)
		}
		// A TCP and a UDP socket of one address (stream's udp, http's
		// quic) are one address to name. A set once there are many,
		// so that a range cut into thousands of spans stays linear.
		switch {
		case g.seen != nil:
			if !g.seen[spans[i]] {
				g.seen[spans[i]] = true
				g.spans = append(g.spans, spans[i])
			}
		case !slices.Contains(g.spans, spans[i]):
			g.spans = append(g.spans, spans[i])
			if len(g.spans) > 8 {
				g.seen = make(map[string]bool, 2*len(g.spans))
				for _, sp := range g.spans {
					g.seen[sp] = true
				}
			}
		}
	}
	for _, k := range order {
		g := groups[k]
		out = append(out, merged[g.first])
		addrs = append(addrs, joinSpans(g.spans))
	}
	return out, addrs
}

// joinSpans names up to maxSpansNamed spans and counts the others.
func joinSpans(spans []string) string {
	if len(spans) <= maxSpansNamed {
		return strings.Join(spans, ", ")
	}
	return strings.Join(spans[:maxSpansNamed], ", ") + " and " + strconv.Itoa(len(spans)-maxSpansNamed) + " more"
}
