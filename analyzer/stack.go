package analyzer

import (
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// What the stack of a walk (WalkContext, WalkNamed, WalkEntries: the
// block directives enclosing a directive, outermost first) says of where
// the directive is, as nginx reads it.

// Innermost returns the innermost block of stack called name ("location",
// "server", "if"), nil when none encloses the directive.
func Innermost(stack []*parser.Directive, name string) *parser.Directive {
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i].Is(name) {
			return stack[i]
		}
	}
	return nil
}

// InStream reports whether a directive met in context ctx below stack is
// one of the stream module's: its context is stream's (stream, its
// servers and upstreams), or a stream block encloses it where the tables
// know no context (a map of stream).
func InStream(stack []*parser.Directive, ctx directives.Context) bool {
	if ctx&(directives.Stream|directives.StreamServer|directives.StreamUpstream) != 0 {
		return true
	}
	return Innermost(stack, "stream") != nil
}

// Levels returns the blocks of stack whose settings a directive below it
// inherits, outermost first: its http (or stream) block, its server and
// its locations, as nginx merges them (ngx_http_merge_servers); if
// blocks, limit_except and the like are left out.
func Levels(stack []*parser.Directive) []*parser.Directive {
	var out []*parser.Directive
	for _, b := range stack {
		if b.Is("http") || b.Is("stream") || b.Is("server") || b.Is("location") {
			out = append(out, b)
		}
	}
	return out
}

// InEffect returns the directive called name in effect at the innermost
// of blocks (outermost first, as Levels gives them): the last one in the
// innermost block that has one, read with its includes (Body), as a
// setting's merge inherits it; nil when no block sets it.
func (p *Pass) InEffect(blocks []*parser.Directive, name string) *parser.Directive {
	for i := len(blocks) - 1; i >= 0; i-- {
		var found *parser.Directive
		for _, d := range p.Body(blocks[i]) {
			if d.Is(name) {
				found = d
			}
		}
		if found != nil {
			return found
		}
	}
	return nil
}

// ServerOf returns the typed model's server of a server block (Model),
// nil for nil or a block that is no server of the model.
func (p *Pass) ServerOf(block *parser.Directive) *parser.Server {
	if block == nil {
		return nil
	}
	return serversByBlock.Get(p, struct{}{})[block]
}

// serversByBlock maps each server block of the model to its server, once
// per run, for the rules that meet a server's directive and need the
// server.
var serversByBlock = &Result[struct{}, map[*parser.Directive]*parser.Server]{
	Name: "servers by block",
	Compute: func(p *Pass, _ struct{}) map[*parser.Directive]*parser.Server {
		m := make(map[*parser.Directive]*parser.Server, len(p.Model().Servers))
		for _, s := range p.Model().Servers {
			m[s.Directive] = s
		}
		return m
	},
}
