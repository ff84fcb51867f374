package routing

import (
	"strconv"
	"strings"
	"sync"

	"github.com/nginx-lint/nginx-lint/analyzer/access"
	"github.com/nginx-lint/nginx-lint/analyzer/regex"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/internal/ngxparse"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// level is the configuration of one block that a request can be handled
// in (http, server, location, or a location's if), as far as routing
// reads it. What nginx inherits from the enclosing block is looked up
// through parent; what it does not (rewrite's program, try_files, the
// content handler) is the block's own.
type level struct {
	parent *level
	// block is the block's directive (nil for http).
	block *parser.Directive

	// prog is the rewrite module's program of the block
	// (ngx_http_rewrite_loc_conf_t's codes; an if's directives are
	// compiled into the enclosing block's).
	prog []op

	// handler is the directive that makes the block's content handler
	// (clcf->handler), nil for none.
	handler     *parser.Directive
	handlerKind HandlerKind
	// handlerTarget is the handler's address, as a value to evaluate.
	handlerTarget *Script
	// autoRedirect: a prefix location whose name ends in "/" with one
	// of the *_pass directives (clcf->auto_redirect).
	autoRedirect bool

	recursiveErrorPages, internal, autoindex, randomIndex, mergeSlashes, satisfyAny setting
	// absolute_redirect, server_name_in_redirect, port_in_redirect:
	// how the header filter completes a Location that starts with "/".
	absoluteRedirect, nameInRedirect, portInRedirect setting

	// The settings most blocks leave alone, behind one pointer (to
	// noExtra until the block sets one): a big configuration has a
	// level for each of its locations.
	*levelExtra
}

// levelExtra holds the settings of a level that most blocks do not
// set. What nginx inherits is looked up through the parent's.
type levelExtra struct {
	// try_files is the block's own (not inherited).
	tryFiles     *parser.Directive
	tryFilesArgs []*Script

	root       *parser.Directive // root or alias
	rootScript *Script
	alias      bool

	index        *parser.Directive
	indexScripts []*Script

	errorPages    []errorPage
	hasErrorPages bool

	access    []access.Rule
	hasAccess bool
	authBasic *parser.Directive // auth_basic other than "off"
	authSet   bool

	// opaque are the directives of modules whose effect on the request
	// the model does not evaluate (auth_request, access_by_lua, ...).
	opaque []*parser.Directive

	// limitExcept is the block's limit_except and limit its
	// configuration, which a request of another method is handled in.
	limitExcept *parser.Directive
	limit       *level

	// rateLimit is the block's first limit_req or limit_conn: over its
	// rate or count nginx answers limit_req_status (503) instead.
	rateLimit *parser.Directive
	// varCharset is a charset from a variable: the charset filter
	// closes the connection when its value is no charset it knows.
	varCharset *parser.Directive

	// headerBuffer and largeHeaderBuffer are client_header_buffer_size
	// and the size of large_client_header_buffers (0: not set here).
	headerBuffer, largeHeaderBuffer int
}

// noExtra is the levelExtra of every level that sets none of it; it is
// never written.
var noExtra = &levelExtra{}

// newLevel returns a level below parent for block.
func newLevel(parent *level, block *parser.Directive) *level {
	return &level{parent: parent, block: block, levelExtra: noExtra}
}

// own returns the level's own levelExtra, to write.
func (l *level) own() *levelExtra {
	if l.levelExtra == noExtra {
		l.levelExtra = &levelExtra{}
	}
	return l.levelExtra
}

// setting is an inherited on/off value: 0 when not set in the block.
type setting int8

const (
	unset setting = iota
	off
	on
)

// argAt is d's argument i, "" when it has fewer.
func argAt(d *parser.Directive, i int) string {
	if i < len(d.Args()) {
		return d.Args()[i].Value
	}
	return ""
}

func flag(d *parser.Directive) setting {
	if len(d.Args()) == 1 && strings.EqualFold(d.Args()[0].Value, "on") {
		return on
	}
	return off
}

// get returns the value of an inherited setting f from l or its
// ancestors (def when none sets it).
func (l *level) get(f func(*level) setting, def bool) bool {
	for ; l != nil; l = l.parent {
		switch f(l) {
		case on:
			return true
		case off:
			return false
		}
	}
	return def
}

// effRoot returns the level that sets root or alias for l, nil for
// nginx's default root ("html" under the prefix).
func (l *level) effRoot() *level {
	for ; l != nil; l = l.parent {
		if l.root != nil {
			return l
		}
	}
	return nil
}

func (l *level) effIndex() *level {
	for ; l != nil; l = l.parent {
		if l.index != nil {
			return l
		}
	}
	return nil
}

func (l *level) effErrorPages() []errorPage {
	for ; l != nil; l = l.parent {
		if l.hasErrorPages {
			return l.errorPages
		}
	}
	return nil
}

func (l *level) effAccess() []access.Rule {
	for ; l != nil; l = l.parent {
		if l.hasAccess {
			return l.access
		}
	}
	return nil
}

func (l *level) effAuthBasic() *parser.Directive {
	for ; l != nil; l = l.parent {
		if l.authSet {
			return l.authBasic
		}
	}
	return nil
}

func (l *level) effOpaque() []*parser.Directive {
	var out []*parser.Directive
	for ; l != nil; l = l.parent {
		out = append(out, l.opaque...)
	}
	return out
}

// errorPage is one code of an error_page directive.
type errorPage struct {
	d      *parser.Directive
	status int
	// overwrite is the "=code" (0 for a bare "=", -1 without).
	overwrite int
	target    *Script
	// args are the query string of a literal URI target.
	args string
}

// opKind is what a rewrite-module directive does.
type opKind uint8

const (
	opRewrite opKind = iota
	opReturn
	opSet
	opIf
	opBreak
)

// op is one directive of the rewrite module's program.
type op struct {
	kind opKind
	d    *parser.Directive

	// rewrite
	re       *regex.Regex
	script   *Script // the replacement, return's text or URL, set's value
	last     bool    // last, break, redirect, permanent or an implicit redirect stop the program
	brk      bool    // the break flag
	status   int     // a redirect's status, return's code
	addArgs  bool    // the replacement does not end in "?"
	redirect bool

	// set
	name string

	// if
	cond ifCond
	lif  *level // the if's configuration (nil in a server's if)
	end  int    // the op after the if's block
}

type ifCond struct {
	lhs, rhs *Script
	op       string // "", "=", "!=", "~", "~*", "!~", "!~*", "-f", "!-f", "-d", "!-d", "-e", "!-e", "-x", "!-x"
	re       *regex.Regex
}

// contentHandlers are the directives that set a location's content
// handler (clcf->handler) and what nginx-lint calls it. The first six
// also make a prefix location ending in "/" redirect the URI without the
// slash (auto_redirect).
var contentHandlers = map[string]HandlerKind{
	"proxy_pass":           HandlerProxy,
	"fastcgi_pass":         HandlerFastCGI,
	"uwsgi_pass":           HandlerUWSGI,
	"scgi_pass":            HandlerSCGI,
	"grpc_pass":            HandlerGRPC,
	"memcached_pass":       HandlerMemcached,
	"stub_status":          HandlerModule,
	"empty_gif":            HandlerModule,
	"flv":                  HandlerModule,
	"mp4":                  HandlerModule,
	"perl":                 HandlerModule,
	"content_by_lua":       HandlerModule,
	"content_by_lua_block": HandlerModule,
	"content_by_lua_file":  HandlerModule,
	"js_content":           HandlerModule,
	"echo":                 HandlerModule,
	"tunnel_pass":          HandlerModule,
}

func autoRedirects(name string) bool {
	switch name {
	case "proxy_pass", "fastcgi_pass", "uwsgi_pass", "scgi_pass", "grpc_pass", "memcached_pass":
		return true
	}
	return false
}

// opaqueDirectives are the directives of phases the model does not run:
// they may answer or redirect the request in ways only the running
// module knows.
var opaqueDirectives = map[string]bool{
	"auth_request": true, "rewrite_by_lua": true, "rewrite_by_lua_block": true, "rewrite_by_lua_file": true,
	"access_by_lua": true, "access_by_lua_block": true, "access_by_lua_file": true, "auth_jwt": true,
	"js_access": true, "perl_access": true, "secure_link": false, "auth_pam": true, "echo_exec": true,
	"mirror": false, "precontent_by_lua_block": true, "precontent_by_lua_file": true,
}

// eachDirective calls fn for the directives of a block in the order
// nginx reads them, with included files in place of their include.
func eachDirective(c *parser.Config, dirs []*parser.Directive, fn func(*parser.Directive)) {
	for _, d := range dirs {
		if d.Name().Value == "include" && c != nil {
			for _, f := range c.Included(d) {
				eachDirective(c, f.Directives, fn)
			}
			continue
		}
		fn(d)
	}
}

// builder reads blocks into levels and locations.
type builder struct {
	c      *parser.Config
	server int
	// regexes, when set, keeps the regexes compiled for a model: the
	// servers of a big configuration repeat the same few.
	regexes *regexCache
}

// regexCache shares compiled regexes between the servers of a model.
type regexCache struct {
	mu      sync.Mutex
	m       map[regexKey]*regex.Regex
	scripts map[regexKey]*Script
}

type regexKey struct {
	pattern  string
	caseless bool
}

// script compiles a value, once per model.
func (b *builder) script(src string, withArgs bool) *Script {
	if b.regexes == nil {
		return compileScript(src, withArgs)
	}
	c := b.regexes
	k := regexKey{src, withArgs}
	c.mu.Lock()
	defer c.mu.Unlock()
	if sc, ok := c.scripts[k]; ok {
		return sc
	}
	sc := compileScript(src, withArgs)
	c.scripts[k] = sc
	return sc
}

// regex compiles a pattern, once per model.
func (b *builder) regex(pattern string, caseless bool) *regex.Regex {
	if b.regexes == nil {
		return regex.Compile(pattern, caseless)
	}
	c := b.regexes
	k := regexKey{pattern, caseless}
	c.mu.Lock()
	r, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return r
	}
	r = regex.Compile(pattern, caseless)
	c.mu.Lock()
	c.m[k] = r
	c.mu.Unlock()
	return r
}

