package directives

import (
	"slices"
	"strings"
)

// Directive is one row of the directive tables: a directive as one
// module (or one family of modules) defines it. A name can have several
// rows; server, for example, has one each for http, upstream, stream,
// stream upstream and mail. The tables are shared, so callers must not
// modify a Directive or its slices.
type Directive struct {
	// Name is the directive name, as written in a config file.
	Name string
	// Module is the module name the nginx.org docs use
	// (ngx_http_gzip_module), or the source module when undocumented.
	Module string
	// Contexts is where the directive may appear.
	Contexts Context
	// Args is the argument-count rule; zero when ArgsKnown is false.
	Args ArgRule
	// ArgsKnown is false for directives found only in the docs (NGINX
	// Plus, removed and otel directives), whose rule is unknown; such
	// rows must not be used to report argument-count errors.
	ArgsKnown bool
	// Block reports whether the directive must be followed by a { }
	// block rather than a semicolon.
	Block bool
	// Syntax is the docs' syntax line ("gzip on | off;"); several forms
	// are joined with " || ". Empty when undocumented.
	Syntax string
	// Default is the docs' default value without the directive name;
	// several are joined with " || ". Empty when the docs give none.
	Default string
	// Since is the version(s) the directive appeared in, comma-separated
	// (njs and lua-nginx-module versions for their directives).
	Since string
	// URL is the reference documentation anchor, when there is one.
	URL string
	// SourceModules are the modules that define the directive in the
	// source; empty for docs-only rows.
	SourceModules []string
	// ThirdParty marks rows from the third-party table
	// (lua-nginx-module, headers-more-nginx-module) rather than from
	// nginx, njs and nginx-acme.
	ThirdParty bool
	// Tags are the data's notes tags; the first is always the origin.
	Tags Tags
	// Value is the typed schema of the directive's arguments when its
	// set handler is one of nginx's generic ones (on/off, size, time,
	// enum, ...), nil when the handler is directive-specific or the
	// source was not scanned.
	Value *ValueSpec
}

// Tags are the notes tags of a row ("source+docs", "commercial",
// "obsolete-since=1.15.0", ...). See the data README for the vocabulary.
type Tags []string

// Has reports whether t holds tag, either exactly or as the key of a
// key=value tag, so Has("removed-in") matches "removed-in=1.25.1".
func (t Tags) Has(tag string) bool {
	for _, s := range t {
		if s == tag || strings.HasPrefix(s, tag) && s[len(tag)] == '=' {
			return true
		}
	}
	return false
}

