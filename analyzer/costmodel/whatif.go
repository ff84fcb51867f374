package costmodel

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/nginx-lint/nginx-lint/internal/plural"
)

// WhatIf is a proposed change with its estimated effect.
type WhatIf struct {
	// Title says what to change, in words.
	Title string
	// Saving is the estimated startup time saved, in seconds (negative
	// when the change costs time but fixes something else).
	Saving float64
	// Note adds what else changes (sockets, warnings, failures).
	Note string
	// Phases are the startup phases after the change.
	Phases []Phase
}

// apply returns the phases with the ops of some keys changed by delta.
func (r *Result) apply(delta map[string]int64) []Phase {
	out := make([]Phase, 0, len(r.Phases))
	seen := map[string]bool{}
	for _, p := range r.Phases {
		if d, ok := delta[p.Key]; ok && !p.StartOnly && !seen[p.Key] {
			seen[p.Key] = true
			p.Ops = max(0, p.Ops+d)
			p.Seconds = float64(p.Ops) * r.Profile.Cost(p.Key)
		}
		out = append(out, p)
	}
	for k, d := range delta {
		if !seen[k] && d > 0 {
			out = append(out, Phase{Name: k, Key: k, Ops: d, Seconds: float64(d) * r.Profile.Cost(k), Growth: 2})
		}
	}
	return out
}

func total(ps []Phase) float64 {
	t := 0.0
	for _, p := range ps {
		t += p.Seconds
	}
	return t
}

// WhatIfs proposes changes to the listen layout and the hash settings,
// largest saving first.
func (r *Result) WhatIfs() []WhatIf {
	var out []WhatIf
	now := total(r.Phases)
	add := func(title, note string, delta map[string]int64) {
		ps := r.apply(delta)
		out = append(out, WhatIf{Title: title, Note: note, Phases: ps, Saving: now - total(ps)})
	}
	for _, p := range r.Ports {
		k := len(p.Addrs)
		if k < 2 || p.Family == Unix {
			continue
		}
		servers, listens := 0, int64(0)
		for _, a := range p.Addrs {
			servers += a.ServerCount()
			listens += int64(len(a.Instances))
		}
		s := int64(servers)
		// A run of ports saves as much on each.
		w := int64(p.Width())
		// All servers on one address: every later listen finds it at the
		// first compare, ngx_http_add_server scans all servers before it.
		add(fmt.Sprintf("serve the %d addresses of %s from one address with name-based virtual hosts", k, p.Name()),
			fmt.Sprintf("%d → 1 listening socket; the server scan grows to %s steps", p.Sockets, human(float64(s*(s-1)/2))),
			map[string]int64{
				CostAddrCompare:    w * ((listens - 1) - (p.AddrCompares - r.FarCompares(p))),
				CostAddrCompareFar: -w * r.FarCompares(p),
				CostServerCompare:  w * (s*(s-1)/2 - p.ServerCompares),
				CostSocket:         w * (1 - int64(p.Sockets)),
			})
		binds := 0
		for _, a := range p.Addrs {
			if a.Bind && !a.Wildcard {
				binds++
			}
		}
		switch {
		case p.Wildcard == nil && binds == 0 && p.Sockets > 1:
			ports := strconv.Itoa(p.Port)
			if w > 1 {
				ports += "-" + strconv.Itoa(p.Last())
			}
			add(fmt.Sprintf("add a wildcard listen on %s (listen %s;)", p.Name(), ports),
				fmt.Sprintf("%d → 1 listening socket; addresses are still scanned", p.Sockets),
				map[string]int64{CostSocket: w * (1 - int64(p.Sockets)), CostAddrCompare: w * listens})
		case p.Wildcard != nil && binds > 0:
			add(fmt.Sprintf("drop bind (and other socket options) from the %d specific listens of %s", binds, p.Name()),
				fmt.Sprintf("%d → 1 listening socket; fixes bind conflicts with the wildcard", p.Sockets),
				map[string]int64{CostSocket: w * (1 - int64(p.Sockets))})
		}
	}
	// Many ports on the same addresses: ngx_http_add_listen's scan.
	if r.Counts.PortCompares > 1_000_000 {
		n := int64(r.Counts.Listens)
		add(fmt.Sprintf("move the %d ports to one port with name-based virtual hosts", r.Counts.Ports),
			"one socket per address instead of one per port",
			map[string]int64{CostPortCompare: n - r.Counts.PortCompares, CostSocket: 1 - int64(r.Counts.SocketsTest),
				CostServerCompare: n*(n-1)/2 - r.Counts.ServerCompares})
	}
	for _, h := range r.Hashes {
		if h.Outcome == HashOK {
			continue
		}
		title := ""
		fixMax, fixBucket := h.Fix()
		switch {
		case fixMax > 0:
			title = fmt.Sprintf("set server_names_hash_max_size %d", fixMax)
		case fixBucket > 0:
			title = fmt.Sprintf("set server_names_hash_bucket_size %d", fixBucket)
		default:
			continue
		}
		add(title, "removes nginx's "+h.Outcome.String()+" on "+h.Addr.Key, map[string]int64{})
		break
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Saving > out[j].Saving })
	return out
}

