package costmodel

import (
	"fmt"
	"math"
	"sort"
)

// Phase is one term of the estimate: an operation count times a cost.
type Phase struct {
	// Name is a short description, e.g. "address scan".
	Name string
	// Func is the nginx function the term stands for.
	Func string
	// Key is the profile cost key.
	Key string
	Ops int64
	// Seconds is Ops times the profile's cost of Key.
	Seconds float64
	// Growth is how the term grows with the number of servers of a
	// layout like this one: 1 linear, 2 quadratic, 0 constant.
	Growth int
	// StartOnly marks terms that a start pays and nginx -t does not.
	StartOnly bool
	// Assumed is set when the cost of Key was not measured.
	Assumed bool
	// What says in one line what the term counts, for a reader of the
	// report who does not know nginx's code.
	What string
}

// Ops returns the operation counts of one `nginx -t` by cost key: the
// features Fit regresses measured times on.
func (r *Result) Ops() map[string]float64 {
	ops := map[string]float64{}
	for _, p := range r.Phases {
		if !p.StartOnly {
			ops[p.Key] += float64(p.Ops)
		}
	}
	return ops
}

// price turns the counts into phases and totals.
func (r *Result) price() {
	c := &r.Counts
	pr := r.Profile
	add := func(name, fn, key string, ops int64, growth int, startOnly bool, what string) {
		if ops == 0 && key != CostBase {
			return
		}
		r.Phases = append(r.Phases, Phase{Name: name, Func: fn, Key: key, Ops: ops,
			Seconds: float64(ops) * pr.Cost(key), Growth: growth, StartOnly: startOnly, Assumed: pr.IsAssumed(key), What: what})
	}
	add("process start", "main, ngx_init_cycle", CostBase, 1, 0, false,
		"starting the binary, setting up its modules and the cycle: paid once, whatever the configuration")
	add("directives read", "ngx_conf_parse", CostDirective, int64(c.Directives), 1, false,
		"each directive read from the files and handed to its module")
	add("included files", "ngx_conf_include", CostInclude, int64(c.IncludedFiles), 1, false,
		"each file an include opens and reads")
	add("servers created and merged", "ngx_http_core_server, ngx_http_merge_servers", CostServer, int64(c.Servers), 1, false,
		"each server block: every module's configuration created for it and merged with http's")
	add("locations created and merged", "ngx_http_core_location, ngx_http_merge_locations", CostLocation, int64(c.Locations), 1, false,
		"each location: its configuration created and merged with its server's")
	add("regexes compiled", "ngx_regex_compile", CostRegex, int64(c.Regexes), 1, false,
		"each regex (location ~, server_name ~, map, rewrite, if) compiled by PCRE")
	add("port scan", "ngx_http_add_listen", CostPortCompare, c.PortCompares, 2, false,
		"each listen compared with the ports listed before it: grows with the square of the ports")
	add("address scan", "ngx_http_add_addresses", CostAddrCompare, c.AddrCompares-c.AddrComparesFar+c.StreamListenCompares, 2, false,
		"each new address compared with those already on its port: grows with the square of a port's addresses")
	add("address scan past the cache", "ngx_http_add_addresses", CostAddrCompareFar, c.AddrComparesFar, 2, false,
		fmt.Sprintf("the same compares on a port with more than %d addresses, whose list no longer fits the CPU's cache: each one a memory access", pr.NearAddresses))
	add("server scan", "ngx_http_add_server", CostServerCompare, c.ServerCompares, 2, false,
		"each listen's server compared with the servers already on its address, for duplicates")
	add("address sort", "ngx_sort(ngx_http_cmp_conf_addrs)", CostSortCompare, c.SortCompares, 1, false,
		"the compares that sort each port's addresses, the wildcard last")
	add("server names added", "ngx_hash_add_key", CostNameKey, int64(c.NameKeys+c.NameConflicts), 1, false,
		"each server_name put in its address's names hash")
	add("conflicting-name warnings", "ngx_http_server_names", CostNameWarning, int64(c.NameConflicts), 1, false,
		"each \"conflicting server name\" warning logged for a name given twice on one address")
	add("server_names hash size search", "ngx_hash_init", CostHashProbe, c.HashProbes, 1, false,
		"the tries of hash sizes until every name of an address fits its bucket")
	add("SSL contexts and certificates", "ngx_http_ssl_merge_srv_conf", CostSSLServer, int64(c.SSLServers), 1, false,
		"each server with TLS: an SSL context created and its certificates and keys loaded")
	add("log files opened", "ngx_conf_open_file", CostLogFile, int64(c.LogFiles), 0, false,
		"each distinct log file opened")
	add("listening sockets (nginx -t)", "ngx_open_listening_sockets", CostSocket, int64(c.SocketsTest), 1, false,
		"each listening socket: socket(), setsockopt(), bind() and listen()")
	add("bind conflict scan (kernel < 6.1)", "inet_csk_bind_conflict", CostBhashStep, c.BhashSteps, 2, false,
		"the kernel's check of each bind() against the sockets already on its port, before Linux 6.1")
	add("reuseport clones (start only)", "ngx_clone_listening", CostSocket, int64(c.SocketsStart-c.SocketsTest), 1, true,
		"the copies of each reuseport socket made for every worker at start (not under nginx -t)")

	for _, p := range r.Phases {
		r.TestSeconds += notStart(p)
		r.StartupSeconds += p.Seconds
	}
	if c.DNSLookups > 0 {
		r.Unknown = append(r.Unknown, itoa(c.DNSLookups)+" host names resolved at config time "+
			"(proxy_pass and friends, upstream servers without resolve, listen on a name): each blocks "+
			"start, nginx -t and reload for a resolver round trip, not estimated here")
	}
	if r.Truncated > 0 {
		r.Unknown = append(r.Unknown, itoa(r.Truncated)+" listens once overlapping port ranges are cut into runs of ports they cover alike: the model stopped at "+
			itoa(MaxListens)+", so every count and estimate here is a lower bound")
	}
	// Reload: the signaller parses everything (ngx_init_cycle returns
	// before opening sockets for NGX_PROCESS_SIGNALLER), the master parses
	// again, matches each new listening socket against the old ones
	// (ngx_init_cycle, skipping those already matched: n(n+1)/2 steps) and
	// sleeps 100 ms before stopping the old workers
	// (ngx_master_process_cycle).
	config := r.TestSeconds - sum(r.Phases, CostSocket) - sum(r.Phases, CostBase) - sum(r.Phases, CostBhashStep)
	n := int64(c.SocketsStart)
	c.ReloadMatch = n * (n + 1) / 2
	r.ReloadSeconds = 2*(config+pr.Cost(CostBase)) + float64(c.ReloadMatch)*pr.Cost(CostReloadMatch) + pr.Cost(CostReloadWait)
	r.MemoryBytes = int64(pr.Cost(MemBase) + pr.Cost(MemServer)*float64(c.Servers) +
		pr.Cost(MemSocket)*float64(c.Addrs) + pr.Cost(MemLocation)*float64(c.Locations))
	r.ReloadMemoryBytes = 2 * r.MemoryBytes
}

