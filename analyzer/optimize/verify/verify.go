// Package verify checks a rewrite of the optimizer against the real
// nginx: it runs the configuration before and after the rewrite, times
// nginx -t, a start and a reload of each, sends the same requests to a
// sample of servers (the right Host, a wrong Host, none) and compares
// which server answered, before against after and each against the
// routing model.
//
// A rewritten configuration listens on wildcard addresses, which would
// bind every interface of the machine; so everything runs in a network
// namespace of its own (Linux, root), whose only interface is its
// loopback, with every address the configuration names added to it.
// Nothing outside can reach the nginx it starts.
package verify

import (
	"fmt"
	"net/netip"
	"sort"
	"strings"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Options tune Run.
type Options struct {
	// Nginx is the binary to run.
	Nginx string
	// Sample is the number of servers sampled (0: 50); three requests go
	// to each, and one without Host and one with a wrong Host to an
	// address no listen names on each port.
	Sample int
	// Timeout bounds each nginx run (0: two minutes).
	Timeout time.Duration
	// Runs is how often nginx -t, a start and a reload are timed; the
	// medians count (0: once). The probes go to the first start.
	Runs int
}

func (o Options) runs() int { return max(o.Runs, 1) }

// Side is what one configuration measured.
type Side struct {
	// TestSeconds, StartSeconds and ReloadSeconds are wall times, the
	// medians of Options.Runs: the nginx -t process, until the pid file
	// appears, and from nginx -s reload until no worker of before the
	// reload is left and a new one runs.
	TestSeconds, StartSeconds, ReloadSeconds float64
	// Sockets are the listening TCP sockets once started.
	Sockets int
	// TestOK says nginx -t accepted the configuration; TestOutput is what
	// it wrote.
	TestOK     bool
	TestOutput string
}

// Answer codes besides server numbers.
const (
	// Refused: the connection was refused.
	Refused = routing.Refused
	// Closed: the connection was closed without a response (return 444).
	Closed = -2
)

// Probe is one request and its answers.
type Probe struct {
	Request routing.Request
	// Before and After are the server numbers that answered (or Refused,
	// Closed); PredictedBefore and PredictedAfter the routing model's.
	Before, After                   int
	PredictedBefore, PredictedAfter int
	// Unlisted says the request went to an address no listen names.
	Unlisted bool
}

// Result is a verification.
type Result struct {
	Before, After Side
	Probes        []Probe
	// Servers is the number of servers sampled.
	Servers int
}

// Same reports whether a probe was answered alike: by the same server,
// or refused before and taken by the catch-all server after (closed
// without a response).
func (p Probe) Same(catchAll int) bool {
	if p.Before == p.After {
		return true
	}
	return p.Unlisted && p.Before == Refused && (p.After == Closed || p.After == catchAll && catchAll >= 0)
}

// ModelRight reports whether the routing model predicted both answers.
// A server whose answer is return 444 (the catch-all) shows as Closed.
func (p Probe) ModelRight(catchAll int) bool {
	ok := func(pred, got int) bool {
		return pred == got || got == Closed && pred == catchAll && catchAll >= 0
	}
	return ok(p.PredictedBefore, p.Before) && ok(p.PredictedAfter, p.After)
}

// sample picks the requests: up to n servers spread over the list (the
// first and last among them), each at an address it listens on, with
// its first name, a wrong name and no Host; and on each port (n at most),
// an address no listen names.
func sample(t *routing.Table, n int) (reqs []routing.Request, unlisted map[int]bool, servers int) {
	if n <= 0 {
		n = 50
	}
	where := map[int]routing.Request{}
	listed := map[netip.Addr]bool{}
	for _, p := range t.Ports {
		for _, a := range p.Addrs {
			if !a.IP.IsValid() {
				continue
			}
			listed[a.IP] = true
			ip := a.IP
			if ip.IsUnspecified() {
				// A wildcard: its servers are reached at an address no
				// other listen of the port names.
				continue
			}
			for _, s := range a.Servers {
				if _, ok := where[s]; !ok {
					where[s] = routing.Request{Addr: ip, Port: p.Port}
				}
			}
		}
	}
	var ids []int
	for s := range where {
		ids = append(ids, s)
	}
	sort.Ints(ids)
	pick := ids
	if len(ids) > n {
		pick = nil
		for i := 0; i < n; i++ {
			pick = append(pick, ids[i*(len(ids)-1)/(n-1)])
		}
	}
	for _, s := range pick {
		r := where[s]
		host := firstName(t.Servers[s])
		if host != "" {
			rr := r
			rr.Host = host
			reqs = append(reqs, rr)
		}
		wrong := r
		wrong.Host = "nginx-lint-wrong-host.invalid"
		reqs = append(reqs, wrong)
		none := r
		none.NoHost = true
		reqs = append(reqs, none)
	}
	unlisted = map[int]bool{}
	ports := 0
	for _, p := range t.Ports {
		if !p.Addrs[0].IP.Is4() || ports == n {
			// The unlisted address of n ports at most: a port per
			// server (L1) would otherwise double the requests.
			continue
		}
		ports++
		ip := netip.AddrFrom4([4]byte{127, 255, 255, 253})
		for listed[ip] {
			ip = ip.Prev()
		}
		unlisted[len(reqs)] = true
		reqs = append(reqs, routing.Request{Addr: ip, Port: p.Port, NoHost: true})
		unlisted[len(reqs)] = true
		reqs = append(reqs, routing.Request{Addr: ip, Port: p.Port, Host: "nginx-lint-wrong-host.invalid"})
	}
	return reqs, unlisted, len(pick)
}

// firstName is a server's first exact name, "" if none.
func firstName(s *parser.Server) string {
	for _, n := range s.Names() {
		sn := n.Spec()
		if sn.Name != "" && !strings.ContainsAny(sn.Name, "*~") && !strings.HasPrefix(sn.Name, ".") {
			return sn.Name
		}
	}
	return ""
}

// numbered returns the text of the file holding t's servers with a
// "return 200" naming each server's number as its first directive, so
// that an answer tells which server gave it. Every server must be in
// one file.
func numbered(t *routing.Table) (path string, text []byte, err error) {
	if len(t.Servers) == 0 {
		return "", nil, fmt.Errorf("no http server")
	}
	f := t.Servers[0].Directive.File
	var b strings.Builder
	at := 0
	for i, s := range t.Servers {
		d := s.Directive
		if d.File != f {
			return "", nil, fmt.Errorf("the servers are in more than one file (%s, %s): verification needs them in one", f.Path, d.File.Path)
		}
		lb := int(d.LBrace())
		if lb < at {
			return "", nil, fmt.Errorf("%s:%d: a server block without its brace", f.Path, d.Line())
		}
		b.WriteString(f.Src[at : lb+1])
		fmt.Fprintf(&b, " return 200 \"nginx-lint-server %d\\n\";", i)
		at = lb + 1
	}
	b.WriteString(f.Src[at:])
	return f.Path, []byte(b.String()), nil
}
