package costmodel

import (
	"github.com/nginx-lint/nginx-lint/internal/ngxparse"
	"iter"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

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
	// Ops, when set, counts the steps Compute takes (for the tests that
	// check how the model scales); nil counts nothing.
	Ops *atomic.Int64
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
//
// Instances are values in one array (Result.Instances) and hold no text:
// a config of 20,000 listens allocates 32 bytes with two pointers for
// each, which keeps both the allocation and the collector's scan small.
type Instance struct {
	Server *parser.Server
	Listen *parser.Listen
	// Port is the port the listen lands on, or the first of a run of
	// ports through LastPort that a port range covers alike (see Port).
	Port, LastPort uint16
	Protocol       parser.Protocol
	Family         Family
	// Wildcard is set for 0.0.0.0 and [::].
	Wildcard bool
	// Own is set when the listen forces a socket of its own (bind,
	// backlog, reuseport, ...: grammar.Listen.ForcesOwnSocket).
	Own       bool
	Reuseport bool
	// UDP is set for a datagram socket: a stream listen with udp, or an
	// http listen with quic. nginx keeps them apart from the TCP sockets
	// of the same port (ngx_http_add_listen compares the socket type).
	UDP bool
	// V6Only is false for an IPv6 wildcard with ipv6only=off, which then
	// also takes the port's IPv4 traffic.
	V6Only bool

	addr int32 // the address's number in the builder's slab
}

// Key returns the socket address, "127.0.0.1:80", "[::]:443", "unix:/x".
// It allocates only for a port range, whose listens each get their port.
func (in *Instance) Key() string {
	if in.Listen == nil || in.Listen.Spec == nil {
		return defaultKey(int32(in.Port))
	}
	sp := in.Listen.Spec
	if sp.LastPort > sp.Port {
		return keyWithPorts(sp.Key, int(in.Port), int(in.LastPort))
	}
	return sp.Key
}

// defaultKey is the address of the listen nginx implies for a server
// without one.
func defaultKey(port int32) string {
	switch port {
	case 80:
		return "0.0.0.0:80"
	case 8000:
		return "0.0.0.0:8000"
	}
	return "0.0.0.0:" + strconv.Itoa(int(port))
}

// Addr is one address of a port: every listen on the same socket address.
type Addr struct {
	Port *Port
	Key  string
	// Instances are the listens that landed here, in order.
	Instances []Instance

	ip4 uint32
	pos int32 // index in Port.Addrs, the order nginx scans
	// next is the number of the port's next address in the builder's
	// slab, -1 for the last: Port.Addrs is cut to its exact size once
	// all are known.
	next int32
	// While listens are added: how many landed here, how many distinct
	// servers, and the index of the last one in Result.Instances. The
	// slices are filled afterwards (builder.fill).
	nInst, nSrv, lastInst int32

	Wildcard  bool
	Bind      bool
	Reuseport bool
	V6Only    bool
	// Socket is set when the address gets a listening socket of its own;
	// otherwise the port's wildcard socket serves it.
	Socket bool
	hasIP4 bool
	// scattered is set when the address's listens are not consecutive in
	// Result.Instances; otherwise Instances is a part of that slice.
	scattered bool
}

// First returns the first listen directive of the address, nil if it
// only has implied default listens.
func (a *Addr) First() *parser.Directive {
	for i := range a.Instances {
		if l := a.Instances[i].Listen; l != nil {
			return l.Directive
		}
	}
	return nil
}

// Servers yields the distinct servers of the address in order. A
// server's listens are added together, so repeats are adjacent.
func (a *Addr) Servers() iter.Seq[*parser.Server] {
	return func(yield func(*parser.Server) bool) {
		var last *parser.Server
		for i := range a.Instances {
			if s := a.Instances[i].Server; s != last {
				last = s
				if !yield(s) {
					return
				}
			}
		}
	}
}

// ServerCount returns the number of distinct servers on the address.
func (a *Addr) ServerCount() int { return int(a.nSrv) }

// Port groups the addresses of one protocol, family and port, in order of
// appearance, as cmcf->ports does.
//
// Where port ranges are listened on (listen 127.0.0.1:1-65535), one Port
// stands for a run of ports (Port through Last) that every listen covers
// alike: nginx makes a port, its addresses and its sockets for each, the
// same for all, so the model makes one and counts it Width times (in
// Counts; a Port's own fields are per port). A range of 65,535 ports is
// one Port, not 65,535.
type Port struct {
	Port  int
	Addrs []*Addr
	// Wildcard is the port's wildcard address, nil when it has none.
	Wildcard *Addr
	// Sockets is the number of listening sockets nginx -t opens for it.
	Sockets int
	// AddrCompares counts ngx_cmp_sockaddr calls of the address scan
	// (Result.FarCompares says how many come past the cache).
	AddrCompares int64
	// ServerCompares counts the duplicate-server scan of
	// ngx_http_add_server on this port's addresses.
	ServerCompares int64
	// SortCompares counts ngx_http_cmp_conf_addrs calls of ngx_sort.
	SortCompares int64

	// While listens are added, the addresses are a list through
	// Addr.next, by slab number: first and last, -1 when empty. Once the
	// port has many, idx is 1 + the number of its index in
	// builder.indexes (0 while it has none); the indexes live in the
	// builder, so that a port carries no pointer for them.
	first, last int32
	idx         int32
	nAddrs      int32
	index       int32 // position in its protocol's ports array
	Protocol    parser.Protocol
	Family      Family
	UDP         bool
}

// portIndex finds a port's addresses once it has many: by the IPv4
// address as a number (ip4), or by the text (byAddr); one of the two is
// set.
type portIndex struct {
	byAddr map[string]int32 // slab numbers
	ip4    *ip4Table
}

// ip4Table indexes a port's IPv4 addresses by number: open addressing
// over slots holding the address and 1 + its slab number (0 for an empty
// slot). The slots hold the key, so a probe reads the table only, not the
// addresses scattered over the slab; and they hold no pointers for the
// collector to scan.
type ip4Table struct {
	slots []ip4Slot
	n     int
}

type ip4Slot struct {
	ip  uint32
	ref int32
}

func ip4Start(ip uint32, mask uint32) uint32 {
	return uint32(uint64(ip)*0x9E3779B97F4A7C15>>32) & mask
}

// get returns the slab number of the address ip, -1 if none.
func (t *ip4Table) get(ip uint32) int32 {
	mask := uint32(len(t.slots) - 1)
	for i := ip4Start(ip, mask); ; i = (i + 1) & mask {
		sl := t.slots[i]
		if sl.ref == 0 {
			return -1
		}
		if sl.ip == ip {
			return sl.ref - 1
		}
	}
}

// put makes ip map to the address numbered num, replacing an earlier
// address with the same number as a map assignment would.
func (t *ip4Table) put(ip uint32, num int32) {
	if 2*(t.n+1) > len(t.slots) {
		old := t.slots
		t.slots = make([]ip4Slot, max(64, 2*len(old)))
		mask := uint32(len(t.slots) - 1)
		for _, sl := range old {
			if sl.ref == 0 {
				continue
			}
			i := ip4Start(sl.ip, mask)
			for t.slots[i].ref != 0 {
				i = (i + 1) & mask
			}
			t.slots[i] = sl
		}
	}
	mask := uint32(len(t.slots) - 1)
	for i := ip4Start(ip, mask); ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.ref == 0 {
			*sl = ip4Slot{ip, num + 1}
			t.n++
			return
		}
		if sl.ip == ip {
			sl.ref = num + 1
			return
		}
	}
}