// readLevel reads the directives of one block (not its locations, which
// the caller reads) into lv; locs receives the location directives.
func (b *builder) readLevel(lv *level, dirs []*parser.Directive, locs *[]*parser.Directive, inIf bool) {
	eachDirective(b.c, dirs, func(d *parser.Directive) {
		name := d.Name().Value
		switch name {
		case "location":
			if locs != nil && d.Block != nil {
				*locs = append(*locs, d)
			}
		case "if":
			if inIf || d.Block == nil {
				return
			}
			o := op{kind: opIf, d: d}
			if c, ok := symbols.SplitIf(d); ok {
				o.cond = ifCond{lhs: b.script(c.LHS, false), op: c.Op}
				switch c.Op {
				case "-":
					o.cond.op = c.LHS
					o.cond.lhs = b.script(c.RHS, false)
				case "":
				case "~", "!~":
					o.cond.re = b.regex(c.RHS, false)
				case "~*", "!~*":
					o.cond.re = b.regex(c.RHS, true)
				default:
					o.cond.rhs = b.script(c.RHS, false)
				}
			} else {
				o.cond.op = "?"
			}
			at := len(lv.prog)
			lv.prog = append(lv.prog, o)
			if lv.block != nil && lv.block.Name().Value == "location" {
				inner := newLevel(lv, d)
				lv.prog[at].lif = inner
				b.readIf(lv, inner, d)
			} else {
				b.readIf(lv, nil, d)
			}
			lv.prog[at].end = len(lv.prog)
		case "rewrite", "return", "set", "break":
			if o, ok := readOp(d, b.regex, b.script); ok {
				lv.prog = append(lv.prog, o)
			}
		case "try_files":
			if len(d.Args()) >= 2 {
				x := lv.own()
				x.tryFiles = d
				x.tryFilesArgs = nil
				for _, a := range d.Args() {
					x.tryFilesArgs = append(x.tryFilesArgs, b.script(a.Value, false))
				}
			}
		case "root", "alias":
			if len(d.Args()) == 1 && lv.root == nil {
				x := lv.own()
				x.root, x.alias = d, name == "alias"
				x.rootScript = b.script(d.Args()[0].Value, false)
			}
		case "index":
			x := lv.own()
			if x.index == nil {
				x.index = d
			}
			for _, a := range d.Args() {
				x.indexScripts = append(x.indexScripts, b.script(a.Value, false))
			}
		case "error_page":
			x := lv.own()
			x.hasErrorPages = true
			x.errorPages = append(x.errorPages, readErrorPage(d)...)
		case "recursive_error_pages":
			lv.recursiveErrorPages = flag(d)
		case "internal":
			lv.internal = on
		case "charset":
			if len(d.Args()) == 1 && strings.Contains(d.Args()[0].Value, "$") {
				lv.own().varCharset = d
			}
		case "client_header_buffer_size":
			if n, ok := ngxparse.ParseSize(argAt(d, 0)); ok {
				lv.own().headerBuffer = n
			}
		case "large_client_header_buffers":
			if n, ok := ngxparse.ParseSize(argAt(d, 1)); ok {
				lv.own().largeHeaderBuffer = n
			}
		case "limit_req", "limit_conn":
			if lv.rateLimit == nil {
				lv.own().rateLimit = d
			}
		case "autoindex":
			lv.autoindex = flag(d)
		case "random_index":
			lv.randomIndex = flag(d)
		case "merge_slashes":
			lv.mergeSlashes = flag(d)
		case "absolute_redirect":
			lv.absoluteRedirect = flag(d)
		case "server_name_in_redirect":
			lv.nameInRedirect = flag(d)
		case "port_in_redirect":
			lv.portInRedirect = flag(d)
		case "satisfy":
			if len(d.Args()) == 1 && d.Args()[0].Value == "any" {
				lv.satisfyAny = on
			} else {
				lv.satisfyAny = off
			}
		case "allow", "deny":
			if len(d.Args()) == 1 {
				x := lv.own()
				x.hasAccess = true
				// A rule nginx refuses matches no client, but the level
				// has its list all the same.
				r, _ := access.ParseRule(d)
				x.access = append(x.access, r)
			}
		case "auth_basic":
			x := lv.own()
			x.authSet = true
			if len(d.Args()) == 1 && d.Args()[0].Value != "off" {
				x.authBasic = d
			}
		case "limit_except":
			if d.Block != nil && !inIf {
				// ngx_http_core_limit_except: a configuration of its
				// own below the location, for the other methods.
				x := lv.own()
				x.limitExcept = d
				x.limit = newLevel(lv, d)
				b.readLevel(x.limit, d.Block.Directives, nil, true)
			}
		default:
			if k, ok := contentHandlers[name]; ok {
				if name == "perl" && (lv.block == nil || lv.block.Name().Value == "http") {
					return
				}
				lv.handler, lv.handlerKind = d, k
				if len(d.Args()) > 0 {
					lv.handlerTarget = b.script(d.Args()[0].Value, false)
				}
				if autoRedirects(name) && lv.block != nil && lv.block.Name().Value == "location" {
					loc := (&parser.Location{Directive: lv.block}).Spec()
					if strings.HasSuffix(loc.Path, "/") && !loc.IsRegex && !loc.Named {
						lv.autoRedirect = true
					}
				}
				return
			}
			if opaqueDirectives[name] {
				x := lv.own()
				x.opaque = append(x.opaque, d)
			}
		}
	})
}

