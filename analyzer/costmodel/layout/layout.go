package layout

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"strconv"
	"strings"
)

// Listen says how the servers of a layout are spread over addresses.
type Listen int

// The three listen schemes of the benchmark (the digit of a layout name).
const (
	// PortPerServer (L1) puts every server on BaseIP with its own port
	// BasePort, BasePort+1, ...
	PortPerServer Listen = iota + 1
	// IPPerServer (L2) puts every server on BasePort with its own
	// loopback IP BaseIP, BaseIP+1, ... inside 127.0.0.0/8.
	IPPerServer
	// SharedAddr (L3) puts every server on BaseIP:BasePort, so nginx has
	// to pick among them by name alone.
	SharedAddr
)

// Naming says which server_name each server of a layout gets.
type Naming int

// The three naming schemes of the benchmark (the letter of a layout name).
const (
	// NoName (a) writes no server_name at all.
	NoName Naming = iota + 1
	// SameName (b) gives every server SharedServerName.
	SameName
	// UniqueNames (c) gives server i the name ServerName(i).
	UniqueNames
)

// Layout is one of the nine benchmark layouts.
type Layout struct {
	Listen Listen
	Naming Naming
}

// DefaultBasePort is the first port used when Options.BasePort is zero.
// It is high enough to need no privileges and low enough that L1 with the
// benchmark's N=19,900 ends at port 39,899; L1 fits up to N=45,536.
const DefaultBasePort = 20000

// SharedServerName is the name every server gets in the b layouts.
const SharedServerName = "perf-test.example"

// DefaultBaseIP is the address used when Options.BaseIP is the zero value.
var DefaultBaseIP = netip.AddrFrom4([4]byte{127, 0, 0, 1})

// ServerName returns the server_name of server i (0-based) in the c
// layouts. Numbers are 1-based and zero-padded to five digits so names
// sort in server order for the benchmark's sizes; larger indexes simply
// get more digits.
func ServerName(i int) string {
	return fmt.Sprintf("perf-test-%05d.example", i+1)
}

// All returns the nine layouts in name order (L1a, L1b, ... L3c).
func All() []Layout {
	out := make([]Layout, 0, 9)
	for l := PortPerServer; l <= SharedAddr; l++ {
		for n := NoName; n <= UniqueNames; n++ {
			out = append(out, Layout{Listen: l, Naming: n})
		}
	}
	return out
}

// Names returns the names of the nine layouts in order: L1a, L1b, ... L3c.
func Names() []string {
	all := All()
	out := make([]string, len(all))
	for i, l := range all {
		out[i] = l.String()
	}
	return out
}

// String returns the layout's name, such as "L2c", or a descriptive
// placeholder when the layout is not one of the nine.
func (l Layout) String() string {
	if !l.valid() {
		return fmt.Sprintf("Layout(%d,%d)", int(l.Listen), int(l.Naming))
	}
	return "L" + strconv.Itoa(int(l.Listen)) + string(rune('a'+int(l.Naming)-1))
}

func (l Layout) valid() bool {
	return l.Listen >= PortPerServer && l.Listen <= SharedAddr &&
		l.Naming >= NoName && l.Naming <= UniqueNames
}

// ParseName parses a layout name such as "L2c". The letters are accepted
// in either case because names are typed on command lines.
func ParseName(s string) (Layout, error) {
	if len(s) == 3 && (s[0] == 'L' || s[0] == 'l') {
		d := int(s[1]) - '0'
		c := int(s[2]|0x20) - 'a'
		l := Layout{Listen: Listen(d), Naming: Naming(c + 1)}
		if l.valid() {
			return l, nil
		}
	}
	return Layout{}, fmt.Errorf("layout: unknown layout %q (want one of %s)", s, strings.Join(Names(), ", "))
}

// Server is one server block as it is about to be written. The layout
// fills it in and then hands it to Options.Server, which may change any
// field; the fields are written exactly as they are left.
type Server struct {
	// Index is the 0-based position of the server in the file.
	Index int
	// Addr is the address the layout assigned to this server.
	Addr netip.AddrPort
	// Listen is the address argument of the listen directive. It starts
	// as Addr in nginx syntax ("127.0.0.1:20000", "[::1]:20000"); a hook
	// may replace it, e.g. with "*:20000" for a wildcard listen.
	Listen string
	// ListenParams are written after Listen in the listen directive,
	// e.g. "reuseport" or "bind".
	ListenParams []string
	// Names are the server_name arguments; no server_name directive is
	// written when empty.
	Names []string
	// Lines are written verbatim, one per line and indented, after
	// server_name. They must carry their own terminating ";" or braces.
	Lines []string
}