// Value returns the value of the key=value tag with the given key.
func (t Tags) Value(key string) (string, bool) {
	for _, s := range t {
		if k, v, ok := strings.Cut(s, "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}

// Origin returns the first tag, which says where the row came from:
// "source+docs", "source-only", "docs-only", "block-param" or
// "source+readme".
func (t Tags) Origin() string {
	if len(t) == 0 {
		return ""
	}
	return t[0]
}

// AllowedIn reports whether the directive may appear directly in ctx.
// A directive allowed in Any (include) is allowed everywhere except in
// the bodies of map and geo: nginx hands those lines to the block's own
// parser, which knows include through its own row.
func (d *Directive) AllowedIn(ctx Context) bool {
	if ctx == 0 {
		return false
	}
	if d.Contexts.Has(ctx) {
		return true
	}
	return d.Contexts.Has(Any) && ctx&blockParamContexts == 0
}

// Removed reports whether the docs say the directive is gone from nginx:
// removed in some version, or part of a commercial module that was
// withdrawn (commercial-until). Such rows stay in the table so that a
// linter can say why an old config no longer loads.
func (d *Directive) Removed() bool {
	return d.Tags.Has("removed-in") || d.Tags.Has("commercial-until")
}

// index holds the lookup structures built from the generated tables.
type index struct {
	all    []*Directive
	byName map[string][]*Directive
	names  []string
	// byLen holds the names grouped by length for Suggest, so it only
	// measures names whose length is close enough to matter.
	byLen    [][]string
	freeForm map[string]bool
}

var idx = buildIndex()

func buildIndex() *index {
	x := &index{byName: make(map[string][]*Directive, len(directiveTable))}
	for i := range directiveTable {
		d := &directiveTable[i]
		x.all = append(x.all, d)
		if x.byName[d.Name] == nil {
			x.names = append(x.names, d.Name)
		}
		x.byName[d.Name] = append(x.byName[d.Name], d)
	}
	// Clip every row list so that an append by a caller copies instead of
	// writing into the next list's backing array.
	for name, rows := range x.byName {
		x.byName[name] = slices.Clip(rows)
	}
	slices.Sort(x.names)
	for _, n := range x.names {
		for len(x.byLen) <= len(n) {
			x.byLen = append(x.byLen, nil)
		}
		x.byLen[len(n)] = append(x.byLen[len(n)], n)
	}
	x.freeForm = make(map[string]bool)
	for _, n := range freeFormNames {
		x.freeForm[n] = true
	}
	for _, d := range x.all {
		// lua-nginx-module's *_by_lua_block directives hold Lua code; the
		// module parses the body itself.
		if d.Block && d.ThirdParty && strings.HasSuffix(d.Name, "_by_lua_block") {
			x.freeForm[d.Name] = true
		}
	}
	return x
}

// Lookup returns every row for the directive name, in table order (nginx
// rows before third-party rows), or nil for an unknown name. Names are
// case-sensitive, as in nginx. The returned slice is shared: do not
// modify it.
func Lookup(name string) []*Directive {
	return idx.byName[name]
}

// All returns every row of the tables, in table order.
func All() []*Directive {
	return slices.Clone(idx.all)
}

// Names returns every known directive name once, sorted.
func Names() []string {
	return slices.Clone(idx.names)
}

// InContext returns the row for name that is allowed directly in ctx
// (see Directive.AllowedIn), or nil when there is none. ctx is normally a
// single context, the block the directive appears in. A row listing ctx
// explicitly wins over an Any row, and a current row over a removed one;
// otherwise the first in table order wins.
func InContext(name string, ctx Context) *Directive {
	var best *Directive
	bestRank := 0
	for _, d := range idx.byName[name] {
		if !d.AllowedIn(ctx) {
			continue
		}
		rank := 1
		if d.Contexts.Has(ctx) {
			rank += 2
		}
		if !d.Removed() {
			rank++
		}
		if rank > bestRank {
			best, bestRank = d, rank
		}
	}
	return best
}

// Sources returns the "# " header lines of the TSV files the tables were
// generated from, each prefixed with its file name. They name the
// upstream repositories, versions and commits.
func Sources() []string {
	return slices.Clone(dataSources[:])
}

// freeFormNames are the block directives whose bodies hold data rather
// than directives (see the data README). Lua blocks are added from the
// tables in buildIndex.
var freeFormNames = []string{
	"types",         // mime/type ext ...;
	"charset_map",   // code code;
	"split_clients", // N% value;
	"map",           // key value; plus block-param keywords
	"geo",           // address value; plus block-param keywords
	"match",         // NGINX Plus health-check conditions
	"num_map",       // NGINX Plus
}

// FreeFormBlock reports whether the body of the block directive name is
// not made of directives, so that a linter must not look its lines up:
// types, charset_map, split_clients, map and geo (http and stream), the
// NGINX Plus match and num_map, and lua-nginx-module's *_by_lua_block
// directives, whose body is Lua code.
//
// The map and geo bodies also accept a few keywords (default, hostnames,
// include, ...), which have rows in the Map, Geo, StreamMap and StreamGeo
// contexts; ChildContext returns those contexts for them.
func FreeFormBlock(name string) bool {
	return idx.freeForm[name]
}

// blockKey identifies a row by its (name, module) key, which the data
// guarantees to be unique.
type blockKey struct{ name, module string }

// childContexts maps each block directive whose body the tables describe
// to the context of that body. if is missing because its body depends on
// the parent; ChildContext handles it.
var childContexts = map[blockKey]Context{
	{"events", "ngx_core_module"}:              Events,
	{"http", "ngx_http_core_module"}:           HTTP,
	{"server", "ngx_http_core_module"}:         Server,
	{"location", "ngx_http_core_module"}:       Location,
	{"limit_except", "ngx_http_core_module"}:   LimitExcept,
	{"upstream", "ngx_http_upstream_module"}:   Upstream,
	{"map", "ngx_http_map_module"}:             Map,
	{"geo", "ngx_http_geo_module"}:             Geo,
	{"stream", "ngx_stream_core_module"}:       Stream,
	{"server", "ngx_stream_core_module"}:       StreamServer,
	{"upstream", "ngx_stream_upstream_module"}: StreamUpstream,
	{"map", "ngx_stream_map_module"}:           StreamMap,
	{"geo", "ngx_stream_geo_module"}:           StreamGeo,
	{"mail", "ngx_mail_core_module"}:           Mail,
	{"server", "ngx_mail_core_module"}:         MailServer,
	{"acme_issuer", "ngx_http_acme_module"}:    AcmeIssuer,
	{"oidc_provider", "ngx_http_oidc_module"}:  OIDCProvider,
	{"mgmt", "ngx_mgmt_module"}:                Mgmt,
}

// ChildContext returns the context of the body of block directive name
// when it appears in parent: ChildContext("server", Stream) is
// StreamServer and ChildContext("if", Location) is IfInLocation.
//
// ok is false when name is not a block allowed in parent, and when the
// tables do not describe the body: the free-form blocks other than map
// and geo, and blocks such as otel_exporter whose inner directives come
// from a module the tables do not cover. A linter should not check the
// lines of such a body.
func ChildContext(name string, parent Context) (ctx Context, ok bool) {
	d := InContext(name, parent)
	if d == nil || !d.Block {
		return 0, false
	}
	if d.Name == "if" && d.Module == "ngx_http_rewrite_module" {
		switch parent {
		case Server:
			return IfInServer, true
		case Location:
			return IfInLocation, true
		}
		return 0, false
	}
	ctx, ok = childContexts[blockKey{d.Name, d.Module}]
	return ctx, ok
}