// lookup finds the address of a listen (key, and ip4 when hasIP4) on p: a
// scan while the port has few addresses, an index once it has many (keyed
// by the IPv4 address as a number, which hashes faster than the text, or
// by the text).
func (b *builder) lookup(p *Port, key string, ip4 uint32, hasIP4 bool) (a *Addr, num int32) {
	if p.idx != 0 {
		x := &b.indexes[p.idx-1]
		switch {
		case x.ip4 != nil && hasIP4:
			if j := x.ip4.get(ip4); j >= 0 {
				return b.addrSlab.at(int(j)), j
			}
			return nil, -1
		case x.byAddr != nil:
			if j, ok := x.byAddr[key]; ok {
				return b.addrSlab.at(int(j)), j
			}
		}
		return nil, -1
	}
	steps := 0
	defer func() { b.r.Options.count(steps) }()
	for j := p.first; j >= 0; {
		steps++
		a := b.addrSlab.at(int(j))
		if a.hasIP4 && hasIP4 && a.ip4 == ip4 || a.Key == key {
			return a, j
		}
		j = a.next
	}
	return nil, -1
}

// insert appends a, numbered num in the slab, to the port's addresses and
// index.
func (b *builder) insert(p *Port, a *Addr, num int32) {
	const scanMax = 8
	n := p.nAddrs // addresses before a
	a.pos, a.next = n, -1
	if p.last >= 0 {
		b.addrSlab.at(int(p.last)).next = num
	} else {
		p.first = num
	}
	p.last = num
	p.nAddrs++
	var x *portIndex
	if p.idx != 0 {
		x = &b.indexes[p.idx-1]
	}
	switch {
	case x != nil && x.ip4 != nil:
		x.ip4.put(a.ip4, num)
	case x != nil:
		x.byAddr[a.Key] = num
	case n < scanMax:
	case p.Family == IPv4 && a.hasIP4:
		t := &ip4Table{}
		for j := p.first; j >= 0; {
			x := b.addrSlab.at(int(j))
			t.put(x.ip4, j)
			j = x.next
		}
		b.indexes = append(b.indexes, portIndex{ip4: t})
		p.idx = int32(len(b.indexes))
	default:
		m := make(map[string]int32, 8*scanMax)
		for j := p.first; j >= 0; {
			x := b.addrSlab.at(int(j))
			m[x.Key] = j
			j = x.next
		}
		b.indexes = append(b.indexes, portIndex{byAddr: m})
		p.idx = int32(len(b.indexes))
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

// slab hands out elements from chunks of 256: pointers stay valid, a
// config of 20,000 addresses costs a hundred allocations, not 20,000,
// while a small one does not pay for a big slab. Elements are numbered
// in order, so an int32 can stand for a pointer.
type slab[T any] struct {
	chunks [][]T
	n      int
}

const slabChunk = 256

func (s *slab[T]) next() *T {
	if s.n%slabChunk == 0 {
		s.chunks = append(s.chunks, make([]T, slabChunk))
	}
	p := &s.chunks[s.n/slabChunk][s.n%slabChunk]
	s.n++
	return p
}

func (s *slab[T]) at(i int) *T { return &s.chunks[i/slabChunk][i%slabChunk] }

// Last returns the last port of the run of ports p stands for (p.Port
// for one port).
func (p *Port) Last() int {
	for _, a := range p.Addrs {
		if len(a.Instances) > 0 {
			return int(a.Instances[0].LastPort)
		}
	}
	return p.Port
}

// Width returns the number of ports p stands for.
func (p *Port) Width() int { return p.Last() - p.Port + 1 }

// Name returns "port 80" style text ("ports 1000-1999" for a run), with
// the family and protocol when they are not the common IPv4 http.
func (p *Port) Name() string {
	s := "port " + strconv.Itoa(p.Port)
	if last := p.Last(); last != p.Port {
		s = "ports " + strconv.Itoa(p.Port) + "-" + strconv.Itoa(last)
	}
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
	AddrComparesFar                int64 // of AddrCompares, past the profile's NearAddresses
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
	Instances []Instance
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
	// Truncated is the number of listens the configuration asks for when
	// it is over MaxListens, which the model then stops at; 0 otherwise.
	Truncated int

	// Settings read from the configuration.
	WorkerConnections    int
	WorkerConnectionsDir *parser.Directive
	HashMaxSize          int
	HashBucketSize       int
	HashMaxSizeDir       *parser.Directive
	HashBucketSizeDir    *parser.Directive
	HTTPBlock            *parser.Directive

	// For Shares: the model, the addresses by slab number (what an
	// Instance's addr refers to) and the servers that load a
	// certificate.
	model    *parser.Model
	addrs    []*Addr
	sslSrvrs map[*parser.Server]bool
}

// MaxListens bounds the listens the model places, a port range as one
// for each run of ports that the listens cover alike (see Port): a
// million is fifty times what the largest configurations that nginx
// starts have, and some 200 MB here; only ranges nested within each
// other a thousand deep reach it.
const MaxListens = 1 << 20

// Compute builds the cost model of m.
func Compute(m *parser.Model, opts Options) *Result {
	r := &Result{Options: opts, Profile: opts.Profile, model: m}
	if r.Profile == nil {
		r.Profile = DefaultProfile()
	}
	b := builder{r: r, m: m, ports: map[portGroup]*portTable{}}
	other := newOtherState(r, m)
	// The walk over every directive and the listens are independent and
	// both read memory-bound through the whole tree, so on a large
	// config they overlap on two cores; they write disjoint counts (the
	// listens' DNS lookups are added after the join).
	done := make(chan struct{})
	go func() {
		defer close(done)
		// A walker of its own: a builder shared with the goroutine
		// would live on the heap, and every pointer it records would
		// pay a write barrier.
		w := walker{r: r}
		w.settings(m.Config, other)
		// finish walks the server names; it tells hashes whether any is
		// a regex, so that hashes need not look at every single-server
		// address's names again.
		other.finish(m)
	}()
	b.instances()
	<-done
	r.Counts.DNSLookups += b.listenLookups
	b.sockets()
	b.hashes(other.regexNames)
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
	// lastGroup and lastTab remember the previous listen's table.
	lastGroup portGroup
	lastTab   *portTable
	// Ports and addresses come from slabs: a config of 20,000 addresses
	// should not cost 20,000 allocations.
	portSlab   slab[Port]
	addrSlab   slab[Addr]
	protoPorts [3]int32
	// indexes are the address indexes of the ports with many addresses.
	indexes []portIndex
	// lastSpec and last remember the previous listen's arguments and
	// address.
	lastSpec *grammar.Listen
	last     *Addr
	lastNum  int32
	// listens per protocol so far (stream and mail duplicate checks).
	protoListens [3]int64
	// listenLookups counts listens on host names, resolved at config
	// time.
	listenLookups int
}

// walker reads the settings in the walk over every directive.
type walker struct {
	r         *Result
	workers   int
	masterOff bool
}

// walk visits dirs, whose block is parent's (nil at the top), at depth
// blocks below the main context; included files in place of their
// include, as nginx reads them. A direct recursion with one switch on
// the name: a large config has a hundred thousand directives.
func (b *walker) walk(c *parser.Config, dirs []*parser.Directive, parent *parser.Directive, depth int, other *otherState) {
	r := b.r
	for _, d := range dirs {
		r.Counts.Directives++
		arg := func() string {
			if len(d.Args()) > 0 {
				return d.Args()[0].Value
			}
			return ""
		}
		switch d.Name().Value {
		case "worker_processes":
			if depth == 0 {
				if arg() == "auto" {
					b.workers = max(1, r.Options.CPUs)
				} else if n, err := strconv.Atoi(arg()); err == nil && n > 0 {
					b.workers = n
				}
			}
		case "master_process":
			if depth == 0 && arg() == "off" {
				b.masterOff = true
			}
		case "worker_connections":
			if n, err := strconv.Atoi(arg()); err == nil {
				r.WorkerConnections, r.WorkerConnectionsDir = n, d
			}
		case "server_names_hash_max_size":
			if n, ok := parseSize(arg()); ok {
				r.HashMaxSize, r.HashMaxSizeDir = n, d
			}
		case "server_names_hash_bucket_size":
			if n, ok := parseSize(arg()); ok {
				// ngx_http_core_init_main_conf aligns it to the cache line.
				r.HashBucketSize, r.HashBucketSizeDir = align(n, cacheLine), d
			}
		case "http":
			if r.HTTPBlock == nil && d.Block != nil {
				r.HTTPBlock = d
			}
		case "include":
			for _, f := range c.Included(d) {
				b.walk(c, f.Directives, parent, depth, other)
			}
		case "listen", "server_name":
			// The most frequent directives in large configs; listen is
			// the model's own business.
		default:
			other.visit(d, parent)
		}
		if d.Block != nil {
			b.walk(c, d.Block.Directives, d, depth+1, other)
		}
	}
}

// settings reads the main and http directives the model depends on, in
// the one walk over all directives that also feeds other.
func (b *walker) settings(c *parser.Config, other *otherState) {
	r := b.r
	r.WorkerConnections = 512
	r.HashMaxSize = 512
	r.HashBucketSize = cacheLine
	b.workers = 1
	b.walk(c, c.Main.Directives, nil, len(c.Context), other)
	workers := b.workers
	if b.masterOff {
		// Without a master nginx clones no reuseport sockets.
		workers = 1
	}
	r.Counts.Workers = workers
}

// parseSize reads nginx's size syntax (ngx_parse_size): a number with an
// optional k or m suffix.
func parseSize(s string) (int, bool) { return ngxparse.ParseSize(s) }

func align(n, a int) int { return (n + a - 1) &^ (a - 1) }

// instances expands every listen in the order nginx adds them and runs
// the scans of ngx_http_add_listen, ngx_http_add_addresses and
// ngx_http_add_server (and their stream and mail twins).
func (b *builder) instances() {
	r := b.r
	var defaults []*parser.Server
	n := 0
	b.r.Options.count(len(b.m.Servers))
	ranges, implied := false, false
	for _, s := range b.m.Servers {
		n += max(1, len(s.Listens()))
		implied = implied || len(s.Listens()) == 0 && s.Protocol == parser.HTTP
		for _, l := range s.Listens() {
			if sp := l.Spec; sp != nil && sp.LastPort > sp.Port {
				ranges = true
			}
		}
	}
	port := int32(80)
	if r.Options.NonRoot {
		port = 8000
	}
	var cuts []int
	if ranges {
		dflt := -1
		if implied {
			dflt = int(port)
		}
		cuts = b.portRuns(dflt)
		n = 0
		for _, s := range b.m.Servers {
			n += max(1, len(s.Listens()))
			for _, l := range s.Listens() {
				if sp := l.Spec; sp != nil && sp.LastPort > sp.Port {
					n += runsIn(cuts, sp.Port, sp.LastPort) - 1
				}
			}
		}
	}
	if n > MaxListens {
		// Port ranges that overlap in many ways can ask for more runs
		// of ports than the model places (each of 1,000 servers with a
		// range of its own inside the others'); the model keeps its own
		// memory bounded and says so.
		r.Truncated = n
		n = MaxListens
	}
	r.Instances = make([]Instance, 0, n)
	listens := 0
	for _, s := range b.m.Servers {
		r.Counts.Servers++
		r.Counts.Locations += countLocations(s.Locations())
		if len(s.Listens()) == 0 {
			if s.Protocol == parser.HTTP {
				defaults = append(defaults, s)
			}
			continue
		}
		ls := s.Listens()
		for i := range ls {
			l := &ls[i]
			if l.Spec == nil {
				continue
			}
			sp := l.Spec
			first, last := sp.Port, sp.Port
			if sp.LastPort > sp.Port {
				last = sp.LastPort
			}
			in := Instance{Server: s, Listen: l, Protocol: s.Protocol,
				Wildcard: sp.Wildcard(), Own: sp.ForcesOwnSocket(), Reuseport: sp.Has(grammar.ParamReuseport),
				UDP: sp.Has(grammar.ParamUDP) || sp.Has(grammar.ParamQUIC), V6Only: true}
			var ip4 uint32
			var hasIP4 bool
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
				b.listenLookups++
			default:
				in.Family = IPv4
				if sp.IP.Is4() {
					b4 := sp.IP.As4()
					ip4, hasIP4 = uint32(b4[0])<<24|uint32(b4[1])<<16|uint32(b4[2])<<8|uint32(b4[3]), true
				}
			}
			if last == first {
				if len(r.Instances) < MaxListens {
					in.Port, in.LastPort = uint16(first), uint16(first)
					r.Instances = append(r.Instances, in)
					b.addInstance(&r.Instances[len(r.Instances)-1], sp.Key, ip4, hasIP4)
					listens++
				}
				continue
			}
			// A range: one instance per run of ports it covers.
			k, _ := slices.BinarySearch(cuts, first)
			for ; cuts[k] <= last && len(r.Instances) < MaxListens; k++ {
				lo, hi := cuts[k], cuts[k+1]-1
				in.Port, in.LastPort = uint16(lo), uint16(hi)
				r.Instances = append(r.Instances, in)
				b.addInstance(&r.Instances[len(r.Instances)-1], keyWithPorts(sp.Key, lo, hi), ip4, hasIP4)
				listens += hi - lo + 1
			}
		}
	}
	// ngx_http_core_merge_srv_conf adds the default listen of servers
	// without one, after all explicit listens were added.
	key := defaultKey(port)
	for _, s := range defaults {
		if len(r.Instances) == MaxListens {
			break
		}
		r.Counts.DefaultListens++
		r.Instances = append(r.Instances, Instance{Server: s, Protocol: parser.HTTP, Family: IPv4, Port: uint16(port), LastPort: uint16(port), Wildcard: true, V6Only: true})
		b.addInstance(&r.Instances[len(r.Instances)-1], key, 0, true)
		listens++
	}
	r.Counts.Listens = listens
	b.fill()
}

// portRuns returns where the runs of ports begin that every listen, of
// every protocol and family, covers alike, in order, and one past the
// last port: the first port of each range and of each single port, and
// the port after each (and the implied listen's port dflt, unless
// negative: no server goes without a listen). Ports
// between two of them are all covered by the same listens, so nginx
// builds the same addresses and sockets for each: the model places one
// run for them. Runs are cut alike across protocols and families, so a
// run of one lines up with a run of another on the same ports.
func (b *builder) portRuns(dflt int) []int {
	var cuts []int
	if dflt >= 0 {
		cuts = append(cuts, dflt, dflt+1)
	}
	for _, s := range b.m.Servers {
		for _, l := range s.Listens() {
			if sp := l.Spec; sp != nil {
				cuts = append(cuts, sp.Port, max(sp.Port, sp.LastPort)+1)
			}
		}
	}
	slices.Sort(cuts)
	return slices.Compact(cuts)
}

// runsIn returns how many runs of cuts the ports first to last cover.
func runsIn(cuts []int, first, last int) int {
	i, _ := slices.BinarySearch(cuts, first)
	j, _ := slices.BinarySearch(cuts, last+1)
	return j - i
}

// fill gives every port and address its slices, each exactly sized: the
// ports in order of creation; the addresses of each port cut from one
// array; the listens of each address in the order they were added, as a
// part of Result.Instances when they are consecutive there (the common
// case) and copied into one array otherwise.
func (b *builder) fill() {
	r := b.r
	r.Ports = make([]*Port, b.portSlab.n)
	addrs := make([]*Addr, b.addrSlab.n)
	off := 0
	for i := range r.Ports {
		p := b.portSlab.at(i)
		r.Ports[i] = p
		p.Addrs = addrs[off : off : off+int(p.nAddrs)]
		off += int(p.nAddrs)
		for j := p.first; j >= 0; {
			a := b.addrSlab.at(int(j))
			p.Addrs = append(p.Addrs, a)
			j = a.next
		}
	}
	nScattered := 0
	for i := range b.addrSlab.n {
		if a := b.addrSlab.at(i); a.scattered {
			nScattered += int(a.nInst)
		}
	}
	var insts []Instance
	if nScattered > 0 {
		insts = make([]Instance, nScattered)
	}
	r.addrs = make([]*Addr, b.addrSlab.n)
	io := 0
	for i := range b.addrSlab.n {
		a := b.addrSlab.at(i)
		r.addrs[i] = a
		if a.scattered {
			a.Instances = insts[io : io : io+int(a.nInst)]
			io += int(a.nInst)
			continue
		}
		// Shared with Result.Instances, capped so that an append
		// cannot overwrite it.
		end := int(a.lastInst) + 1
		a.Instances = r.Instances[end-int(a.nInst) : end : end]
	}
	if nScattered > 0 {
		for i := range r.Instances {
			if a := b.addrSlab.at(int(r.Instances[i].addr)); a.scattered {
				a.Instances = append(a.Instances, r.Instances[i])
			}
		}
	}
	b.indexes = nil
}

// keyWithPorts replaces the ports of a range key ("0.0.0.0:8000-8010")
// with first-last, or first alone when they are equal.
func keyWithPorts(key string, first, last int) string {
	i := strings.LastIndexByte(key, ':')
	if i < 0 {
		return key
	}
	if first == last {
		return key[:i+1] + strconv.Itoa(first)
	}
	return key[:i+1] + strconv.Itoa(first) + "-" + strconv.Itoa(last)
}

func countLocations(ls []parser.Location) int {
	n := len(ls)
	for i := range ls {
		n += countLocations(ls[i].Locations())
	}
	return n
}

// addInstance adds the listen in, whose socket address is key (and the
// IPv4 address ip4 when hasIP4), to its port and address.
func (b *builder) addInstance(in *Instance, key string, ip4 uint32, hasIP4 bool) {
	r := b.r
	g := portGroup{in.Protocol, in.Family, in.UDP}
	tab := b.lastTab
	if tab == nil || g != b.lastGroup {
		tab = b.ports[g]
		if tab == nil {
			tab = new(portTable)
			b.ports[g] = tab
		}
		b.lastGroup, b.lastTab = g, tab
	}
	pn := in.Port
	id := int32(len(r.Instances) - 1)
	// A run of w ports is w listens, w ports and w addresses to nginx,
	// one after the other.
	w := int64(in.LastPort) - int64(in.Port) + 1
	if in.Protocol != parser.HTTP {
		// ngx_stream_core_listen and ngx_mail_core_listen compare every
		// new listen with all earlier ones of their module.
		r.Counts.StreamListenCompares += w*b.protoListens[in.Protocol] + w*(w-1)/2
		b.protoListens[in.Protocol] += w
	}
	// Consecutive listens with the same arguments (the parser shares
	// their Spec) land on the same address: skip both lookups.
	var p *Port
	var a *Addr
	var num int32
	if in.Listen != nil && in.Listen.Spec == b.lastSpec && b.last != nil && b.last.Port.Protocol == in.Protocol && b.last.Port.Port == int(in.Port) && w == 1 {
		a, num = b.last, b.lastNum
		p = a.Port
	} else {
		p = tab.get(pn)
	}
	if p == nil {
		// The scan of ngx_http_add_listen looked at every port and found
		// none; a run's ports are added one after the other.
		r.Counts.PortCompares += w*int64(b.protoPorts[in.Protocol]) + w*(w-1)/2
		p = b.portSlab.next()
		p.Protocol, p.Family, p.Port, p.UDP, p.index = in.Protocol, in.Family, int(in.Port), in.UDP, b.protoPorts[in.Protocol]
		p.first, p.last = -1, -1
		tab.set(pn, p)
		b.protoPorts[in.Protocol] += int32(w)
	} else {
		// A run's ports stand together in nginx's array.
		r.Counts.PortCompares += w*int64(p.index+1) + w*(w-1)/2
	}
	if a == nil {
		a, num = b.lookup(p, key, ip4, hasIP4)
	}
	if a == nil {
		if in.Protocol == parser.HTTP {
			// ngx_http_add_addresses compared with every address of the
			// port before adding this one.
			p.AddrCompares += int64(p.nAddrs)
		}
		num = int32(b.addrSlab.n)
		a = b.addrSlab.next()
		// Field by field: the slab element is zero, and assigning a
		// whole Addr literal copies the large struct.
		a.Port, a.Key, a.Wildcard, a.V6Only, a.ip4, a.hasIP4 = p, key, in.Wildcard, true, ip4, hasIP4
		b.insert(p, a, num)
		if in.Wildcard && in.Family != Unix {
			p.Wildcard = a
		}
	} else if in.Protocol == parser.HTTP {
		p.AddrCompares += int64(a.pos + 1)
		// ngx_http_add_server looks for the server among those already
		// on the address.
		p.ServerCompares += int64(a.nSrv)
	}
	if in.Own {
		a.Bind = true
		a.Reuseport = a.Reuseport || in.Reuseport
		a.V6Only = in.V6Only
	}
	if a.nInst == 0 || r.Instances[a.lastInst].Server != in.Server {
		a.nSrv++
	}
	if a.nInst > 0 && a.lastInst != id-1 {
		a.scattered = true
	}
	a.nInst++
	a.lastInst = id
	in.addr = num
	if in.Listen != nil {
		b.lastSpec, b.last, b.lastNum = in.Listen.Spec, a, num
	}
}

// sockets sorts each port's addresses the way ngx_sort does with
// ngx_http_cmp_conf_addrs and decides which get a socket
// (ngx_http_init_listening), then counts sockets at -t and at start.
func (b *builder) sockets() {
	r := b.r
	// The wildcard sockets and the modules, for conflicts.
	var wilds []*Addr
	var protos [3]bool
	nProtos := 0
	for _, p := range r.Ports {
		if !protos[p.Protocol] {
			protos[p.Protocol] = true
			nProtos++
		}
		// A run of ports counts once for each.
		w := p.Width()
		r.Counts.Ports += w
		r.Counts.Addrs += len(p.Addrs) * w
		b.r.Options.count(len(p.Addrs))
		p.SortCompares = sortCompares(p.Addrs)
		r.Counts.AddrCompares += p.AddrCompares * int64(w)
		r.Counts.AddrComparesFar += r.FarCompares(p) * int64(w)
		r.Counts.ServerCompares += p.ServerCompares * int64(w)
		r.Counts.SortCompares += p.SortCompares * int64(w)
		for _, a := range p.Addrs {
			a.Socket = p.Wildcard == nil || a == p.Wildcard || a.Bind
			if a.Socket {
				if a.Wildcard {
					wilds = append(wilds, a)
				}
				p.Sockets++
				if a.Reuseport {
					r.Counts.SocketsStart += r.Counts.Workers * w
				} else {
					r.Counts.SocketsStart += w
				}
			}
		}
		r.Counts.SocketsTest += p.Sockets * w
		if r.Options.Kernel != "" && kernelBefore61(r.Options.Kernel) {
			// Before bhash2 every bind() on a port walks the sockets
			// already bound to it (inet_csk_bind_conflict).
			k := int64(p.Sockets)
			r.Counts.BhashSteps += k * (k - 1) / 2 * int64(w)
		}
	}
	b.conflicts(wilds, nProtos)
}

// eachSocket calls f for every address with a socket, by port and in
// each port's order.
func (r *Result) eachSocket(f func(*Addr)) {
	for _, p := range r.Ports {
		r.Options.count(len(p.Addrs))
		for _, a := range p.Addrs {
			if a.Socket {
				f(a)
			}
		}
	}
}

// FirstSocket returns the first address that gets a listening socket,
// in nginx's order (by port, then each port's order), nil when there is
// none: where a finding about all the sockets is reported when no
// directive sets the limit.
func (r *Result) FirstSocket() *Addr {
	for _, p := range r.Ports {
		for _, a := range p.Addrs {
			if a.Socket {
				return a
			}
		}
	}
	return nil
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
func (b *builder) conflicts(wilds []*Addr, nProtos int) {
	r := b.r
	if len(wilds) == 0 && nProtos <= 1 {
		// Nothing to collide with: no wildcard socket, one module.
		return
	}
	type wkey struct {
		port int
		udp  bool
	}
	wild4 := map[wkey]*Addr{}
	wild6 := map[wkey]*Addr{}
	dual := map[wkey]*Addr{}
	// Two modules can only collide when more than one has listens.
	var seen map[string]*Addr
	if nProtos > 1 {
		seen = make(map[string]*Addr, r.Counts.SocketsTest)
	}
	for _, a := range wilds {
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
	r.eachSocket(func(a *Addr) {
		p := a.Port
		k := wkey{p.Port, p.UDP}
		if p.Family == Unix || p.Family == Host {
			return
		}
		if seen != nil {
			sk := a.Key
			if p.UDP {
				sk += "/udp"
			}
			if o := seen[sk]; o != nil && o.Port != p {
				r.Conflicts = append(r.Conflicts, Conflict{Own: a, Other: o,
					Message: "the " + p.Protocol.String() + " and " + o.Port.Protocol.String() + " modules both listen on " + a.Key})
				return
			}
			seen[sk] = a
		}
		if p.UDP {
			// Datagram sockets are never listen()ed, and with
			// SO_REUSEADDR on both the kernel lets a specific address
			// bind next to the wildcard.
			return
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
			return
		}
		r.Conflicts = append(r.Conflicts, Conflict{Own: a, Other: w,
			Message: a.Key + " has a socket of its own next to the wildcard " + w.Key +
				"; nginx -t passes but start fails with bind() to " + w.Key + " failed (98: Address already in use)"})
	})
}