// readIf reads an if block: its rewrite directives go into outer's
// program, its other directives into inner (nil for a server's if,
// which has no configuration of its own).
func (b *builder) readIf(outer, inner *level, d *parser.Directive) {
	if inner == nil {
		inner = newLevel(nil, nil)
	}
	// The if's own directives, with its rewrite program compiled into
	// the enclosing block's.
	b.readLevel(inner, d.Block.Directives, nil, true)
	outer.prog = append(outer.prog, inner.prog...)
	inner.prog = nil
}

// readOp reads rewrite, return, set and break as the rewrite module
// compiles them; ok is false for arguments nginx refuses.
func readOp(d *parser.Directive, compile func(string, bool) *regex.Regex, script func(string, bool) *Script) (op, bool) {
	a := d.ArgValues()
	o := op{d: d}
	switch d.Name().Value {
	case "break":
		o.kind = opBreak
		return o, true
	case "set":
		if len(a) != 2 || len(a[0]) < 2 || a[0][0] != '$' {
			return o, false
		}
		o.kind, o.name, o.script = opSet, strings.ToLower(a[0][1:]), script(a[1], false)
		return o, true
	case "return":
		o.kind = opReturn
		if len(a) < 1 || len(a) > 2 {
			return o, false
		}
		code, err := strconv.Atoi(a[0])
		if err != nil || code < 0 {
			if len(a) == 1 && redirectURL(a[0]) {
				o.status, o.script = 302, script(a[0], false)
				return o, true
			}
			return o, false
		}
		if code > 999 {
			return o, false
		}
		o.status = code
		if len(a) == 2 {
			o.script = script(a[1], false)
		}
		return o, true
	case "rewrite":
		o.kind = opRewrite
		if len(a) < 2 || len(a) > 3 || a[1] == "" {
			return o, false
		}
		o.re = compile(a[0], false)
		repl := a[1]
		if strings.HasSuffix(repl, "?") {
			repl = repl[:len(repl)-1]
		} else {
			o.addArgs = true
		}
		if redirectURL(repl) {
			o.status, o.redirect, o.last = 302, true, true
		}
		if len(a) == 3 {
			switch a[2] {
			case "last":
				o.last = true
			case "break":
				o.last, o.brk = true, true
			case "redirect":
				o.status, o.redirect, o.last = 302, true, true
			case "permanent":
				o.status, o.redirect, o.last = 301, true, true
			default:
				return o, false
			}
		}
		o.script = script(repl, !o.redirect)
		return o, true
	}
	return o, false
}

