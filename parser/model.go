package parser

import (
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
			for _, f := range c.included[d] {
				walk(f.Directives)
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

// Location is a location block with its parsed modifier and path.
type Location struct {
	Directive *Directive
	Spec      grammar.Location
	Err       error
	Parent    *Location
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
	mb := &modelBuilder{c: c, m: &Model{Config: c}, listens: grammar.NewListenCache()}
	st := scope{}
	if len(c.Context) > 0 {
		st.proto = protocolOf(c.Context[0])
		st.parent = c.Context[len(c.Context)-1]
		st.depth = len(c.Context)
	}
	mb.visit(c.Main.Directives, st)
	return mb.m
}

type modelBuilder struct {
	c       *Config
	m       *Model
	listens *grammar.ListenCache
	args    []string // scratch for argument values
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
		for _, f := range mb.c.included[d] {
			mb.visit(f.Directives, st)
		}
	}
}

func (mb *modelBuilder) directive(d *Directive, st scope) {
	m := mb.m
	name := d.Name.Value
	inner := st
	inner.parent, inner.depth, inner.direct = name, st.depth+1, false
	switch {
	case name == "include":
		m.Includes = append(m.Includes, d)
	case name == "http" || name == "stream" || name == "mail":
		if st.depth == 0 && d.Block != nil {
			inner.proto = protocolOf(name)
			if name == "http" {
				m.HTTP = append(m.HTTP, d)
			}
		}
	case name == "server" && d.Block != nil && st.parent != "upstream":
		s := &Server{Directive: d, Protocol: st.proto}
		m.Servers = append(m.Servers, s)
		inner.server, inner.direct, inner.location = s, true, nil
	case name == "upstream" && d.Block != nil:
		u := &Upstream{Directive: d, Protocol: st.proto}
		if len(d.Args) > 0 {
			u.Name = d.Args[0].Value
		}
		m.Upstreams = append(m.Upstreams, u)
		inner.upstream = u
	case name == "server" && st.upstream != nil && st.parent == "upstream":
		st.upstream.Servers = append(st.upstream.Servers, d)
	case name == "listen" && st.server != nil && st.direct:
		l := &Listen{Directive: d}
		l.Spec, l.Err = mb.listens.Parse(mb.values(d))
		st.server.Listens = append(st.server.Listens, l)
	case name == "server_name" && st.server != nil && st.direct:
		for i, a := range d.Args {
			st.server.Names = append(st.server.Names, &ServerName{Directive: d, Arg: i, Name: grammar.ParseServerName(a.Value)})
		}
	case name == "location" && st.server != nil && d.Block != nil:
		loc := &Location{Directive: d, Parent: st.location}
		loc.Spec, loc.Err = grammar.ParseLocation(mb.values(d))
		if st.location != nil {
			st.location.Locations = append(st.location.Locations, loc)
		} else {
			st.server.Locations = append(st.server.Locations, loc)
		}
		inner.location = loc
	}
	if d.Block != nil {
		mb.visit(d.Block.Directives, inner)
	}
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
