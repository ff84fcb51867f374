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
			if d.Name.Value == "include" {
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
type Server struct {
	Directive *Directive
	Protocol  Protocol
	Listens   []*Listen
	Names     []*ServerName
	// Locations are the top-level locations; nested ones hang below.
	Locations []*Location
	// Misplaced is set for a server block whose enclosing block is not
	// its http, stream or mail block (one inside a location, say): nginx
	// stops at it before opening any socket. A server at the top of a
	// file counts as placed where that file is included.
	Misplaced bool
}

// Listen is a listen directive with its parsed arguments. Spec is shared
// between directives with identical arguments and must not be modified.
type Listen struct {
	Directive *Directive
	Spec      *grammar.Listen
	// Err is set when the arguments do not parse; Spec is nil then.
	Err error
}

// ServerName is one argument of a server_name directive.
type ServerName struct {
	Directive *Directive
	// Arg is the index of the argument in Directive.Args.
	Arg  int
	Name grammar.ServerName
}

// Location is a location block with its parsed modifier and path. (A big
// configuration has one for each of its locations: Err is the grammar's
// error type rather than an interface, and there is no link to the
// enclosing location, which no rule read; a rule walking Locations knows
// it.)
type Location struct {
	Directive *Directive
	Spec      grammar.Location
	// Err is set when the arguments do not parse.
	Err       *grammar.Error
	Locations []*Location
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

	// Nodes come from slabs, and each server's lists are cut from shared
	// backing arrays once the server is done (servers do not nest), so
	// twenty thousand servers cost a few dozen allocations, not a hundred
	// thousand.
	serverSlab    []Server
	listenSlab    []Listen
	nameSlab      []ServerName
	locationSlab  []Location
	listenPtrs    []*Listen // the current server's, while it is visited
	namePtrs      []*ServerName
	locationPtrs  []*Location // its top-level locations
	listenStore   []*Listen
	nameStore     []*ServerName
	locationStore []*Location
}

type listenResult struct {
	key  string
	spec *grammar.Listen
	err  error
}

// slab hands out the next element of a chunked slab.
func slab[T any](s *[]T) *T {
	if len(*s) == cap(*s) {
		// A chunk that fills a 32 KiB size class: 256 elements of an odd
		// size would be rounded up to the next class anyway.
		var zero T
		*s = make([]T, 0, max(16, 32<<10/int(unsafe.Sizeof(zero))))
	}
	*s = (*s)[:len(*s)+1]
	return &(*s)[len(*s)-1]
}

// scope is what the walk knows about the enclosing blocks.
type scope struct {
	proto    Protocol
	parent   string // name of the innermost enclosing block
	depth    int    // blocks deep, counting a fragment's context
	server   *Server
	upstream *Upstream
	location *Location
	// direct is true while visiting the server's own directives (not
	// those of a nested location or if).
	direct bool
}

func (mb *modelBuilder) visit(dirs []*Directive, st scope) {
	for _, d := range dirs {
		mb.directive(d, st)
		if d.Name.Value == "include" {
			for _, f := range mb.c.included[d] {
				mb.visit(f.Directives, st)
			}
		}
	}
}

func (mb *modelBuilder) directive(d *Directive, st scope) {
	m := mb.m
	name := d.Name.Value
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
			inner.server, inner.direct, inner.location = s, true, nil
			// The server's listens and names gather on scratch stacks
			// and are then copied, exactly sized, into chunked stores:
			// no array grows (copying every pointer so far), and a
			// server misplaced inside another keeps its own lists.
			l0, n0, c0 := len(mb.listenPtrs), len(mb.namePtrs), len(mb.locationPtrs)
			mb.visit(d.Block.Directives, inner)
			s.Listens = keep(&mb.listenStore, mb.listenPtrs[l0:])
			s.Names = keep(&mb.nameStore, mb.namePtrs[n0:])
			s.Locations = keep(&mb.locationStore, mb.locationPtrs[c0:])
			clear(mb.listenPtrs[l0:])
			clear(mb.namePtrs[n0:])
			clear(mb.locationPtrs[c0:])
			mb.listenPtrs, mb.namePtrs, mb.locationPtrs = mb.listenPtrs[:l0], mb.namePtrs[:n0], mb.locationPtrs[:c0]
			return
		}
	case "upstream":
		if d.Block != nil {
			u := &Upstream{Directive: d, Protocol: st.proto}
			if len(d.Args) > 0 {
				u.Name = d.Args[0].Value
			}
			m.Upstreams = append(m.Upstreams, u)
			inner.upstream = u
		}
	case "listen":
		if st.server != nil && st.direct {
			l := slab(&mb.listenSlab)
			*l = Listen{Directive: d}
			l.Spec, l.Err = mb.listen(d)
			mb.listenPtrs = append(mb.listenPtrs, l)
		}
	case "server_name":
		if st.server != nil && st.direct {
			for i, a := range d.Args {
				n := slab(&mb.nameSlab)
				*n = ServerName{Directive: d, Arg: i, Name: grammar.ParseServerName(a.Value)}
				mb.namePtrs = append(mb.namePtrs, n)
			}
		}
	case "location":
		if st.server != nil && d.Block != nil {
			loc := slab(&mb.locationSlab)
			*loc = Location{Directive: d}
			var err error
			loc.Spec, err = grammar.ParseLocation(mb.values(d))
			loc.Err = grammar.AsError(err)
			if st.location != nil {
				st.location.Locations = append(st.location.Locations, loc)
			} else {
				mb.locationPtrs = append(mb.locationPtrs, loc)
			}
			inner.location = loc
		}
	}
	if d.Block != nil {
		mb.visit(d.Block.Directives, inner)
	}
}

// listenSeed seeds the hash of the listen memo.
var listenSeed = maphash.MakeSeed()

// listen parses a listen directive's arguments, once per distinct text.
func (mb *modelBuilder) listen(d *Directive) (*grammar.Listen, error) {
	if len(d.Args) == 0 {
		return grammar.ParseListen(nil)
	}
	key := d.File.Src[d.Args[0].Range.Start:d.Args[len(d.Args)-1].Range.End]
	slot := &mb.listens[maphash.String(listenSeed, key)&1023]
	if slot.spec != nil && slot.key == key {
		return slot.spec, slot.err
	}
	spec, err := grammar.ParseListenIn(&mb.arena, mb.values(d))
	if spec != nil {
		*slot = listenResult{key, spec, err}
	}
	return spec, err
}

// keep copies v into a chunk of *store and returns the copy, capped so
// that appending to it cannot overwrite the next one (nil when empty).
func keep[T any](store *[]T, v []T) []T {
	if len(v) == 0 {
		return nil
	}
	if cap(*store)-len(*store) < len(v) {
		*store = make([]T, 0, max(1024, len(v)))
	}
	i := len(*store)
	*store = append(*store, v...)
	return (*store)[i:len(*store):len(*store)]
}

// values returns d's argument values in a scratch slice that is only valid
// until the next call; the grammars copy what they keep.
func (mb *modelBuilder) values(d *Directive) []string {
	mb.args = mb.args[:0]
	for _, a := range d.Args {
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