// redirectURL reports whether a return's URL or a rewrite's replacement
// makes nginx redirect: it starts with "http://", "https://" or
// "$scheme" (ngx_http_rewrite_return, ngx_http_rewrite), compared with
// case.
func redirectURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "$scheme")
}

// Redirects reports whether a rewrite directive answers with a redirect,
// as ngx_http_rewrite reads it: its flag is redirect or permanent, or its
// replacement starts with a scheme (nginx then redirects whatever the
// flag). A rewrite without a replacement redirects nothing.
func Redirects(rewrite *parser.Directive) bool {
	if len(rewrite.Args()) < 2 {
		return false
	}
	if len(rewrite.Args()) >= 3 {
		if f := rewrite.Args()[2].Value; f == "redirect" || f == "permanent" {
			return true
		}
	}
	return redirectURL(rewrite.Args()[1].Value)
}

// readErrorPage reads error_page as ngx_http_core_error_page does.
func readErrorPage(d *parser.Directive) []errorPage {
	a := d.ArgValues()
	if len(a) < 2 {
		return nil
	}
	n := len(a) - 1
	overwrite := -1
	if v := a[n-1]; strings.HasPrefix(v, "=") {
		if n-1 == 0 {
			return nil
		}
		overwrite = 0
		if len(v) > 1 {
			code, err := strconv.Atoi(v[1:])
			if err != nil || code < 0 {
				return nil
			}
			overwrite = code
		}
		n--
	}
	target := compileScript(a[len(a)-1], false)
	var args string
	if lit, ok := target.Literal(); ok && strings.HasPrefix(lit, "/") {
		if q := strings.IndexByte(lit, '?'); q >= 0 {
			target = compileScript(lit[:q], false)
			args = lit[q+1:]
		}
	}
	var out []errorPage
	for _, c := range a[:n] {
		code, err := strconv.Atoi(c)
		if err != nil || code < 300 || code > 599 || code == 499 {
			continue
		}
		ow := overwrite
		if ow == -1 {
			switch code {
			case 494, 495, 496, 497:
				ow = 400
			}
		}
		out = append(out, errorPage{d: d, status: code, overwrite: ow, target: target, args: args})
	}
	return out
}

