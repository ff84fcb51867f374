package costmodel

import (
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// Share is one server block's part of the startup estimate: the work
// nginx does for that server alone, priced with the model's profile.
type Share struct {
	Server *parser.Server
	// Seconds is the server's part of StartupSeconds.
	Seconds float64
	// Ops are the server's operations by cost key (the keys of Phase).
	Ops map[string]int64
}

// Shares splits the startup estimate among the server blocks, in the
// order nginx reads them (servers of stream and mail too). A server is
// charged what nginx does because of it, counted as the model counts the
// whole: its creation and merge, its locations, directives (its included
// files' too) and regexes, its certificate, each of its listens' steps in
// the scans of ngx_http_add_listen, ngx_http_add_addresses and
// ngx_http_add_server (the step that found or added the address: a
// listen late on a crowded port pays for the addresses before it), the
// socket of an address it is the first on, and its part of the names of
// each server_names hash it is in (by its number of names). What belongs
// to no one server is left out: the process start, the directives outside
// servers, included files, log files, the address sort, the hash size
// search and the bind-conflict scan; the shares add up to StartupSeconds
// less those.
func (r *Result) Shares() []Share {
	m := r.model
	if m == nil {
		return nil
	}
	out := make([]Share, len(m.Servers))
	at := make(map[*parser.Server]int, len(m.Servers))
	for i, s := range m.Servers {
		at[s] = i
		out[i] = Share{Server: s, Ops: map[string]int64{CostServer: 1}}
		sh := &out[i]
		if n := countLocations(s.Locations()); n > 0 {
			sh.Ops[CostLocation] = int64(n)
		}
		dirs, regexes := 0, 0
		r.countServer(m.Config, s.Directive, "", &dirs, &regexes)
		for _, n := range s.Names() {
			if n.Spec().Kind == grammar.NameRegex {
				regexes++
			}
		}
		sh.Ops[CostDirective] = int64(dirs)
		if regexes > 0 {
			sh.Ops[CostRegex] = int64(regexes)
		}
		if r.sslSrvrs[s] {
			sh.Ops[CostSSLServer] = 1
		}
	}
	r.shareListens(out, at)
	r.shareNames(out, at)
	for i := range out {
		sh := &out[i]
		for k, n := range sh.Ops {
			sh.Seconds += float64(n) * r.Profile.Cost(k)
		}
	}
	return out
}

// countServer counts the directives nginx reads in d (d included) and
// the regexes it compiles there, following includes as the walk of
// Compute does.
func (r *Result) countServer(c *parser.Config, d *parser.Directive, parent string, dirs, regexes *int) {
	*dirs++
	*regexes += compiledRegexes(d, parent)
	if d.Name.Value == "include" {
		for _, f := range c.Included(d) {
			for _, x := range f.Directives {
				r.countServer(c, x, parent, dirs, regexes)
			}
		}
	}
	if d.Block != nil {
		for _, x := range d.Block.Directives {
			r.countServer(c, x, d.Name.Value, dirs, regexes)
		}
	}
}

// shareListens replays the listens in the order nginx adds them (as
// addInstance counts them) and charges each step to the listen's server.
func (r *Result) shareListens(out []Share, at map[*parser.Server]int) {
	type addrState struct {
		seen bool
		nSrv int64
		last *parser.Server
	}
	addrs := make([]addrState, len(r.addrs))
	ports := map[*Port]bool{}
	var protoListens [3]int64
	for i := range r.Instances {
		in := &r.Instances[i]
		j, ok := at[in.Server]
		if !ok || int(in.addr) >= len(r.addrs) {
			continue
		}
		ops := out[j].Ops
		a := r.addrs[in.addr]
		p := a.Port
		w := int64(in.LastPort) - int64(in.Port) + 1
		if in.Protocol != parser.HTTP {
			ops[CostAddrCompare] += w*protoListens[in.Protocol] + w*(w-1)/2
			protoListens[in.Protocol] += w
		}
		if !ports[p] {
			ports[p] = true
			ops[CostPortCompare] += w*int64(p.index) + w*(w-1)/2
		} else {
			ops[CostPortCompare] += w*int64(p.index+1) + w*(w-1)/2
		}
		st := &addrs[in.addr]
		pw := int64(p.Width())
		if in.Protocol == parser.HTTP {
			if !st.seen {
				ops[CostAddrCompare] += int64(a.pos) * pw
			} else {
				ops[CostAddrCompare] += int64(a.pos+1) * pw
				ops[CostServerCompare] += st.nSrv * pw
			}
		}
		if !st.seen && a.Socket {
			ops[CostSocket] += pw
			if a.Reuseport {
				// The clones of a start (Phase "reuseport clones").
				ops[CostSocket] += int64(r.Counts.Workers-1) * pw
			}
		}
		st.seen = true
		if st.last != in.Server {
			st.last = in.Server
			st.nSrv++
		}
	}
}

// shareNames charges the keys of each server_names hash to the servers
// of its address, by their number of names.
func (r *Result) shareNames(out []Share, at map[*parser.Server]int) {
	for _, h := range r.Hashes {
		keys := int64(h.Exact+h.WildcardHead+h.WildcardTail+h.Conflicts) * int64(h.Addr.Port.Width())
		warnings := int64(h.Conflicts) * int64(h.Addr.Port.Width())
		if keys == 0 {
			continue
		}
		var total int64
		for s := range h.Addr.Servers() {
			total += int64(plainNames(s))
		}
		if total == 0 {
			continue
		}
		// Whole operations, so that the parts add up to the hash's: the
		// remainder goes to the servers in order.
		var given, givenW int64
		n := int64(0)
		for s := range h.Addr.Servers() {
			n += int64(plainNames(s))
			j, ok := at[s]
			if !ok {
				continue
			}
			k, kw := keys*n/total-given, warnings*n/total-givenW
			given, givenW = given+k, givenW+kw
			out[j].Ops[CostNameKey] += k
			if kw > 0 {
				out[j].Ops[CostNameWarning] += kw
			}
		}
	}
}

// plainNames counts the names of s that go into a hash (not regexes).
func plainNames(s *parser.Server) int {
	n := 0
	for _, x := range s.Names() {
		if x.Spec().Kind != grammar.NameRegex {
			n++
		}
	}
	return n
}
