package parser

import (
	"hash/maphash"
	"slices"
	"unsafe"

	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// Walk visits every directive of the configuration as nginx reads it:
// depth first, with the directives of included files in place of the
// include (the include itself is visited first). stack holds the enclosing
// block directives, outermost first; it is reused, so copy it to keep it.
// Returning false from fn skips the directive's block.
func (c *Config) Walk(fn func(d *Directive, stack []*Directive) bool) {
	stack := make([]*Directive, 0, 8)
	var walk func(dirs []*Directive)
	walk = func(dirs []*Directive) {
		for _, d := range dirs {
			if !fn(d, stack) {
				continue
			}
			if d.Name().Value == "include" {
				for _, f := range c.included[d] {
					walk(f.Directives)
				}
			}
			if d.Block != nil {
				stack = append(stack, d)
				walk(d.Block.Directives)
				stack = stack[:len(stack)-1]
			}
		}
	}
	walk(c.Main.Directives)
}

// Model is the typed view of a configuration that the analyzer and the
// cost model reason about: servers with their parsed listen, server_name and
// location arguments, upstreams and includes, in the order nginx meets them.
type Model struct {
	Config *Config
	// HTTP are the http blocks (nginx allows one; more are an error).
	HTTP []*Directive
	// Servers are the server blocks of http, stream and mail, in order.
	Servers []*Server
	// Upstreams are the upstream blocks of http and stream.
	Upstreams []*Upstream
	// Includes are the include directives; Config.Included gives their files.
	Includes []*Directive
}

// Protocol says which module a server or upstream belongs to.
type Protocol uint8

// Protocols.
const (
	HTTP Protocol = iota
	Stream
	Mail
)

func (p Protocol) String() string {
	switch p {
	case Stream:
		return "stream"
	case Mail:
		return "mail"
	}
	return "http"
}

// Server is a server block.
//
// A big configuration has one for each of its servers, so its lists are
// kept as a pointer and a count each (a slice header is three words) and
// read through Listens, Names and Locations. The counts are 32-bit: a
// server of more than two billion listens would need a configuration of
// tens of gigabytes, far beyond what the loader reads.
type Server struct {
	Directive *Directive
	listens   *Listen
	names     *ServerName
	locations *Location
	nListens  int32
	nNames    int32
	nLocs     int32
	Protocol  Protocol
	// Misplaced is set for a server block whose enclosing block is not
	// its http, stream or mail block (one inside a location, say): nginx
	// stops at it before opening any socket. A server at the top of a
	// file counts as placed where that file is included.
	Misplaced bool
}

// Listens are the server's own listen directives, in order. The slice is
// shared: do not modify it.
func (s *Server) Listens() []Listen { return unsafe.Slice(s.listens, s.nListens) }

// Names are the arguments of the server's own server_name directives, in
// order. The slice is shared: do not modify it.
func (s *Server) Names() []ServerName { return unsafe.Slice(s.names, s.nNames) }

// Locations are the server's top-level locations, in order; nested ones
// hang below. The slice is shared: do not modify it.
func (s *Server) Locations() []Location { return unsafe.Slice(s.locations, s.nLocs) }

// Listen is a listen directive with its parsed arguments. Spec is shared
// between directives with identical arguments and must not be modified.
type Listen struct {
	Directive *Directive
	// Spec is nil when the arguments do not parse; Err says why.
	Spec *grammar.Listen
}

// Err is the error of arguments that do not parse (nil when Spec is set).
// It parses them again: only invalid listens, which are rare, pay for it,
// and the model does not keep an error for every listen.
func (l *Listen) Err() error {
	if l.Spec != nil {
		return nil
	}
	_, err := grammar.ParseListen(l.Directive.ArgValues())
	return err
}

// ServerName is one argument of a server_name directive.
type ServerName struct {
	Directive *Directive
	// Arg is the index of the argument in Directive.Args.
	Arg int
}

// Spec is the name's typed form. It is classified again on every call (a
// pass over a short string, allocation free unless the name has
// upper-case letters): the model keeps two words per name instead of
// nine, and few rules read the names.
func (n *ServerName) Spec() grammar.ServerName {
	return grammar.ParseServerName(n.Directive.Args()[n.Arg].Value)
}

// Location is a location block. Its modifier and path are read from the
// directive's arguments by Spec, which costs a switch on a word and no
// allocation, rather than kept: a big configuration has one Location for
// each of its locations, and it is three words this way. A Location made
// from a directive alone (Location{Directive: d}) has the same Spec and
// Err, and no nested locations.
type Location struct {
	Directive *Directive
	locations *Location
	nLocs     int
}

// Locations are the locations nested in l, in order. The slice is
// shared: do not modify it.
func (l *Location) Locations() []Location { return unsafe.Slice(l.locations, l.nLocs) }

// Spec is the location's parsed modifier and path (zero when Err is set).
func (l *Location) Spec() grammar.Location {
	spec, _ := l.parse()
	return spec
}

// Err is set when the arguments do not parse.
func (l *Location) Err() *grammar.Error {
	_, err := l.parse()
	return grammar.AsError(err)
}

// parse parses the location's arguments.
func (l *Location) parse() (grammar.Location, error) { return LocationSpec(l.Directive) }

// LocationSpec parses the arguments of a location directive d with
// grammar.ParseLocation. A valid location has one or two, so they are
// passed from an array on the stack: several rules read every location
// of a configuration, and ArgValues would allocate a slice each time.
func LocationSpec(d *Directive) (grammar.Location, error) {
	var buf [2]string
	args := d.Args()
	if len(args) > len(buf) {
		return grammar.ParseLocation(d.ArgValues())
	}
	vals := buf[:len(args)]
	for i, a := range args {
		vals[i] = a.Value
	}
	return grammar.ParseLocation(vals)
}

// Upstream is an upstream block and its server entries.
type Upstream struct {
	Directive *Directive
	Protocol  Protocol
	Name      string
	Servers   []*Directive
}

// BuildModel walks c once and builds its typed view. Argument lists that
// repeat (the same listen on thousands of servers) are parsed once.
func BuildModel(c *Config) *Model {
	mb := &modelBuilder{c: c, m: &Model{Config: c}}
	// A server takes at least its own directive and, in the configs
	// with thousands of them, a listen and a server_name: a third of the
	// directives bounds the servers there, and the list does not grow
	// (copying every pointer) a dozen times.
	n := 0
	for _, f := range c.Files {
		n += f.DirectiveCount
	}
	mb.m.Servers = make([]*Server, 0, n/3)
	st := scope{}
	if len(c.Context) > 0 {
		st.proto = protocolOf(c.Context[0])
		st.parent = c.Context[len(c.Context)-1]
		st.depth = len(c.Context)
	}
	mb.visit(c.Main.Directives, st)
	if cap(mb.m.Servers) > 2*len(mb.m.Servers) {
		// The bound is loose for servers of many directives (four
		// times the servers on a dense configuration): the model is
		// kept for the whole run, so it keeps an exact copy.
		mb.m.Servers = slices.Clip(append([]*Server(nil), mb.m.Servers...))
	}
	return mb.m
}

type modelBuilder struct {
	c *Config
	m *Model
	// listens memoizes parsed listen arguments by their source text (equal
	// text means equal arguments). It is direct-mapped: repeated listens
	// (thousands of "listen 443 ssl") share one result, while a config of
	// all-distinct listens pays no map growth.
	listens [1024]listenResult
	arena   grammar.Arena // the parsed listens' memory
	args    []string      // scratch for argument values

	// Servers come from a slab. A server's listens, names and top-level
	// locations, and a location's nested ones, gather on scratch stacks
	// while the block is visited and are then copied, exactly sized, into
	// chunked stores: twenty thousand servers cost a few dozen
	// allocations, not a hundred thousand, and no list grows (copying
	// every element so far).
	serverSlab    []Server
	listenStack   []Listen
	nameStack     []ServerName
	locationStack []Location
	listenStore   []Listen
	nameStore     []ServerName
	locationStore []Location
}

type listenResult struct {
	key  string
	spec *grammar.Listen
}

// maxChunk is the largest chunk of a slab or store: 32 KiB, a size class
// of its own (a chunk of 256 elements of an odd size would be rounded up
// to the next class anyway).
const maxChunk = 32 << 10

// nextChunk returns the capacity of the chunk that follows one of
// capacity prev, for elements of size bytes: chunks start at half a
// kilobyte and double up to maxChunk, so that a small configuration (the
// language server holds one model per open file) does not pay 32 KiB per
// store, and a big one still gets few allocations.
func nextChunk(prev int, size uintptr) int {
	return max(1, min(max(2*prev, 512/int(size)), maxChunk/int(size)))
}

// slab hands out the next element of a chunked slab.
func slab[T any](s *[]T) *T {
	if len(*s) == cap(*s) {
		*s = make([]T, 0, nextChunk(cap(*s), unsafe.Sizeof(*new(T))))
	}
	*s = (*s)[:len(*s)+1]
	return &(*s)[len(*s)-1]
}

// keep copies v into a chunk of *store and returns a pointer to the copy's
// first element (nil when v is empty) and its length.
func keep[T any](store *[]T, v []T) (*T, int) {
	if len(v) == 0 {
		return nil, 0
	}
	if cap(*store)-len(*store) < len(v) {
		*store = make([]T, 0, max(nextChunk(cap(*store), unsafe.Sizeof(v[0])), len(v)))
	}
	i := len(*store)
	*store = append(*store, v...)
	return &(*store)[i], len(v)
}

// pop returns the elements of *stack from i on, copied into *store, and
// drops them from the stack.
func pop[T any](stack *[]T, i int, store *[]T) (*T, int) {
	p, n := keep(store, (*stack)[i:])
	clear((*stack)[i:])
	*stack = (*stack)[:i]
	return p, n
}

// scope is what the walk knows about the enclosing blocks.
type scope struct {
	proto    Protocol
	parent   string // name of the innermost enclosing block
	depth    int    // blocks deep, counting a fragment's context
	server   *Server
	upstream *Upstream
	// direct is true while visiting the server's own directives (not
	// those of a nested location or if).
	direct bool
}

func (mb *modelBuilder) visit(dirs []*Directive, st scope) {
	for _, d := range dirs {
		mb.directive(d, st)
		if d.Name().Value == "include" {
			for _, f := range mb.c.included[d] {
				mb.visit(f.Directives, st)
			}
		}
	}
}

func (mb *modelBuilder) directive(d *Directive, st scope) {
	m := mb.m
	name := d.Name().Value
	inner := st
	inner.parent, inner.depth, inner.direct = name, st.depth+1, false
	switch name {
	case "include":
		m.Includes = append(m.Includes, d)
	case "http", "stream", "mail":
		if st.depth == 0 && d.Block != nil {
			inner.proto = protocolOf(name)
			if name == "http" {
				m.HTTP = append(m.HTTP, d)
			}
		}
	case "server":
		switch {
		case st.parent == "upstream":
			if st.upstream != nil {
				st.upstream.Servers = append(st.upstream.Servers, d)
			}
		case d.Block != nil:
			s := slab(&mb.serverSlab)
			*s = Server{Directive: d, Protocol: st.proto, Misplaced: st.parent != "" && st.parent != st.proto.String()}
			m.Servers = append(m.Servers, s)
			inner.server, inner.direct = s, true
			// A server misplaced inside another (or inside one of its
			// locations) takes only what is above the stacks' marks.
			l0, n0, c0 := len(mb.listenStack), len(mb.nameStack), len(mb.locationStack)
			mb.visit(d.Block.Directives, inner)
			var n int
			s.listens, n = pop(&mb.listenStack, l0, &mb.listenStore)
			s.nListens = int32(n)
			s.names, n = pop(&mb.nameStack, n0, &mb.nameStore)
			s.nNames = int32(n)
			s.locations, n = pop(&mb.locationStack, c0, &mb.locationStore)
			s.nLocs = int32(n)
			return
		}
	case "upstream":
		if d.Block != nil {
			u := &Upstream{Directive: d, Protocol: st.proto}
			if len(d.Args()) > 0 {
				u.Name = d.Args()[0].Value
			}
			m.Upstreams = append(m.Upstreams, u)
			inner.upstream = u
		}
	case "listen":
		if st.server != nil && st.direct {
			mb.listenStack = append(mb.listenStack, Listen{Directive: d, Spec: mb.listen(d)})
		}
	case "server_name":
		if st.server != nil && st.direct {
			for i := range d.Args() {
				mb.nameStack = append(mb.nameStack, ServerName{Directive: d, Arg: i})
			}
		}
	case "location":
		if st.server != nil && d.Block != nil {
			// The locations met inside this one's block (in an if, or in
			// an included file, too) are its nested ones: they are above
			// it on the stack once the block is done.
			i := len(mb.locationStack)
			mb.locationStack = append(mb.locationStack, Location{Directive: d})
			mb.visit(d.Block.Directives, inner)
			locs, n := pop(&mb.locationStack, i+1, &mb.locationStore)
			mb.locationStack[i].locations, mb.locationStack[i].nLocs = locs, n
			return
		}
	}
	if d.Block != nil {
		mb.visit(d.Block.Directives, inner)
	}
}

// listenSeed seeds the hash of the listen memo.
var listenSeed = maphash.MakeSeed()

// listen parses a listen directive's arguments, once per distinct text.
// A listen whose arguments do not parse gets nil (Listen.Err parses them
// again).
func (mb *modelBuilder) listen(d *Directive) *grammar.Listen {
	if len(d.Args()) == 0 {
		return nil
	}
	key := d.File.Src[d.Args()[0].Range.Start:d.Args()[len(d.Args())-1].Range.End]
	slot := &mb.listens[maphash.String(listenSeed, key)&1023]
	if slot.spec != nil && slot.key == key {
		return slot.spec
	}
	spec, _ := grammar.ParseListenIn(&mb.arena, mb.values(d))
	if spec != nil {
		*slot = listenResult{key, spec}
	}
	return spec
}

// values returns d's argument values in a scratch slice that is only valid
// until the next call; the grammars copy what they keep.
func (mb *modelBuilder) values(d *Directive) []string {
	mb.args = mb.args[:0]
	for _, a := range d.Args() {
		mb.args = append(mb.args, a.Value)
	}
	return mb.args
}

// protocolOf maps a top-level block name to its protocol.
func protocolOf(name string) Protocol {
	switch name {
	case "stream":
		return Stream
	case "mail":
		return Mail
	}
	return HTTP
}