// buildServer reads server n's block into its locations.
func (m *Model) buildServer(n int) *serverRoutes {
	s := m.Table.Servers[n]
	b := &builder{c: m.cfg, server: n, regexes: &m.regexes}
	var dirs []*parser.Directive
	if s.Directive.Block != nil {
		dirs = s.Directive.Block.Directives
	}
	sr := b.readServer(m.http, s.Directive, dirs)
	if names := s.Names(); len(names) > 0 {
		// cscf->server_name ($server_name): the first name, lower-case
		// but for a regex, without the dot of ".domain".
		sr.name = names[0].Directive.Args()[names[0].Arg].Value
		if !strings.HasPrefix(sr.name, "~") {
			sr.name = strings.TrimPrefix(strings.ToLower(sr.name), ".")
		}
	}
	return sr
}

// readServer reads a server block's directives (block nil: a
// configuration snippet's top level) into its locations, below the http
// level.
func (b *builder) readServer(http *level, block *parser.Directive, dirs []*parser.Directive) *serverRoutes {
	root := newLocation()
	root.Server, root.conf.parent, root.conf.block = b.server, http, block
	sr := &serverRoutes{root: root, named: map[string]*Location{}}
	root.srv = sr
	var locs []*parser.Directive
	b.readLevel(root.conf, dirs, &locs, false)
	b.children(root, locs, sr)
	return sr
}

