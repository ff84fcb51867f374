// Package directives holds tables of every known nginx directive and
// embedded variable, for the linter's unknown-directive, context and
// argument-count checks and for the language server's hover and
// completion.
//
// # Data
//
// The tables in tables_gen.go are generated from the TSV files in
// nginx-lint's shared/data directory (see its README.md for the column
// meanings). They cover nginx itself, njs, nginx-acme, the NGINX Plus
// and removed directives documented on nginx.org, and two third-party
// modules, lua-nginx-module and headers-more-nginx-module (ThirdParty
// rows). Sources and NginxVersion say which upstream commits they come
// from.
//
// A name can have several rows, one per module or family: server has
// rows for http, upstream, stream, stream upstream and mail, and
// proxy_pass for http and stream. (Name, Module) is unique.
//
// # Checking a directive
//
// For a directive in the block context ctx:
//
//	rows := directives.Lookup(name)          // nil: unknown, see Suggest
//	d := directives.InContext(name, ctx)     // nil: not allowed here
//	if d.ArgsKnown && !d.Args.Accepts(n) ... // wrong argument count
//	d.Block                                  // must be followed by { }
//
// ChildContext gives the context of a block's body. The bodies of the
// blocks FreeFormBlock reports hold data (types, map, geo, ...) or Lua
// code, not directives, so their lines must not be looked up, apart from
// the map and geo keywords that have rows in the Map, Geo, StreamMap and
// StreamGeo contexts.
//
// Rows with ArgsKnown false come from the docs only; Tags tell
// commercial (NGINX Plus), obsolete and removed directives apart.
//
// # Regenerating
//
// With the shared data directory next to the repository, run
//
//	go generate ./analyzer/directives
//
// TestTablesUpToDate fails when tables_gen.go no longer matches the data.
//
// The typed argument schemas (Directive.Value) come from handlers.tsv,
// which the generator writes from C source checkouts when given them
// (-nginx-src, -nginx-git for the release history, -njs-src, -lua-src,
// -headers-more-src; see internal/gen), and which is committed because
// the sources are not part of the repository.
package directives

//go:generate go run ./internal/gen -data ../../../shared/data -out tables_gen.go -handlers handlers.tsv
