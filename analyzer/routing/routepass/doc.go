// Package routepass holds the request model as a run's shared results:
// each server's locations as nginx arranges them (ServerLocations,
// ReadServer) and the whole request model (RequestModel), computed once
// per run whichever rule or front end asks first, as go/analysis's
// inspect pass is an analysis of its own. The rules that ask where
// requests go (unreachable-location, redirect-cycle, rewrite-loop,
// missing-named-location) and the lint unit's Locations and Routes read
// them here; analyzer/routing itself stays free of the analyzer.
package routepass