// newLocation allocates a Location with its level in one piece: a big
// configuration has hundreds of thousands.
func newLocation() *Location {
	a := &struct {
		l  Location
		lv level
	}{}
	a.lv.levelExtra = noExtra
	a.l.conf = &a.lv
	return &a.l
}

// locationSpec parses a location's arguments without allocating.
func locationSpec(d *parser.Directive) (grammar.Location, bool) {
	var buf [2]string
	if len(d.Args()) == 0 || len(d.Args()) > 2 {
		return grammar.Location{}, false
	}
	vals := buf[:len(d.Args())]
	for i, a := range d.Args() {
		vals[i] = a.Value
	}
	spec, err := grammar.ParseLocation(vals)
	return spec, err == nil
}

// children reads the location directives of parent.
func (b *builder) children(parent *Location, locs []*parser.Directive, sr *serverRoutes) {
	var static []*Location
	for _, d := range locs {
		spec, ok := locationSpec(d)
		if !ok {
			continue
		}
		l := newLocation()
		l.Directive, l.Spec, l.Server, l.srv = d, spec, b.server, sr
		l.conf.parent, l.conf.block = parent.conf, d
		if parent.Directive != nil {
			l.Parent = parent
		}
		var nested []*parser.Directive
		b.readLevel(l.conf, d.Block.Directives, &nested, false)
		switch {
		case spec.Named:
			if parent.Directive == nil {
				if _, dup := sr.named[spec.Path]; !dup {
					sr.named[spec.Path] = l
				}
			}
			continue
		case spec.IsRegex:
			l.regex = b.regex(spec.Path, spec.CaseInsensitive)
			parent.regexes = append(parent.regexes, l)
		default:
			static = append(static, l)
		}
		b.children(l, nested, sr)
	}
	parent.static = arrange(static)
}
