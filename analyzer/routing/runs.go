package routing

import (
	"slices"
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
)

// Run is an item found on the address of a run of ports (a port range
// that no other listen cuts is one run; costmodel.Port).
type Run[T any] struct {
	Item T
	Addr *costmodel.Addr
}

// MergeRuns merges the items that say the same thing (same) about the
// addresses of consecutive runs of one host, and returns each remaining
// item, in the order of its first run, with the address that its runs
// span written out ("127.0.0.1:1-65535"). A port range that other
// listens cut into runs (a single port inside it, an overlapping range)
// then gets one finding, as it is one listen, not one per run, let
// alone one per port.
func MergeRuns[T any](items []Run[T], same func(a, b T) bool) (out []T, addrs []string) {
	type span struct {
		first    Run[T]
		lo, hi   int
		host     string
		extended bool
	}
	// The spans that a run starting at a port would continue, by host and
	// that port: a lookup per item, however many spans a host has.
	type end struct {
		host string
		next int
	}
	var spans []*span
	ends := map[end][]*span{}
	for _, it := range items {
		host, lo, hi := runParts(it.Addr)
		k := end{host, lo}
		var into *span
		for j, s := range ends[k] {
			if same(s.first.Item, it.Item) {
				into = s
				ends[k] = append(ends[k][:j], ends[k][j+1:]...)
				break
			}
		}
		if into == nil {
			into = &span{first: it, lo: lo, hi: hi, host: host}
			spans = append(spans, into)
		} else {
			into.hi, into.extended = hi, true
		}
		if lo >= 0 {
			k := end{host, into.hi + 1}
			ends[k] = append(ends[k], into)
		}
	}
	for _, s := range spans {
		out = append(out, s.first.Item)
		addr := s.first.Addr.Key
		if s.extended {
			addr = s.host + ":" + strconv.Itoa(s.lo) + "-" + strconv.Itoa(s.hi)
		}
		addrs = append(addrs, addr)
	}
	return out, addrs
}

// runParts splits the address of a run into its host and its ports; an
// address without a port (a unix socket) is its own host, on no port
// another run can follow.
func runParts(a *costmodel.Addr) (host string, lo, hi int) {
	i := strings.LastIndexByte(a.Key, ':')
	if a.Port == nil || a.Port.Family == costmodel.Unix || i < 0 {
		return a.Key, -2, -2
	}
	return a.Key[:i], a.Port.Port, a.Port.Last()
}

// maxSpansNamed is how many address spans a finding names before it
// counts the rest.
const maxSpansNamed = 3

// MergeRunsPer merges what the runs of ports of one range say alike
// (MergeRuns, with same), then keeps one item per key: the first,
// with every span of ports its key was found on, written out
// ("127.0.0.1:1-99, 127.0.0.1:101-65535"). A range cut into runs by other
// listens is one listen to its author: a rule that reports at a listen or
// a server says so once, however many runs (or separate spans of runs)
// the cuts made. same must imply equal keys.
func MergeRunsPer[T any, K comparable](items []Run[T], key func(T) K, same func(a, b T) bool) (out []T, addrs []string) {
	if len(items) == 0 {
		return nil, nil
	}
	merged, spans := MergeRuns(items, same)
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
