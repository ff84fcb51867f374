package routepass

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/costpass"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/parser"
)

// locationReader reads the servers' locations, sharing their compiled
// regexes.
var locationReader = &analyzer.Result[struct{}, *routing.Reader]{
	Name:    "location reader",
	Compute: func(p *analyzer.Pass, _ struct{}) *routing.Reader { return routing.NewReader(p.Model()) },
}

// ServerLocations is the server level of a server block (nil: the top
// level of a snippet of locations linted on its own), read once and kept
// for the run: the editor's (lint.Unit.Locations). The rules read each
// server when they need it and drop it (ReadServer): a big configuration
// would otherwise hold every server's locations twice.
var ServerLocations = &analyzer.Result[*parser.Directive, *routing.Location]{
	Name:    "server locations",
	Compute: ReadServer,
}

// ReadServer reads the server level of a server block (nil: a
// snippet's top level) with the run's reader, without keeping it.
func ReadServer(p *analyzer.Pass, server *parser.Directive) *routing.Location {
	r := locationReader.Get(p, struct{}{})
	if server == nil {
		return r.Snippet(p.Config.Main.Directives)
	}
	return r.Server(server)
}

// ServersWith returns the http server blocks that hold one of the
// directives named, in order, nil standing for a snippet's top level
// (a file of locations or server directives linted on its own); only
// the index is read, so a configuration without them costs nothing.
func ServersWith(p *analyzer.Pass, names ...string) []*parser.Directive {
	var out []*parser.Directive
	// The directives come in reading order, so a server's are together:
	// only the top level of a snippet can come back after a server.
	top := false
	p.WalkNamed(func(_ *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		var server *parser.Directive
		inHTTP := false
		for _, b := range stack {
			switch b.Name().Value {
			case "server":
				if server == nil {
					server = b
				}
			case "http":
				inHTTP = true
			case "stream", "mail", "types", "map", "upstream":
				return
			}
		}
		if server == nil && (inHTTP || len(stack) > 0 && stack[0].Name().Value != "location" && stack[0].Name().Value != "if") {
			return
		}
		if server != nil && !inHTTP && len(p.Config.Context) > 0 && p.Config.Context[0] != "http" {
			return
		}
		switch {
		case server == nil && !top:
			top = true
			out = append(out, nil)
		case server != nil && (len(out) == 0 || out[len(out)-1] != server):
			out = append(out, server)
		}
	}, names...)
	return out
}

// RequestModel is the request model of the configuration
// (routing.New), for the front ends that route a request through it
// (the editor's nginx-lint.route): made on first use from the run's
// typed model and cost model, with files looked up on this machine.
var RequestModel = &analyzer.Result[struct{}, *routing.Model]{
	Name: "request model",
	Compute: func(p *analyzer.Pass, _ struct{}) *routing.Model {
		return routing.New(p.Model(), costpass.Get(p), routing.Options{})
	},
}