// Contributors describes the largest costs in words, e.g. "port 80
// aggregates 19900 addresses: 198M address compares ≈ 1.15 s".
func (r *Result) Contributors(n int) []string {
	var out []string
	scan := false // the address scan is said once, near and far steps together
	for _, p := range r.Top(n) {
		if p.Seconds <= 0 {
			continue
		}
		s := ""
		switch p.Key {
		case CostAddrCompare, CostAddrCompareFar:
			if scan {
				continue
			}
			scan = true
			var worst *Port
			for _, q := range r.Ports {
				if worst == nil || q.AddrCompares > worst.AddrCompares {
					worst = q
				}
			}
			if worst != nil && worst.AddrCompares > 0 {
				s = fmt.Sprintf("%s aggregates %d addresses: %s address compares ≈ %s",
					worst.Name(), len(worst.Addrs), human(float64(worst.AddrCompares)), Seconds(r.AddrScanSeconds(worst)))
				if far := r.FarCompares(worst); far > 0 {
					s += fmt.Sprintf(" (%s past the CPU's cache, from address %d on)", human(float64(far)), r.Profile.NearAddresses+2)
				}
			}
		case CostPortCompare:
			s = fmt.Sprintf("%s: %s port compares in ngx_http_add_listen ≈ %s", plural.Count(r.Counts.Ports, "port"), human(float64(p.Ops)), Seconds(p.Seconds))
		case CostServerCompare:
			var worst *Addr
			for _, q := range r.Ports {
				for _, a := range q.Addrs {
					if worst == nil || a.nSrv > worst.nSrv {
						worst = a
					}
				}
			}
			if worst != nil {
				s = fmt.Sprintf("%s has %s: %s duplicate-server checks ≈ %s", worst.Key, plural.Count(worst.nSrv, "server"), human(float64(p.Ops)), Seconds(p.Seconds))
			}
		case CostSocket:
			s = fmt.Sprintf("%s: socket, bind and listen ≈ %s", plural.Count(p.Ops, "listening socket"), Seconds(p.Seconds))
		case CostServer:
			s = fmt.Sprintf("%s: every module's configuration created and merged ≈ %s", plural.Count(p.Ops, "server"), Seconds(p.Seconds))
		}
		if s == "" {
			s = fmt.Sprintf("%s: %s %s ≈ %s", p.Name, human(float64(p.Ops)), plural.Noun(p.Ops, "operation"), Seconds(p.Seconds))
		}
		if p.Assumed {
			s += " (assumed cost)"
		}
		out = append(out, s)
	}
	return out
}

// human writes a count as 950, 12.3k, 198M, 1.2G.
func human(v float64) string {
	switch {
	case v >= 1e9:
		return fmt.Sprintf("%.3gG", v/1e9)
	case v >= 1e6:
		return fmt.Sprintf("%.3gM", v/1e6)
	case v >= 1e4:
		return fmt.Sprintf("%.3gk", v/1e3)
	}
	return fmt.Sprintf("%.0f", v)
}

// Seconds formats a duration in seconds as "1.15 s", "23 ms", "40 µs" or
// "3.3 ns".
func Seconds(s float64) string {
	switch {
	case s >= 1:
		return fmt.Sprintf("%.2f s", s)
	case s >= 1e-3:
		return fmt.Sprintf("%.3g ms", s*1e3)
	case s >= 1e-6 || s == 0:
		return fmt.Sprintf("%.3g µs", s*1e6)
	}
	return fmt.Sprintf("%.3g ns", s*1e9)
}