// Options selects a layout and its size. The zero value of every field
// but Layout and N means "use the benchmark's default".
type Options struct {
	// Layout is the layout to generate.
	Layout Layout
	// N is the number of server blocks; it must be at least 1.
	N int
	// BasePort is the port of the first server (all servers in L2 and
	// L3). Zero means DefaultBasePort.
	BasePort int
	// BaseIP is the address of the first server (all servers in L1 and
	// L3). It must be a loopback address: IPv4 in 127.0.0.0/8, or ::1
	// for L1 and L3. The zero value means DefaultBaseIP.
	BaseIP netip.Addr
	// WorkerProcesses is written as worker_processes; zero means 1 and a
	// negative value means "auto".
	WorkerProcesses int
	// WorkerConnections, when positive, is written as worker_connections;
	// a negative value leaves events empty. Zero chooses: events stays
	// empty while nginx's default of 512 exceeds the number of distinct
	// listen addresses, and is otherwise that number plus 512. nginx
	// needs more connections than listening sockets, since every worker
	// holds one connection per socket, and `nginx -t` already fails with
	// "512 worker_connections are not enough for 512 listening sockets".
	WorkerConnections int
	// Main lines are written verbatim at the end of the main context,
	// before events (e.g. "worker_rlimit_nofile 30000;").
	Main []string
	// HTTP lines are written verbatim at the top of the http block,
	// e.g. "server_names_hash_max_size 32768;".
	HTTP []string
	// Server, when non-nil, is called for every server, in order and
	// before anything is written, and may modify it.
	Server func(*Server)
}

