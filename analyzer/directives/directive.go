package directives

import (
	"math/bits"
	"slices"
	"strconv"
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

// ArgRule returns the directive's argument rule: Args when the source
// gave it, and for a directive known only from the docs (removed from
// nginx's source, like ssl) whose syntax is "NAME on | off;", a flag,
// which is what its handler was. false when unknown.
func (d *Directive) ArgRule() (ArgRule, bool) {
	if d.ArgsKnown {
		return d.Args, true
	}
	if d.Syntax == d.Name+" on | off;" {
		return Flag, true
	}
	return 0, false
}

// DefinesArg returns the index of the argument that names the variable
// a third-party directive defines ("$name": set-misc's set_md5, NDK's
// set_var directives, postgres_set, ...), read from the module's source
// by the generator (the defines=N tag of modules.tsv).
func (d *Directive) DefinesArg() (int, bool) {
	v, ok := d.Tags.Value("defines")
	if !ok || v == "block" {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	return n, err == nil && n >= 0
}

// DefinesBlockLines reports whether each line of the directive's block
// defines the variable its first word names (geoip2's "$var path;").
func (d *Directive) DefinesBlockLines() bool {
	v, ok := d.Tags.Value("defines")
	return ok && v == "block"
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
	all []*Directive
	// slots finds a name's entry (see nameSlots).
	slots nameSlots
	names []string
	// byLen holds the names grouped by length for Suggest, so it only
	// measures names whose length is close enough to matter.
	byLen    [][]string
	freeForm map[string]bool
	// rowName is the name id of each row of directiveTable.
	rowName []int32
}

var idx = buildIndex()

func buildIndex() *index {
	x := &index{}
	byName := make(map[string]*nameEntry, len(directiveTable))
	for i := range directiveTable {
		d := &directiveTable[i]
		x.all = append(x.all, d)
		e := byName[d.Name]
		if e == nil {
			e = &nameEntry{name: d.Name, id: int32(len(x.names))}
			byName[d.Name] = e
			x.names = append(x.names, d.Name)
		}
		e.rows = append(e.rows, d)
		x.rowName = append(x.rowName, e.id)
	}
	// In table order, so the slots' layout does not vary between runs.
	for _, n := range x.names {
		e := byName[n]
		e.resolve()
		x.slots.add(e)
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
		// A third-party block's body is the module's own to parse: Lua
		// code (*_by_lua_block), or lines its cf->handler reads (geoip2's
		// "$var path;", ldap_server's settings). None holds directives of
		// the contexts the tables model.
		if d.Block && d.ThirdParty {
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
	if e := idx.entry(name); e != nil {
		return e.rows
	}
	return nil
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
	e := idx.entry(name)
	if e == nil {
		return nil
	}
	if ctx != 0 && ctx&(ctx-1) == 0 {
		return e.in(ctx)
	}
	return inContext(e.rows, ctx)
}

// inContext is InContext's choice among rows, for any ctx.
func inContext(rows []*Directive, ctx Context) *Directive {
	var best *Directive
	bestRank := 0
	for _, d := range rows {
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
// NGINX Plus match and num_map, and the blocks of third-party modules
// (lua-nginx-module's *_by_lua_block directives, whose body is Lua code,
// geoip2, ...).
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
	if parent != 0 && parent&(parent-1) == 0 {
		e := idx.entry(name)
		if e == nil || e.child == nil {
			return 0, false
		}
		ctx = e.child[bits.TrailingZeros32(uint32(parent))]
		return ctx, ctx != 0
	}
	var rows []*Directive
	if e := idx.entry(name); e != nil {
		rows = e.rows
	}
	return childContext(rows, parent)
}

// childContext is ChildContext computed from the rows of a name.
func childContext(rows []*Directive, parent Context) (ctx Context, ok bool) {
	d := inContext(rows, parent)
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

// nameEntry holds the rows of one name and, resolved once when the tables
// are indexed, the answers of InContext and ChildContext for each single
// context: the parser and the index ask them for every directive of a
// configuration, so one map lookup and a mask test must answer them.
type nameEntry struct {
	name string
	rows []*Directive
	// id numbers the name in table order (see Resolve).
	id int32
	// allowed is the union of the contexts some row is allowed in.
	allowed Context
	// one is InContext's answer for every allowed context when a single
	// row gives them all (most names); per holds them by context bit
	// otherwise.
	one *Directive
	per *[numContexts]*Directive
	// nginxIn and blockIn are the contexts whose row (InContext's) nginx
	// itself defines, with a known argument rule, and opens a block: the
	// parser's questions, answered without touching the row.
	nginxIn, blockIn Context
	// child is ChildContext's answer by context bit, nil when no row
	// opens a block.
	child *[numContexts]Context
}

func (e *nameEntry) resolve() {
	// Clip the row list so that an append by a caller copies instead of
	// writing into shared memory.
	e.rows = slices.Clip(e.rows)
	if len(e.rows) == 1 {
		// Most names: the one row answers wherever it is allowed, and no
		// ranking is needed (this runs at every start of the program).
		d := e.rows[0]
		for bit := range numContexts {
			if ctx := Context(1) << bit; d.AllowedIn(ctx) {
				e.allowed |= ctx
			}
		}
		if e.allowed != 0 {
			e.one = d
		}
		e.shape(d, e.allowed)
		if d.Block {
			e.resolveChildren()
		}
		return
	}
	var per [numContexts]*Directive
	var first *Directive
	single := true
	block := false
	for bit := range numContexts {
		ctx := Context(1) << bit
		d := inContext(e.rows, ctx)
		if d == nil {
			continue
		}
		per[bit] = d
		e.allowed |= ctx
		e.shape(d, ctx)
		if first == nil {
			first = d
		} else if d != first {
			single = false
		}
		block = block || d.Block
	}
	if single {
		e.one = first
	} else {
		e.per = &per
	}
	if block {
		e.resolveChildren()
	}
}

// shape records in nginxIn and blockIn what row d, InContext's answer in
// ctx, tells the parser.
func (e *nameEntry) shape(d *Directive, ctx Context) {
	if d.ArgsKnown && !d.ThirdParty {
		e.nginxIn |= ctx
		if d.Block {
			e.blockIn |= ctx
		}
	}
}

// BlockKind reports, for a single context ctx, whether name's row there
// (InContext's) comes from nginx's source with a known argument rule, and
// whether it opens a block: what the parser asks of every directive, in
// O(1) without reading the row. Rows only the docs or third-party modules
// describe do not count as known (a stock nginx calls them unknown).
func BlockKind(name string, ctx Context) (block, known bool) {
	sl := idx.slot(name)
	if sl == nil || ctx&(ctx-1) != 0 {
		if d := InContext(name, ctx); d != nil && d.ArgsKnown && !d.ThirdParty {
			return d.Block, true
		}
		return false, false
	}
	return sl.blockIn&ctx != 0, sl.nginxIn&ctx != 0
}

// resolveChildren fills child for a name some row of which opens a block.
func (e *nameEntry) resolveChildren() {
	e.child = new([numContexts]Context)
	for bit := range numContexts {
		if c, ok := childContext(e.rows, Context(1)<<bit); ok {
			e.child[bit] = c
		}
	}
}

// in is InContext for a single context bit.
func (e *nameEntry) in(ctx Context) *Directive {
	if e.allowed&ctx == 0 {
		return nil
	}
	if e.one != nil {
		return e.one
	}
	return e.per[bits.TrailingZeros32(uint32(ctx))]
}

// Resolve is InContext and Lookup in one O(1) step, for callers that ask
// for every directive of a configuration: the row allowed in ctx (nil when
// none, or when ctx is 0), whether any row has the name, and the name's
// number (0 <= id < NumNames(), -1 when unknown) for callers that group
// directives by name without hashing the name again.
func Resolve(name string, ctx Context) (row *Directive, known bool, id int32) {
	e := idx.entry(name)
	if e == nil {
		return nil, false, -1
	}
	if ctx != 0 && ctx&(ctx-1) == 0 {
		row = e.in(ctx)
	} else if ctx != 0 {
		row = inContext(e.rows, ctx)
	}
	return row, true, e.id
}

// NumNames is the number of distinct directive names, the bound of the ids
// Resolve returns.
func NumNames() int { return len(idx.names) }

// slotBits sizes nameSlots: 4096 slots for about 1,100 names keeps the
// probe sequences short.
const slotBits = 12

// nameSlots is an open-addressing table from a name to its entry, keyed by
// a hash of the name's length and four of its bytes. The parser and the
// index look a name up for every directive; hashing the whole string, as
// a Go map does, cost more than the hand-written caches this replaced.
// Names that share the sampled bytes merely probe on; every hit is
// confirmed by comparing the whole name.
type nameSlots [1 << slotBits]nameSlot

// nameSlot holds a name and the parser's answers inline, so that the
// parser's question costs one slot read and the name comparison.
type nameSlot struct {
	name             string
	e                *nameEntry
	nginxIn, blockIn Context
}

func slotHash(s string) uint32 {
	n := len(s)
	if n == 0 {
		return 0
	}
	h := uint32(n) | uint32(s[0])<<8 | uint32(s[n-1])<<16 | uint32(s[n/2])<<24
	h ^= uint32(s[n*2/3]) * 0x2545f491
	return (h * 0x9e3779b1) >> (32 - slotBits)
}

func (t *nameSlots) add(e *nameEntry) {
	for i := slotHash(e.name); ; i = (i + 1) & (1<<slotBits - 1) {
		if t[i].e == nil {
			t[i] = nameSlot{name: e.name, e: e, nginxIn: e.nginxIn, blockIn: e.blockIn}
			return
		}
	}
}

// slot returns the slot of name, nil for an unknown name.
func (x *index) slot(name string) *nameSlot {
	for i := slotHash(name); ; i = (i + 1) & (1<<slotBits - 1) {
		sl := &x.slots[i]
		if sl.e == nil {
			return nil
		}
		if sl.name == name {
			return sl
		}
	}
}

// entry returns the entry of name, nil for an unknown name.
func (x *index) entry(name string) *nameEntry {
	if sl := x.slot(name); sl != nil {
		return sl.e
	}
	return nil
}

// passDirectives are the directives that hand a request to an upstream:
// their first argument is a URL (proxy_pass), an address or an upstream
// group's name, which nginx resolves at startup when it is fixed.
// memc_pass (memc-nginx-module) reads its address as fastcgi_pass does
// (ngx_http_upstream_add without a default port, or a complex value).
var passDirectives = []string{"proxy_pass", "fastcgi_pass", "uwsgi_pass", "scgi_pass", "grpc_pass", "memcached_pass", "memc_pass"}

// PassDirectives returns the names of the directives that hand a request
// to an upstream (proxy_pass, fastcgi_pass, uwsgi_pass, scgi_pass,
// grpc_pass, memcached_pass, memc_pass), for the rules and features that follow
// where nginx connects: one list, so a new one is added once.
func PassDirectives() []string { return slices.Clone(passDirectives) }

// IsPass reports whether name is one of PassDirectives. Callers ask it of
// every directive, so the list is searched only for names ending in
// "_pass".
func IsPass(name string) bool {
	return strings.HasSuffix(name, "_pass") && slices.Contains(passDirectives, name)
}