// FarCompares is how many of the compares of a port's address scan come
// in scans past near addresses: each address added after the first near+1
// is compared with all those before it (ngx_http_add_addresses), with the
// port's array past the cache. addrs is the port's address count,
// compares its scan's steps (the far ones never more); near 0 is none.
func FarCompares(addrs int, compares int64, near int) int64 {
	if near <= 0 || addrs-1 <= near {
		return 0
	}
	k, n := int64(addrs), int64(near)
	return min(compares, k*(k-1)/2-n*(n+1)/2)
}

// FarCompares is how many of port p's address compares come past the
// profile's NearAddresses.
func (r *Result) FarCompares(p *Port) int64 {
	return FarCompares(len(p.Addrs), p.AddrCompares, r.Profile.NearAddresses)
}

// AddrScanSeconds prices the address scan of port p: its steps up to the
// profile's NearAddresses at addr-compare, the rest at addr-compare-far.
func (r *Result) AddrScanSeconds(p *Port) float64 {
	far := r.FarCompares(p)
	return float64(p.AddrCompares-far)*r.Profile.Cost(CostAddrCompare) + float64(far)*r.Profile.Cost(CostAddrCompareFar)
}

// AddrScan is one port's address scan, as calibrate re-prices it for
// another NearAddresses.
type AddrScan struct {
	Addrs    int
	Compares int64
	// Width is how many ports a run of ports stands for.
	Width int
}

// AddrScans are the address scans of the configuration's http ports.
func (r *Result) AddrScans() []AddrScan {
	var out []AddrScan
	for _, p := range r.Ports {
		if p.AddrCompares > 0 {
			out = append(out, AddrScan{Addrs: len(p.Addrs), Compares: p.AddrCompares, Width: p.Width()})
		}
	}
	return out
}

func notStart(p Phase) float64 {
	if p.StartOnly {
		return 0
	}
	return p.Seconds
}

func sum(ps []Phase, key string) float64 {
	s := 0.0
	for _, p := range ps {
		if p.Key == key && !p.StartOnly {
			s += p.Seconds
		}
	}
	return s
}

// Top returns the n phases that cost the most at start, largest first.
func (r *Result) Top(n int) []Phase {
	ps := append([]Phase(nil), r.Phases...)
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Seconds > ps[j].Seconds })
	if len(ps) > n {
		ps = ps[:n]
	}
	return ps
}

// Scale estimates the startup seconds of the same layout with servers
// servers instead of the current count: linear terms scale with the
// ratio, quadratic ones with its square. It draws the curves of
// `nginx-lint cost --svg`.
func (r *Result) Scale(phases []Phase, servers int) float64 {
	if r.Counts.Servers == 0 {
		return 0
	}
	f := float64(servers) / float64(r.Counts.Servers)
	t := 0.0
	for _, p := range phases {
		t += p.Seconds * math.Pow(f, float64(p.Growth))
	}
	return t
}
