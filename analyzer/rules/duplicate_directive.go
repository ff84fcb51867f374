package rules

import (
	"fmt"
	"path"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/fix"
	"github.com/nginx-lint/nginx-lint/analyzer/referer"
	"github.com/nginx-lint/nginx-lint/internal/ngxparse"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// DuplicateDirective reports a directive repeated in one block where
// nginx accepts it only once.
var DuplicateDirective = &analyzer.Rule{
	Code: "NL2007", Name: "duplicate-directive", Title: "directive given twice in one block", Severity: parser.Error,
	Refuses: true,
	Fixable: true,
	Run:     runDuplicateDirective,
	Doc: analyzer.Doc{
		Text: "Most directives that hold one value (`sendfile`, `root`, `proxy_pass`, " +
			"`client_max_body_size`, `worker_processes`, ...) may appear once per block; nginx " +
			"refuses to start with `\"root\" directive is duplicate`. `root` and `alias` share one " +
			"setting, so a location may have only one of them. Directives that collect values " +
			"(`add_header`, `proxy_set_header`, `error_page`, `access_log`, `listen`, ...) may repeat.\n\n" +
			"The same directive in an enclosing block is not a duplicate: an inner block overrides " +
			"the outer value. Included files count as part of the block they are included in, which " +
			"is where such duplicates usually come from (a snippet setting what the including block " +
			"also sets). Keep one of the two.\n\n" +
			"Two sibling locations with the same path and match type are duplicates too " +
			"(`duplicate location \"/api/\"`); `location ^~ /a/` and `location /a/` count as the same. " +
			"So are a `log_format`, `limit_req_zone`, `limit_conn_zone` or `upstream` name, or a " +
			"`*_cache_path` path, defined twice anywhere in http (or stream); http's `combined` log " +
			"format is predefined, so `log_format combined ...` is a duplicate already. " +
			"`mirror`, `proxy_redirect` and `proxy_cookie_domain`, `_path` and `_flags` may repeat, " +
			"but their `off` must stand alone in its block.\n\n" +
			"A module loaded twice is refused too: `module \"ngx_http_echo_module\" is already loaded`.",
		Bad:  "events {}\nhttp {\n    sendfile on;\n    server {\n        location / {\n            root /srv/a;\n            root /srv/b;\n        }\n    }\n}\n",
		Good: "events {}\nhttp {\n    sendfile on;\n    server {\n        root /srv/a;\n        location / {\n            root /srv/b;\n        }\n    }\n}\n",
	},
}

// sameSetting maps directives that nginx stores in one field to that
// field's first directive: root and alias both set the location's path.
var sameSetting = map[string]string{"alias": "root"}

// settingOf returns what a directive sets, for directives that may set it
// once per block: its name (root and alias share one), or for limit_req
// and limit_conn the zone, which each may use once.
func settingOf(d *parser.Directive, ctx directives.Context) (string, bool) {
	name := d.Name().Value
	switch name {
	case "limit_req":
		for _, a := range d.Args() {
			if zone, ok := strings.CutPrefix(a.Value, "zone="); ok {
				return name + " " + zone, true
			}
		}
		return "", false
	case "limit_conn":
		if len(d.Args()) == 0 || ctx == 0 {
			return "", false
		}
		return name + " " + d.Args()[0].Value, true
	case "mirror", "proxy_redirect", "proxy_cookie_domain", "proxy_cookie_path", "proxy_cookie_flags":
		return name, directives.FamilyOf(ctx) == directives.HTTPFamily
	}
	if field := luaHandlerFields[name]; field != "" && directives.FamilyOf(ctx) == directives.HTTPFamily {
		return field, true
	}
	if !directives.RefusesRepeat(name, ctx) {
		return "", false
	}
	if s, ok := sameSetting[name]; ok {
		return s, true
	}
	return name, true
}

// luaHandlerFields maps the directives of lua-nginx-module whose handler
// refuses a second setting of its block's field ("is duplicate") to that
// field: the string, _block and _file forms of a phase share one.
var luaHandlerFields = func() map[string]string {
	m := map[string]string{"lua_package_path": "lua_package_path", "lua_package_cpath": "lua_package_cpath"}
	for _, phase := range []string{"rewrite", "server_rewrite", "access", "content", "log", "header_filter", "body_filter",
		"init", "init_worker", "exit_worker", "balancer", "ssl_certificate", "ssl_client_hello", "ssl_session_fetch",
		"ssl_session_store"} {
		for _, form := range []string{"", "_block", "_file"} {
			m[phase+"_by_lua"+form] = "lua " + phase
		}
	}
	return m
}()

// offExclusive are directives that repeat to list values but whose "off"
// stands alone: nginx refuses any other before or after it ("is
// duplicate": ngx_http_mirror, ngx_http_proxy_redirect,
// ngx_http_proxy_cookie_domain, _path and _flags).
var offExclusive = map[string]bool{"mirror": true, "proxy_redirect": true, "proxy_cookie_domain": true,
	"proxy_cookie_path": true, "proxy_cookie_flags": true}

// repeatRefused reports whether nginx refuses d after first in one block:
// always, but for the offExclusive directives, which refuse a repeat only
// when one of the two is "off".
func repeatRefused(first, d *parser.Directive) bool {
	if !offExclusive[d.Name().Value] {
		return true
	}
	isOff := func(x *parser.Directive) bool { return len(x.Args()) == 1 && x.Args()[0].Value == "off" }
	return isOff(first) || isOff(d)
}

func runDuplicateDirective(p *analyzer.Pass) {
	// The settings seen so far in each block being walked, innermost
	// last. The walk finishes a block's directives before it meets the
	// next block at the same depth, so one map per depth, cleared when
	// its block changes, serves: a map for the whole configuration
	// would hold every directive of it.
	type level struct {
		block *parser.Directive // nil for the top level of the config
		seen  map[string]*parser.Directive
	}
	var levels []level
	p.WalkContext(func(d *parser.Directive, ctx directives.Context, stack []*parser.Directive) {
		if d.Block != nil && len(levels) > len(stack)+1 {
			// A block starts: its settings start afresh, also when a
			// file included twice gives the same block again (a regex
			// location in a file two servers, or one server twice,
			// include), which the pointer compare below cannot tell
			// unless it is forgotten here (its first setting clears).
			levels[len(stack)+1].block = nil
		}
		if directives.DataBlock(ctx) {
			return
		}
		name := d.Name().Value
		setting, ok := settingOf(d, ctx)
		if !ok {
			return
		}
		var block *parser.Directive
		if len(stack) > 0 {
			block = stack[len(stack)-1]
		}
		for len(levels) <= len(stack) {
			levels = append(levels, level{seen: map[string]*parser.Directive{}})
		}
		lv := &levels[len(stack)]
		if lv.block != block {
			lv.block = block
			clear(lv.seen)
		}
		first := lv.seen[setting]
		if first == nil || !repeatRefused(first, d) {
			if first == nil {
				lv.seen[setting] = d
			}
			return
		}
		var diag *parser.Diagnostic
		if first.Name().Value == name || luaHandlerFields[name] != "" {
			// lua-nginx-module's handlers say "is duplicate" of the
			// second, whichever form the first took.
			diag = p.ReportDirective(d, "%q directive is duplicate", name)
		} else {
			diag = p.ReportDirective(d, "%q directive is duplicate, %q directive was specified earlier", name, first.Name().Value)
		}
		diag.Detail = "nginx accepts it once per block and refuses to start; keep one"
		if d.Block == nil && d.Semicolon() >= 0 {
			diag.Edits = []parser.Edit{fix.DeleteDirective(d)}
		}
		diag.Related = []parser.Related{{File: first.File, Range: first.Name().Range, Message: "first given here"}}
	})
	for _, s := range p.Model().Servers {
		if s.Protocol == parser.HTTP {
			duplicateLocations(p, s.Locations())
		}
	}
	duplicateNames(p)
	duplicateModules(p)
	reportReferers(p, referer.Conflict)
}

// duplicateModules reports a module loaded twice: ngx_load_module refuses
// an object whose module a load_module already brought in. The module is
// named as its object is (ngx_http_echo_module.so holds
// ngx_http_echo_module), so the objects' base names compare.
func duplicateModules(p *analyzer.Pass) {
	ix := p.Index()
	var seen map[string]*parser.Directive
	for _, i := range ix.Named("load_module") {
		d := ix.Entries[i].Directive
		if len(d.Args()) != 1 || ix.Entries[i].Context() != directives.Main || strings.Contains(d.Args()[0].Value, "$") {
			continue
		}
		name := strings.TrimSuffix(path.Base(d.Args()[0].Value), ".so")
		if seen == nil {
			seen = map[string]*parser.Directive{}
		}
		first := seen[name]
		if first == nil {
			seen[name] = d
			continue
		}
		diag := p.ReportDirective(d, "module %q is already loaded", name)
		diag.Detail = "nginx refuses to start on a second load_module of the same module; keep one"
		diag.Related = []parser.Related{{File: first.File, Range: first.Name().Range, Message: "first loaded here"}}
	}
}

// namedDefinitions are directives that define something by name for a
// whole http or stream block, and what nginx says when a name repeats.
var namedDefinitions = map[string]string{
	"log_format":         `duplicate "log_format" name %q`,
	"limit_req_zone":     `limit_req_zone %q is declared twice`,
	"limit_conn_zone":    `limit_conn_zone %q is declared twice`,
	"upstream":           `duplicate upstream %q`,
	"proxy_cache_path":   `the same path name %q is used twice`,
	"fastcgi_cache_path": `the same path name %q is used twice`,
	"scgi_cache_path":    `the same path name %q is used twice`,
	"uwsgi_cache_path":   `the same path name %q is used twice`,
	// lua-nginx-module and NDK (http only): a dictionary's zone, and an
	// upstream list, whose names NDK compares case-insensitively.
	"lua_shared_dict": `lua_shared_dict %q is already defined as %[1]q`,
	"upstream_list":   `duplicate upstream list name %q`,
}

// definedName returns the name a named definition defines: the first
// argument, or the zone of a limit_*_zone.
func definedName(d *parser.Directive) string {
	switch d.Name().Value {
	case "limit_req_zone", "limit_conn_zone":
		for _, a := range d.Args() {
			if z, ok := strings.CutPrefix(a.Value, "zone="); ok {
				name, _, _ := strings.Cut(z, ":")
				return name
			}
		}
		return ""
	}
	if len(d.Args()) == 0 {
		return ""
	}
	return d.Args()[0].Value
}

// duplicateNames reports a log format, zone, upstream or cache path
// defined twice in one protocol: nginx keeps these in tables for the
// whole http (or stream) block, so block nesting does not separate them.
// Cache paths compare across the four cache modules, as nginx's path
// table does.
func duplicateNames(p *analyzer.Pass) {
	seen := map[string]*parser.Directive{}
	// http's log module defines "combined" before any log_format
	// (ngx_http_log_init); stream's has no predefined format.
	combined := fmt.Sprint(directives.HTTPFamily, "log_format", "\x00", "combined")
	p.WalkContext(func(d *parser.Directive, ctx directives.Context, _ []*parser.Directive) {
		format, ok := namedDefinitions[d.Name().Value]
		if !ok || directives.DataBlock(ctx) {
			return
		}
		proto := directives.FamilyOf(ctx)
		if proto != directives.HTTPFamily && proto != directives.StreamFamily {
			return
		}
		name := definedName(d)
		if name == "" {
			return
		}
		kind := d.Name().Value
		if strings.HasSuffix(kind, "_cache_path") {
			kind = "cache_path"
		}
		if (kind == "lua_shared_dict" || kind == "upstream_list") && proto != directives.HTTPFamily {
			return // stream-lua's own: not compared here
		}
		key := name
		if kind == "upstream_list" {
			key = strings.ToLower(name)
		}
		k := fmt.Sprint(proto, kind, "\x00", key)
		first := seen[k]
		if k == combined {
			diag := p.ReportDirective(d, format, name)
			diag.Detail = "nginx predefines the \"combined\" format; choose another name"
			return
		}
		if first == nil {
			seen[k] = d
			return
		}
		diag := p.ReportDirective(d, format, name)
		diag.Detail = "the name is already defined; nginx refuses to start"
		if kind == "lua_shared_dict" && len(d.Args()) == 2 && len(first.Args()) == 2 {
			// nginx's shared memory table compares the sizes first.
			size, ok1 := ngxparse.ParseSize(d.Args()[1].Value)
			was, ok2 := ngxparse.ParseSize(first.Args()[1].Value)
			if ok1 && ok2 && size != was {
				diag.Message = fmt.Sprintf("the size %d of shared memory zone %q conflicts with already declared size %d", size, name, was)
			}
		}
		diag.Related = []parser.Related{{File: first.File, Range: first.Name().Range, Message: "first defined here"}}
	})
}

// duplicateLocations reports sibling locations with the same path and
// kind, which ngx_http_join_exact_locations rejects: two exact ("=")
// locations, or two prefix ones (plain or "^~", both inclusive for
// nginx). Regex and named locations are not compared; nginx does not
// either. Paths compare byte for byte, as on Linux.
func duplicateLocations(p *analyzer.Pass, locs []parser.Location) {
	seen := map[string]*parser.Location{}
	for i := range locs {
		l := &locs[i]
		duplicateLocations(p, l.Locations())
		spec := l.Spec()
		if l.Err() != nil || spec.IsRegex || spec.Named {
			continue
		}
		key := "prefix " + spec.Path
		if spec.Modifier == grammar.ModExact {
			key = "exact " + spec.Path
		}
		first := seen[key]
		if first == nil {
			seen[key] = l
			continue
		}
		diag := p.ReportDirective(l.Directive, "duplicate location %q", spec.Path)
		diag.Detail = "a location with this path and match type is already defined in this block; nginx refuses to start"
		if spec.Modifier != first.Spec().Modifier {
			diag.Detail += " (\"^~\" and a plain prefix are the same kind of location)"
		}
		diag.Related = []parser.Related{{File: first.Directive.File, Range: first.Directive.Name().Range, Message: "first defined here"}}
	}
}