// Write writes the configuration selected by opts to w.
func Write(w io.Writer, opts Options) error {
	o, err := opts.normalize()
	if err != nil {
		return err
	}
	// All servers are built before anything is written because the
	// events block, which comes first, depends on how many distinct
	// addresses they listen on once the hook has run.
	servers := make([]Server, o.N)
	listens := make(map[string]struct{})
	for i := range servers {
		s := &servers[i]
		*s = Server{Index: i, Addr: o.addr(i)}
		s.Listen = s.Addr.String()
		switch o.Layout.Naming {
		case SameName:
			s.Names = []string{SharedServerName}
		case UniqueNames:
			s.Names = []string{ServerName(i)}
		}
		if o.Server != nil {
			o.Server(s)
		}
		listens[s.Listen] = struct{}{}
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	writeHead(bw, o, len(listens))
	for i := range servers {
		writeServer(bw, &servers[i])
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// Generate returns the configuration selected by opts. It panics when
// opts are invalid, like regexp.MustCompile, because its callers are
// tests and tools with fixed options; use Write or Options.Validate to
// get the error instead.
func Generate(opts Options) []byte {
	var b bytes.Buffer
	if err := Write(&b, opts); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// Validate reports whether o describes a configuration that can be
// generated: a known layout, N ≥ 1, a loopback BaseIP, and addresses
// that stay inside the valid port range and 127.0.0.0/8.
func (o Options) Validate() error {
	_, err := o.normalize()
	return err
}

// normalize returns o with its defaults filled in (o is a copy: the
// caller's options are unchanged).
func (o Options) normalize() (Options, error) {
	if !o.Layout.valid() {
		return o, fmt.Errorf("layout: invalid layout %v", o.Layout)
	}
	if o.N < 1 {
		return o, fmt.Errorf("layout: N must be at least 1, got %d", o.N)
	}
	if o.BasePort == 0 {
		o.BasePort = DefaultBasePort
	}
	if o.BasePort < 1 || o.BasePort > 65535 {
		return o, fmt.Errorf("layout: base port %d out of range 1-65535", o.BasePort)
	}
	if !o.BaseIP.IsValid() {
		o.BaseIP = DefaultBaseIP
	}
	o.BaseIP = o.BaseIP.Unmap()
	if o.BaseIP.Zone() != "" {
		return o, fmt.Errorf("layout: base IP %v must not have a zone", o.BaseIP)
	}
	if !o.BaseIP.IsLoopback() {
		// Generated configs are meant to be started on shared machines;
		// anything but loopback could expose a listener.
		return o, fmt.Errorf("layout: base IP %v is not a loopback address", o.BaseIP)
	}
	switch o.Layout.Listen {
	case PortPerServer:
		if last := o.BasePort + o.N - 1; last > 65535 {
			return o, fmt.Errorf("layout: %v with N=%d from port %d needs port %d > 65535", o.Layout, o.N, o.BasePort, last)
		}
	case IPPerServer:
		if !o.BaseIP.Is4() {
			return o, errors.New("layout: one IP per server needs an IPv4 base address (::1 is the only IPv6 loopback)")
		}
		b := o.BaseIP.As4()
		if b[3] == 0 || b[3] == 255 {
			return o, fmt.Errorf("layout: base IP %v must not end in .0 or .255", o.BaseIP)
		}
		if first := hostSlot(o.BaseIP); first+o.N-1 >= maxHostSlots {
			return o, fmt.Errorf("layout: %v with N=%d from %v would leave 127.0.0.0/8", o.Layout, o.N, o.BaseIP)
		}
	}
	return o, nil
}

// Loopback IPs are handed out skipping host parts .0 and .255: both are
// bindable on Linux, but they read as network and broadcast addresses and
// 127.255.255.255 is the real broadcast of 127.0.0.0/8. That leaves 254
// addresses in each of the 65,536 /24s of 127.0.0.0/8, numbered by "slot".
const (
	hostsPer24   = 254
	maxHostSlots = (1 << 16) * hostsPer24
)

func hostSlot(ip netip.Addr) int {
	b := ip.As4()
	return (int(b[1])<<8|int(b[2]))*hostsPer24 + int(b[3]) - 1
}

func slotHost(slot int) netip.Addr {
	net24, host := slot/hostsPer24, slot%hostsPer24+1
	return netip.AddrFrom4([4]byte{127, byte(net24 >> 8), byte(net24), byte(host)})
}

// addr returns the address of server i; o must be normalized.
func (o *Options) addr(i int) netip.AddrPort {
	switch o.Layout.Listen {
	case PortPerServer:
		return netip.AddrPortFrom(o.BaseIP, uint16(o.BasePort+i))
	case IPPerServer:
		return netip.AddrPortFrom(slotHost(hostSlot(o.BaseIP)+i), uint16(o.BasePort))
	default:
		return netip.AddrPortFrom(o.BaseIP, uint16(o.BasePort))
	}
}

// defaultConnections is nginx's default worker_connections.
const defaultConnections = 512

func writeHead(w *bufio.Writer, o Options, listens int) {
	fmt.Fprintf(w, "# Generated by nginx-lint-gen: layout %v, %d servers.\n", o.Layout, o.N)
	switch {
	case o.WorkerProcesses < 0:
		w.WriteString("worker_processes auto;\n")
	case o.WorkerProcesses == 0:
		w.WriteString("worker_processes 1;\n")
	default:
		fmt.Fprintf(w, "worker_processes %d;\n", o.WorkerProcesses)
	}
	// Relative paths resolve against the -p prefix, and putting them at
	// the prefix root means an empty prefix directory is enough.
	w.WriteString("pid nginx.pid;\n")
	w.WriteString("error_log error.log;\n")
	for _, l := range o.Main {
		w.WriteString(l + "\n")
	}
	conns := o.WorkerConnections
	if conns == 0 && listens >= defaultConnections {
		conns = listens + defaultConnections
	}
	if conns > 0 {
		fmt.Fprintf(w, "\nevents {\n    worker_connections %d;\n}\n", conns)
	} else {
		w.WriteString("\nevents {}\n")
	}
	w.WriteString("\nhttp {\n")
	w.WriteString("    access_log off;\n")
	// Without these nginx tries to create its compiled-in temp
	// directories (/var/lib/nginx/... on Debian), which fails for
	// non-root users even under `nginx -t`.
	for _, t := range []string{"client_body", "proxy", "fastcgi", "uwsgi", "scgi"} {
		fmt.Fprintf(w, "    %s_temp_path %s_temp;\n", t, t)
	}
	for _, l := range o.HTTP {
		w.WriteString("    " + l + "\n")
	}
}

func writeServer(w *bufio.Writer, s *Server) {
	w.WriteString("\n    server {\n        listen ")
	w.WriteString(s.Listen)
	for _, p := range s.ListenParams {
		w.WriteByte(' ')
		w.WriteString(p)
	}
	w.WriteString(";\n")
	if len(s.Names) > 0 {
		w.WriteString("        server_name")
		for _, n := range s.Names {
			w.WriteByte(' ')
			w.WriteString(n)
		}
		w.WriteString(";\n")
	}
	for _, l := range s.Lines {
		w.WriteString("        " + l + "\n")
	}
	// The seed benchmark's servers hold only listen and server_name; a
	// hook adds more through Lines.
	w.WriteString("    }\n")
}
