package costmodel

import (
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// Options describe what the configuration alone cannot tell.
type Options struct {
	// NonRoot says nginx does not run as root, so a server without listen
	// gets *:8000 instead of *:80 (ngx_http_core_merge_srv_conf).
	NonRoot bool
	// NoFile is the master's open-file limit (RLIMIT_NOFILE); 0 means 1024,
	// the soft limit systemd gives services.
	NoFile int
	// CPUs is what worker_processes auto resolves to; 0 means 1.
	CPUs int
	// Kernel is the Linux version nginx runs on, e.g. "5.15"; empty means
	// 6.1 or later. Before 6.1 the kernel has no bhash2 table and every
	// bind() walks the sockets already bound to its port.
	Kernel string
	// Profile gives the per-operation costs; nil means DefaultProfile.
	Profile *Profile
}

func (o Options) nofile() int {
	if o.NoFile > 0 {
		return o.NoFile
	}
	return 1024
}

// Family is the address family of a listen.
type Family uint8

// Address families. Host is a name resolved at config time, whose family
// the linter cannot know.
const (
	IPv4 Family = iota + 1
	IPv6
	Unix
	Host
)

func (f Family) String() string {
	switch f {
	case IPv4:
		return "ipv4"
	case IPv6:
		return "ipv6"
	case Unix:
		return "unix"
	case Host:
		return "host"
	}
	return "unknown"
}

// Instance is one listen as nginx adds it: an explicit listen directive,
// or the implied default of a server without one (Listen nil).
type Instance struct {
	Server   *parser.Server
	Listen   *parser.Listen
	Protocol parser.Protocol
	Family   Family
	Port     int
	// Key is the socket address, "127.0.0.1:80", "[::]:443", "unix:/x".
	Key string
	// Wildcard is set for 0.0.0.0 and [::].
	Wildcard bool
	// Own is set when the listen forces a socket of its own (bind,
	// backlog, reuseport, ...: grammar.Listen.ForcesOwnSocket).
	Own       bool
	Reuseport bool
	// UDP is set for a stream listen with udp (a datagram socket).
	UDP bool
	// V6Only is false for an IPv6 wildcard with ipv6only=off, which then
	// also takes the port's IPv4 traffic.
	V6Only bool

	ip4    uint32 // the IPv4 address as a number, when hasIP4
	hasIP4 bool
}

// Addr is one address of a port: every listen on the same socket address.
type Addr struct {
	Port      *Port
	Key       string
	Wildcard  bool
	Bind      bool
	Reuseport bool
	V6Only    bool
	// Instances are the listens that landed here, in order.
	Instances []*Instance
	// Servers are the distinct servers on the address, in order.
	Servers []*parser.Server
	// Socket is set when the address gets a listening socket of its own;
	// otherwise the port's wildcard socket serves it.
	Socket bool
	// Hash is the simulated server_names hash, nil when nginx builds none
	// (a single server and no regex captures).
	Hash *HashResult

	inst   [1]*Instance
	srv    [1]*parser.Server
	ip4    uint32
	hasIP4 bool
	pos    int // index in Port.Addrs, the order nginx scans
}

// First returns the first listen directive of the address, nil if it
// only has implied default listens.
func (a *Addr) First() *parser.Directive {
	for _, in := range a.Instances {
		if in.Listen != nil {
			return in.Listen.Directive
		}
	}
	return nil
}

// Port groups the addresses of one protocol, family and port, in order of
// appearance, as cmcf->ports does.
type Port struct {
	Protocol parser.Protocol
	Family   Family
	Port     int
	UDP      bool
	Addrs    []*Addr
	// Wildcard is the port's wildcard address, nil when it has none.
	Wildcard *Addr
	// Sockets is the number of listening sockets nginx -t opens for it.
	Sockets int
	// AddrCompares counts ngx_cmp_sockaddr calls of the address scan.
	AddrCompares int64
	// ServerCompares counts the duplicate-server scan of
	// ngx_http_add_server on this port's addresses.
	ServerCompares int64
	// SortCompares counts ngx_http_cmp_conf_addrs calls of ngx_sort.
	SortCompares int64

	index  int              // position in its protocol's ports array
	addrs  [1]*Addr         // backing of Addrs while it has one address
	byAddr map[string]*Addr // index of Addrs once it has many
	byIP4  map[uint32]*Addr // the same for IPv4 addresses
}

// lookup finds the address of in on the port: a scan while the port has
// few addresses, a map once it has many (keyed by the IPv4 address as a
// number, which hashes faster than the text, or by the text).
func (p *Port) lookup(in *Instance) *Addr {
	switch {
	case p.byIP4 != nil && in.hasIP4:
		return p.byIP4[in.ip4]
	case p.byAddr != nil:
		return p.byAddr[in.Key]
	}
	for _, a := range p.Addrs {
		if a.hasIP4 && in.hasIP4 && a.ip4 == in.ip4 || a.Key == in.Key {
			return a
		}
	}
	return nil
}

// insert adds a to the port's index (the caller appends it to Addrs).
func (p *Port) insert(a *Addr) {
	const scanMax = 8
	switch {
	case p.byIP4 != nil:
		p.byIP4[a.ip4] = a
	case p.byAddr != nil:
		p.byAddr[a.Key] = a
	case len(p.Addrs) < scanMax:
	case p.Family == IPv4 && a.hasIP4:
		p.byIP4 = make(map[uint32]*Addr, 8*scanMax)
		for _, x := range p.Addrs {
			p.byIP4[x.ip4] = x
		}
		p.byIP4[a.ip4] = a
	default:
		p.byAddr = make(map[string]*Addr, 8*scanMax)
		for _, x := range p.Addrs {
			p.byAddr[x.Key] = x
		}
		p.byAddr[a.Key] = a
	}
}

// portTable finds a group's port by number in two steps, allocating a
// page of 256 entries only where ports are used: a flat 65,536-entry table
// would cost half a megabyte of pointers, zeroed and scanned on every run,
// for a config with one port.
type portTable [256]*[256]*Port

func (t *portTable) get(n uint16) *Port {
	if page := t[n>>8]; page != nil {
		return page[n&255]
	}
	return nil
}

func (t *portTable) set(n uint16, p *Port) {
	page := t[n>>8]
	if page == nil {
		page = new([256]*Port)
		t[n>>8] = page
	}
	page[n&255] = p
}

// next hands out the next element of a chunked slab: pointers stay valid,
// and a config of 20,000 addresses costs a hundred allocations, not
// 20,000, while a small one does not pay for a big slab.
func next[T any](s *[]T) *T {
	if len(*s) == cap(*s) {
		*s = make([]T, 0, 256)
	}
	*s = (*s)[:len(*s)+1]
	return &(*s)[len(*s)-1]
}

// Name returns "port 80" style text, with the family and protocol when
// they are not the common IPv4 http.
func (p *Port) Name() string {
	s := "port " + strconv.Itoa(p.Port)
	switch p.Family {
	case IPv6:
		s = "IPv6 " + s
	case Unix:
		s = "unix sockets"
	case Host:
		s = "host-name " + s
	}
	if p.UDP {
		s += "/udp"
	}
	if p.Protocol != parser.HTTP {
		s = p.Protocol.String() + " " + s
	}
	return s
}

// Conflict is a start failure that nginx -t does not report: two sockets
// whose bind() collide. In test mode nginx ignores EADDRINUSE
// (ngx_open_listening_sockets), at start it retries five times 500 ms
// apart and gives up.
type Conflict struct {
	// Own is the address with its own socket, Other the one it collides
	// with (usually the port's wildcard).
	Own, Other *Addr
	Message    string
}

// Limit is a resource nginx needs against what it has.
type Limit struct {
	Name string
	// Need is what the configuration requires, Have what it gets.
	Need, Have int
	// Directive is the directive that sets Have, nil for a default.
	Directive *parser.Directive
	// OK is false when nginx fails (or degrades) because Need > Have.
	OK      bool
	Message string
}

// Counts are the raw counts the phases are computed from.
type Counts struct {
	Servers, Locations, Directives int
	Listens                        int // listen instances, implied ones included
	DefaultListens                 int
	Ports, Addrs                   int
	PortCompares                   int64
	AddrCompares                   int64
	ServerCompares                 int64
	SortCompares                   int64
	StreamListenCompares           int64
	NameKeys                       int   // names added to server_names hashes
	NameConflicts                  int   // "conflicting server name" warnings
	HashProbes                     int64 // ngx_hash_init work
	Regexes                        int
	SSLServers                     int // servers loading certificates
	SSLCertificates                int // certificate files loaded (with repeats)
	SSLDistinct                    int // distinct certificate files
	DNSLookups                     int
	LogFiles                       int
	Includes, IncludedFiles        int
	SocketsTest, SocketsStart      int
	Workers                        int
	BhashSteps                     int64 // pre-6.1 kernels only
	ReloadMatch                    int64
}

// Result is the cost model of one configuration.
type Result struct {
	Options   Options
	Profile   *Profile
	Instances []*Instance
	Ports     []*Port
	Counts    Counts
	Hashes    []*HashResult
	Conflicts []Conflict
	Limits    []Limit
	// Phases are the startup phases in the order nginx runs them.
	Phases []Phase
	// TestSeconds estimates `nginx -t`; StartupSeconds a start (with the
	// reuseport clones and the sockets a start binds); ReloadSeconds a
	// `nginx -s reload` until the new workers run.
	TestSeconds, StartupSeconds, ReloadSeconds float64
	// MemoryBytes estimates the master's memory after reading the
	// configuration; a reload holds two configurations at once.
	MemoryBytes, ReloadMemoryBytes int64
	// Unknown lists costs the model counts but cannot price.
	Unknown []string

	// Settings read from the configuration.
	WorkerConnections    int
	WorkerConnectionsDir *parser.Directive
	HashMaxSize          int
	HashBucketSize       int
	HashMaxSizeDir       *parser.Directive
	HashBucketSizeDir    *parser.Directive
	HTTPBlock            *parser.Directive
}

// Compute builds the cost model of m.
func Compute(m *parser.Model, opts Options) *Result {
	r := &Result{Options: opts, Profile: opts.Profile}
	if r.Profile == nil {
		r.Profile = DefaultProfile()
	}
	b := builder{r: r, m: m, ports: map[portGroup]*portTable{}}
	other := newOtherState(r, m)
	b.settings(other)
	b.instances()
	b.sockets()
	b.hashes()
	other.finish(m)
	b.limits()
	r.price()
	return r
}

// portGroup is what ports are grouped by besides the number.
type portGroup struct {
	proto parser.Protocol
	fam   Family
	udp   bool
}

type builder struct {
	r *Result
	m *parser.Model
	// ports indexes each group's ports by number: a two-level table is
	// cheaper than a map for 20,000 ports and small for a config with a
	// few.
	ports map[portGroup]*portTable
	// Ports and addresses come from slabs: a config of 20,000 addresses
	// should not cost 20,000 allocations.
	portSlab   []Port
	addrSlab   []Addr
	protoPorts [3]int
	// lastSpec and last remember the previous listen's arguments and
	// address.
	lastSpec *grammar.Listen
	last     *Addr
	// listens per protocol so far (stream and mail duplicate checks).
	protoListens [3]int64
	masterOff    bool
}

// settings reads the main and http directives the model depends on, in
// the one walk over all directives that also feeds other.
func (b *builder) settings(other *otherState) {
	r := b.r
	r.WorkerConnections = 512
	r.HashMaxSize = 512
	r.HashBucketSize = cacheLine
	workers := 1
	c := b.m.Config
	c.Walk(func(d *parser.Directive, stack []*parser.Directive) bool {
		r.Counts.Directives++
		other.visit(d, stack)
		depth := len(stack) + len(c.Context)
		arg := ""
		if len(d.Args) > 0 {
			arg = d.Args[0].Value
		}
		switch d.Name.Value {
		case "worker_processes":
			if depth == 0 {
				if arg == "auto" {
					workers = max(1, b.r.Options.CPUs)
				} else if n, err := strconv.Atoi(arg); err == nil && n > 0 {
					workers = n
				}
			}
		case "master_process":
			if depth == 0 && arg == "off" {
				b.masterOff = true
			}
		case "worker_connections":
			if n, err := strconv.Atoi(arg); err == nil {
				r.WorkerConnections, r.WorkerConnectionsDir = n, d
			}
		case "server_names_hash_max_size":
			if n, ok := parseSize(arg); ok {
				r.HashMaxSize, r.HashMaxSizeDir = n, d
			}
		case "server_names_hash_bucket_size":
			if n, ok := parseSize(arg); ok {
				// ngx_http_core_init_main_conf aligns it to the cache line.
				r.HashBucketSize, r.HashBucketSizeDir = align(n, cacheLine), d
			}
		case "http":
			if r.HTTPBlock == nil && d.Block != nil {
				r.HTTPBlock = d
			}
		}
		return true
	})
	if b.masterOff {
		// Without a master nginx clones no reuseport sockets.
		workers = 1
	}
	r.Counts.Workers = workers
}

// parseSize reads nginx's size syntax (ngx_parse_size): a number with an
// optional k or m suffix.
func parseSize(s string) (int, bool) {
	mult := 1
	switch {
	case strings.HasSuffix(s, "k") || strings.HasSuffix(s, "K"):
		mult, s = 1024, s[:len(s)-1]
	case strings.HasSuffix(s, "m") || strings.HasSuffix(s, "M"):
		mult, s = 1024*1024, s[:len(s)-1]
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, false
	}
	return n * mult, true
}

func align(n, a int) int { return (n + a - 1) &^ (a - 1) }

// instances expands every listen in the order nginx adds them and runs
// the scans of ngx_http_add_listen, ngx_http_add_addresses and
// ngx_http_add_server (and their stream and mail twins).
func (b *builder) instances() {
	r := b.r
	var defaults []*parser.Server
	n := 0
	for _, s := range b.m.Servers {
		n += max(1, len(s.Listens))
	}
	slab := make([]Instance, 0, n)
	r.Instances = make([]*Instance, 0, n)
	// One allocation, not a chain of doublings, for configs with a port
	// per server.
	r.Ports = make([]*Port, 0, min(n, 1<<16))
	add := func(in Instance) {
		slab = append(slab, in)
		p := &slab[len(slab)-1]
		r.Instances = append(r.Instances, p)
		b.addInstance(p)
	}
	for _, s := range b.m.Servers {
		r.Counts.Servers++
		r.Counts.Locations += countLocations(s.Locations)
		if len(s.Listens) == 0 {
			if s.Protocol == parser.HTTP {
				defaults = append(defaults, s)
			}
			continue
		}
		for _, l := range s.Listens {
			if l.Spec == nil {
				continue
			}
			sp := l.Spec
			first, last := sp.Port, sp.Port
			if sp.LastPort > sp.Port {
				last = sp.LastPort
			}
			for port := first; port <= last; port++ {
				in := Instance{Server: s, Listen: l, Protocol: s.Protocol, Port: port,
					Wildcard: sp.Wildcard(), Own: sp.ForcesOwnSocket(),
					Reuseport: sp.Has(grammar.ParamReuseport), UDP: sp.Has(grammar.ParamUDP), V6Only: true}
				switch sp.Kind {
				case grammar.AddrIPv6:
					in.Family = IPv6
					if sp.Has(grammar.ParamIPv6Only) && !sp.IPv6Only {
						in.V6Only = false
					}
				case grammar.AddrUnix:
					in.Family = Unix
				case grammar.AddrHost:
					in.Family = Host
					r.Counts.DNSLookups++
				default:
					in.Family = IPv4
					if sp.IP.Is4() {
						b4 := sp.IP.As4()
						in.ip4, in.hasIP4 = uint32(b4[0])<<24|uint32(b4[1])<<16|uint32(b4[2])<<8|uint32(b4[3]), true
					}
				}
				in.Key = sp.Key
				if last != first {
					in.Key = keyWithPort(sp.Key, port)
				}
				add(in)
			}
		}
	}
	// ngx_http_core_merge_srv_conf adds the default listen of servers
	// without one, after all explicit listens were added.
	port, key := 80, "0.0.0.0:80"
	if r.Options.NonRoot {
		port, key = 8000, "0.0.0.0:8000"
	}
	for _, s := range defaults {
		r.Counts.DefaultListens++
		add(Instance{Server: s, Protocol: parser.HTTP, Family: IPv4, Port: port, Key: key, Wildcard: true, V6Only: true, hasIP4: true})
	}
	r.Counts.Listens = len(r.Instances)
}

// keyWithPort replaces the port of a range key ("0.0.0.0:8000-8010").
func keyWithPort(key string, port int) string {
	if i := strings.LastIndexByte(key, ':'); i >= 0 {
		return key[:i+1] + strconv.Itoa(port)
	}
	return key
}

func countLocations(ls []*parser.Location) int {
	n := len(ls)
	for _, l := range ls {
		n += countLocations(l.Locations)
	}
	return n
}

func (b *builder) addInstance(in *Instance) {
	r := b.r
	g := portGroup{in.Protocol, in.Family, in.UDP}
	tab := b.ports[g]
	if tab == nil {
		tab = new(portTable)
		b.ports[g] = tab
	}
	pn := uint16(in.Port)
	if in.Protocol != parser.HTTP {
		// ngx_stream_core_listen and ngx_mail_core_listen compare every
		// new listen with all earlier ones of their module.
		r.Counts.StreamListenCompares += b.protoListens[in.Protocol]
		b.protoListens[in.Protocol]++
	}
	// Consecutive listens with the same arguments (the parser shares
	// their Spec) land on the same address: skip both lookups.
	var p *Port
	var a *Addr
	if in.Listen != nil && in.Listen.Spec == b.lastSpec && b.last != nil && b.last.Port.Protocol == in.Protocol && b.last.Port.Port == in.Port {
		a = b.last
		p = a.Port
	} else {
		p = tab.get(pn)
	}
	if p == nil {
		// The scan of ngx_http_add_listen looked at every port and found
		// none.
		r.Counts.PortCompares += int64(b.protoPorts[in.Protocol])
		p = next(&b.portSlab)
		*p = Port{Protocol: in.Protocol, Family: in.Family, Port: in.Port, UDP: in.UDP, index: b.protoPorts[in.Protocol]}
		p.Addrs = p.addrs[:0:1]
		tab.set(pn, p)
		b.protoPorts[in.Protocol]++
		r.Ports = append(r.Ports, p)
	} else {
		r.Counts.PortCompares += int64(p.index + 1)
	}
	if a == nil {
		a = p.lookup(in)
	}
	if a == nil {
		if in.Protocol == parser.HTTP {
			// ngx_http_add_addresses compared with every address of the
			// port before adding this one.
			p.AddrCompares += int64(len(p.Addrs))
		}
		a = next(&b.addrSlab)
		// Field by field: the slab element is zero, and assigning a
		// whole Addr literal copies the large struct.
		a.Port, a.Key, a.Wildcard, a.V6Only, a.ip4, a.hasIP4 = p, in.Key, in.Wildcard, true, in.ip4, in.hasIP4
		a.pos = len(p.Addrs)
		// Most addresses have one listen: keep it inline.
		a.inst[0], a.srv[0] = in, in.Server
		a.Instances, a.Servers = a.inst[:0:1], a.srv[:0:1]
		p.insert(a)
		p.Addrs = append(p.Addrs, a)
		if in.Wildcard && in.Family != Unix {
			p.Wildcard = a
		}
	} else if in.Protocol == parser.HTTP {
		p.AddrCompares += int64(a.pos + 1)
		// ngx_http_add_server looks for the server among those already
		// on the address.
		p.ServerCompares += int64(len(a.Servers))
	}
	if in.Own {
		a.Bind = true
		a.Reuseport = a.Reuseport || in.Reuseport
		a.V6Only = in.V6Only
	}
	a.Instances = append(a.Instances, in)
	if len(a.Servers) == 0 || a.Servers[len(a.Servers)-1] != in.Server {
		a.Servers = append(a.Servers, in.Server)
	}
	if in.Listen != nil {
		b.lastSpec, b.last = in.Listen.Spec, a
	}
}

// sockets sorts each port's addresses the way ngx_sort does with
// ngx_http_cmp_conf_addrs and decides which get a socket
// (ngx_http_init_listening), then counts sockets at -t and at start.
func (b *builder) sockets() {
	r := b.r
	nAddrs := 0
	for _, p := range r.Ports {
		nAddrs += len(p.Addrs)
	}
	all := make([]*Addr, 0, nAddrs)
	for _, p := range r.Ports {
		r.Counts.Ports++
		r.Counts.Addrs += len(p.Addrs)
		p.SortCompares = sortCompares(p.Addrs)
		r.Counts.AddrCompares += p.AddrCompares
		r.Counts.ServerCompares += p.ServerCompares
		r.Counts.SortCompares += p.SortCompares
		for _, a := range p.Addrs {
			a.Socket = p.Wildcard == nil || a == p.Wildcard || a.Bind
			if a.Socket {
				p.Sockets++
				all = append(all, a)
			}
		}
		r.Counts.SocketsTest += p.Sockets
		if r.Options.Kernel != "" && kernelBefore61(r.Options.Kernel) {
			// Before bhash2 every bind() on a port walks the sockets
			// already bound to it (inet_csk_bind_conflict).
			k := int64(p.Sockets)
			r.Counts.BhashSteps += k * (k - 1) / 2
		}
	}
	for _, a := range all {
		if a.Reuseport {
			r.Counts.SocketsStart += r.Counts.Workers
		} else {
			r.Counts.SocketsStart++
		}
	}
	b.conflicts(all)
}

// sortCompares counts the comparisons of ngx_sort, an insertion sort, with
// ngx_http_cmp_conf_addrs: bind addresses first, wildcard last, the rest
// kept in order. An element is compared with each greater element before
// it, plus once with the element it stops at (if any).
func sortCompares(as []*Addr) int64 {
	if len(as) < 2 {
		return 0
	}
	var n int64
	var binds, plain, wild int64 // classes seen so far
	for i, a := range as {
		var greater int64
		switch {
		case a.Wildcard:
			// A wildcard compares greater than anything, itself included.
			greater = 0
		case a.Bind:
			greater = plain + wild
		default:
			greater = wild
		}
		if i > 0 {
			n += greater
			if greater < int64(i) {
				n++
			}
		}
		switch {
		case a.Wildcard:
			wild++
		case a.Bind:
			binds++
		default:
			plain++
		}
	}
	_ = binds
	return n
}

// kernelBefore61 reports whether a version such as "5.15.0-91" is older
// than 6.1.
func kernelBefore61(v string) bool {
	major, rest, _ := strings.Cut(v, ".")
	minor, _, _ := strings.Cut(rest, ".")
	minor = strings.TrimRightFunc(minor, func(r rune) bool { return r < '0' || r > '9' })
	ma, err1 := strconv.Atoi(major)
	mi, err2 := strconv.Atoi(minor)
	if err1 != nil {
		return false
	}
	if err2 != nil {
		mi = 0
	}
	return ma < 6 || ma == 6 && mi < 1
}

// conflicts finds sockets whose bind() fails at start: a socket of its own
// on a port whose wildcard also has a socket, unless both use reuseport;
// likewise an IPv6 wildcard with ipv6only=off against IPv4 sockets, and
// the same address and port in two modules. The kernel refuses these
// because nginx listen()s each socket right after binding it.
func (b *builder) conflicts(all []*Addr) {
	r := b.r
	type wkey struct {
		port int
		udp  bool
	}
	wild4 := map[wkey]*Addr{}
	wild6 := map[wkey]*Addr{}
	dual := map[wkey]*Addr{}
	// Two modules can only collide when more than one has listens.
	var seen map[string]*Addr
	protos := map[parser.Protocol]bool{}
	for _, p := range r.Ports {
		protos[p.Protocol] = true
	}
	if len(protos) > 1 {
		seen = make(map[string]*Addr, len(all))
	}
	for _, a := range all {
		if a.Wildcard {
			k := wkey{a.Port.Port, a.Port.UDP}
			switch a.Port.Family {
			case IPv4:
				wild4[k] = a
			case IPv6:
				wild6[k] = a
				if !a.V6Only {
					dual[k] = a
				}
			}
		}
	}
	for _, a := range all {
		p := a.Port
		k := wkey{p.Port, p.UDP}
		if p.Family == Unix || p.Family == Host {
			continue
		}
		if seen != nil {
			sk := a.Key
			if p.UDP {
				sk += "/udp"
			}
			if o := seen[sk]; o != nil && o.Port != p {
				r.Conflicts = append(r.Conflicts, Conflict{Own: a, Other: o,
					Message: "the " + p.Protocol.String() + " and " + o.Port.Protocol.String() + " modules both listen on " + a.Key})
				continue
			}
			seen[sk] = a
		}
		if p.UDP {
			// Datagram sockets are never listen()ed, and with
			// SO_REUSEADDR on both the kernel lets a specific address
			// bind next to the wildcard.
			continue
		}
		var w *Addr
		switch {
		case a.Wildcard && p.Family == IPv4:
			// An IPv4 wildcard collides with another module's wildcard
			// (found above) or a dual-stack IPv6 wildcard.
			w = dual[k]
		case !a.Wildcard && p.Family == IPv4:
			w = wild4[k]
			if w == nil {
				w = dual[k]
			}
		case !a.Wildcard && p.Family == IPv6:
			w = wild6[k]
		}
		if w == nil || w == a || (a.Reuseport && w.Reuseport) {
			continue
		}
		r.Conflicts = append(r.Conflicts, Conflict{Own: a, Other: w,
			Message: a.Key + " has a socket of its own next to the wildcard " + w.Key +
				"; nginx -t passes but start fails with bind() to " + w.Key + " failed (98: Address already in use)"})
	}
}
