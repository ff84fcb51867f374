package lint

import (
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/analyzer/routing/routepass"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Locations returns the locations of a server block of the
// configuration as nginx arranges them (nil: the top level of a snippet
// of locations): the ones the rules read when they ran, or read now and
// kept. It is safe to call from several goroutines.
func (e *Unit) Locations(server *parser.Directive) *routing.Location {
	return routepass.ServerLocations.Of(e.runResults(), server)
}

// Routes returns the request model of the configuration (routing.New),
// made on first use and kept. It is safe to call from several
// goroutines.
func (e *Unit) Routes() *routing.Model {
	return routepass.RequestModel.Of(e.runResults(), struct{}{})
}
