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
	// ops counts the server's operations by cost key (ShareKeys' order):
	// an array, not a map, as a configuration has 20,000 servers.
	ops [len(shareKeys)]int64
}

// shareKeys are the cost keys of the work charged to servers.
var shareKeys = [...]string{CostServer, CostLocation, CostDirective, CostRegex, CostSSLServer,
	CostPortCompare, CostAddrCompare, CostServerCompare, CostSocket, CostNameKey, CostNameWarning}

// Indexes of shareKeys.
const (
	shServer = iota
	shLocation
	shDirective
	shRegex
	shSSL
	shPortCompare
	shAddrCompare
	shServerCompare
	shSocket
	shNameKey
	shNameWarning
)

// ShareKeys are the cost keys of the operations a Share counts.
func ShareKeys() []string { return shareKeys[:] }

// Ops returns the server's operations of the cost key (a Phase's Key);
// 0 for a key no server is charged for.
func (s *Share) Ops(key string) int64 {
	for i, k := range shareKeys {
		if k == key {
			return s.ops[i]
		}
	}
	return 0
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
		out[i].Server = s
		ops := &out[i].ops
		ops[shServer] = 1
		ops[shLocation] = int64(countLocations(s.Locations()))
		dirs, regexes := 0, 0
		r.countServer(m.Config, s.Directive, "", &dirs, &regexes)
		for _, n := range s.Names() {
			if n.Spec().Kind == grammar.NameRegex {
				regexes++
			}
		}
		ops[shDirective], ops[shRegex] = int64(dirs), int64(regexes)
		if r.sslSrvrs[s] {
			ops[shSSL] = 1
		}
	}
	r.shareListens(out, at)
	r.shareNames(out, at)
	var cost [len(shareKeys)]float64
	for i, k := range shareKeys {
		cost[i] = r.Profile.Cost(k)
	}
	for i := range out {
		sh := &out[i]
		for j, n := range sh.ops {
			sh.Seconds += float64(n) * cost[j]
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
	if d.Name().Value == "include" {
		for _, f := range c.Included(d) {
			for _, x := range f.Directives {
				r.countServer(c, x, parent, dirs, regexes)
			}
		}
	}
	if d.Block != nil {
		for _, x := range d.Block.Directives {
			r.countServer(c, x, d.Name().Value, dirs, regexes)
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
		ops := &out[j].ops
		a := r.addrs[in.addr]
		p := a.Port
		w := int64(in.LastPort) - int64(in.Port) + 1
		if in.Protocol != parser.HTTP {
			ops[shAddrCompare] += w*protoListens[in.Protocol] + w*(w-1)/2
			protoListens[in.Protocol] += w
		}
		if !ports[p] {
			ports[p] = true
			ops[shPortCompare] += w*int64(p.index) + w*(w-1)/2
		} else {
			ops[shPortCompare] += w*int64(p.index+1) + w*(w-1)/2
		}
		st := &addrs[in.addr]
		pw := int64(p.Width())
		if in.Protocol == parser.HTTP {
			if !st.seen {
				ops[shAddrCompare] += int64(a.pos) * pw
			} else {
				ops[shAddrCompare] += int64(a.pos+1) * pw
				ops[shServerCompare] += st.nSrv * pw
			}
		}
		if !st.seen && a.Socket {
			ops[shSocket] += pw
			if a.Reuseport {
				// The clones of a start (Phase "reuseport clones").
				ops[shSocket] += int64(r.Counts.Workers-1) * pw
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
			out[j].ops[shNameKey] += k
			out[j].ops[shNameWarning] += kw
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
