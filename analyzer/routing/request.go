package routing

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/nginx-lint/nginx-lint/analyzer/regex"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/internal/ngxparse"
	"github.com/nginx-lint/nginx-lint/parser"
)

// maxURIChanges is NGX_HTTP_MAX_URI_CHANGES: a request may change its
// URI (rewrite ... last, an internal redirect, a named location) ten
// times; the eleventh is "rewrite or internal redirection cycle", 500.
const maxURIChanges = 10

// phase is where the request goes next in nginx's phase engine.
type phase int

const (
	phaseServerRewrite phase = iota // NGX_HTTP_SERVER_REWRITE_PHASE
	phaseFindConfig                 // NGX_HTTP_FIND_CONFIG_PHASE
	phaseRewrite                    // NGX_HTTP_REWRITE_PHASE and what follows
	phaseDone
)

// state is one request on its way through nginx's phases.
type state struct {
	m   *Model
	req *HTTPRequest
	a   *Answer

	srv        *serverRoutes
	host       string // the validated Host, "" without one
	requestURI string // $request_uri: the target in origin form
	location   string // the Location header a redirect set
	uri, args  string
	quoted     bool // the URI had %XX or "+": captures are escaped into query strings
	method     string
	internal   bool
	loc        *Location
	cur        *level // the configuration the request is in (r->loc_conf)
	handler    *level // the level whose content handler runs (r->content_handler)
	caps       *regex.Captures
	vars       map[string]string
	mapCache   map[string]string
	mapDepth   int
	changes    int // r->uri_changes
	errorPage  bool
	errStatus  int
	// outStatus is r->headers_out.status: a return's status once it
	// evaluates its text or URL.
	outStatus  int
	uriChanged bool
	// validLocation is cleared by rewrite's break once the URI changed:
	// alias then cannot map the URI (nginx answers 500).
	validLocation bool
	// addURIToAlias is r->add_uri_to_alias: try_files found a file in
	// a regex location's alias, whose path is now the alias and the
	// URI (until an internal redirect).
	addURIToAlias bool
	lastRewrite   *parser.Directive
	next          phase
}

// Route answers what nginx does with the request: the server, the
// location, the redirects on the way and what answers.
func (m *Model) Route(req HTTPRequest) *Answer {
	a := &Answer{Server: Refused}
	addr := m.Table.Address(req.Addr, req.Port)
	if req.Unix != "" {
		addr = m.Table.unixAddr(req.Unix)
	}
	if addr == nil {
		a.Handler.Kind = HandlerClose
		return a
	}
	st := &state{m: m, req: &req, a: a, method: req.Method,
		changes: maxURIChanges + 1, validLocation: true}
	if st.method == "" {
		st.method = "GET"
	}
	if req.HTTPS && !addr.SSL {
		// A TLS ClientHello where nginx expects plain HTTP: its first
		// byte (0x16) is no method, so the request line is refused in
		// the address's default server (and the client, expecting TLS,
		// cannot read the answer).
		st.badRequest(addr.Default, "400 Bad Request: a TLS handshake on a listen without ssl, which nginx reads as an invalid request line")
		return a
	}
	if !validMethod(st.method) {
		// ngx_http_parse_request_line: NGX_HTTP_PARSE_INVALID_METHOD.
		st.badRequest(addr.Default, fmt.Sprintf("400 Bad Request: invalid method %q (nginx reads only A-Z, \"_\" and \"-\" in a method)", st.method))
		return a
	}
	// The request line is read in the address's default server (nginx
	// has not seen Host yet): merge_slashes is its.
	def := m.server(addr.Default)
	// An absolute-form target names the host, which nginx takes over
	// the Host header (ngx_http_process_request_line, then
	// ngx_http_process_host, which still validates the header).
	lineHost, target, absolute, err := AbsoluteTarget(req.Target)
	if !absolute {
		target = req.Target
	}
	st.requestURI = target
	if err == nil && strings.HasPrefix(target, "?") {
		// "http://host?query": the path is "/" (empty_path_in_uri).
		target = "/" + target
	}
	if err == nil && tooLong(def.root.conf, st.method, req.Target, req.NoHost) {
		st.refuse(addr.Default, 414, "414 Request-URI Too Large: the request line does not fit in a buffer of large_client_header_buffers")
		return a
	}
	var t Target
	if err == nil {
		t, err = ParseTarget(target, def.root.conf.get(func(l *level) setting { return l.mergeSlashes }, true))
	}
	if err != nil {
		st.badRequest(addr.Default, err.Error())
		return a
	}
	st.uri, st.args, st.quoted = t.URI, t.Args, t.Quoted || t.Plus
	var lineName string
	if absolute {
		h, ok := NormalizeHost(lineHost)
		if !ok {
			st.badRequest(addr.Default, fmt.Sprintf("400 Bad Request: invalid host %q in the request line", lineHost))
			return a
		}
		lineName = h
	}
	if !req.NoHost {
		if _, ok := NormalizeHost(req.Host); !ok || req.Host == "" {
			// Refused in the server the request line's host chose,
			// if any.
			srv := addr.Default
			if absolute {
				srv, _ = addr.lookup(lineName)
			}
			st.badRequest(srv, fmt.Sprintf("400 Bad Request: invalid Host %q", req.Host))
			return a
		}
	}
	var n int
	switch {
	case req.NoHost && !absolute:
		n = addr.NoHost()
	default:
		h := lineName
		if !absolute {
			h, _ = NormalizeHost(req.Host)
		}
		st.host = h
		var rx *rx
		n, rx = addr.lookup(h)
		if rx != nil {
			// A server_name regex that matched leaves its captures,
			// and its named groups as variables.
			c, ok, why := rx.re.Match(h)
			if why != "" {
				st.note(why)
			} else if ok {
				st.setCaptures(c)
			}
		}
	}
	a.Server = n
	st.srv = m.server(n)
	st.cur = st.srv.root.conf
	st.a.Steps = append(st.a.Steps, Step{URI: st.uri, Args: st.args})
	st.next = phaseServerRewrite
	if addr.SSL && !req.HTTPS {
		// Plain HTTP on a listen ... ssl: ngx_http_ssl_handshake sees
		// no TLS record and reads the request as plain; once its
		// headers chose the server (by Host: there is no SNI),
		// ngx_http_process_request finalizes it with 497, which the
		// server's error_page may take (a bare "error_page 497" answers
		// 400) and which is otherwise "400 The plain HTTP request was
		// sent to HTTPS port".
		st.explain("a plain HTTP request on a listen with ssl: nginx finalizes it with its code 497, which error_page 497 can take")
		st.next = phaseDone
		st.finalize(497, Handler{Kind: HandlerError})
	}
	st.loop()
	return a
}

// validMethod says nginx reads m as a method: upper-case letters, "_"
// and "-" (any such word: one nginx does not know is refused later, by
// the handler, if at all).
func validMethod(m string) bool {
	for i := 0; i < len(m); i++ {
		if c := m[i]; (c < 'A' || c > 'Z') && c != '_' && c != '-' {
			return false
		}
	}
	return m != ""
}

// tooLong says the request line does not fit in one of the address's
// default server's large_client_header_buffers (8k by default), so
// ngx_http_alloc_large_header_buffer refuses it: nginx answers 414. A
// line that fits in client_header_buffer_size (1k) needs none.
func tooLong(lv *level, method, target string, http10 bool) bool {
	small, large := 1024, 8192
	for l := lv; l != nil; l = l.parent {
		if l.headerBuffer != 0 && small == 1024 {
			small = l.headerBuffer
		}
		if l.largeHeaderBuffer != 0 && large == 8192 {
			large = l.largeHeaderBuffer
		}
	}
	n := len(method) + 1 + len(target) + len(" HTTP/1.1\r\n")
	return n > small && n > large
}

// badRequest answers 400 in server n before any location is searched.
func (st *state) badRequest(n int, why string) { st.refuse(n, 400, why) }

// refuse answers status in server n before any location is searched.
func (st *state) refuse(n, status int, why string) {
	st.a.Server = n
	st.srv = st.m.server(n)
	st.cur = st.srv.root.conf
	st.a.Steps = append(st.a.Steps, Step{})
	st.explain(why)
	st.next = phaseDone
	st.finalize(status, Handler{Kind: HandlerError})
	st.loop()
}

// loop runs the phases until the request is answered.
func (st *state) loop() {
	for st.next != phaseDone {
		switch st.next {
		case phaseServerRewrite:
			from := st.uri
			if st.run(st.srv.root.conf.prog) {
				if st.uri != from {
					// A server-level rewrite: the location search
					// takes the new URI (and does not count it as a
					// change, ngx_http_core_find_config_phase).
					st.moveOn(st.lastRewrite, "rewrite")
				}
				st.next = phaseFindConfig
			}
		case phaseFindConfig:
			st.findConfig()
		case phaseRewrite:
			st.afterFind()
		}
	}
}

// note records an assumption that does not stop the answer.
// explain adds a note to the answer: why nginx answers as it does.
func (st *state) explain(why string) {
	if !slices.Contains(st.a.Notes, why) {
		st.a.Notes = append(st.a.Notes, why)
	}
}

// note adds what the model could not evaluate, or assumed, to the
// answer.
func (st *state) note(why string) {
	for _, u := range st.a.Unsure {
		if u == why {
			return
		}
	}
	st.a.Unsure = append(st.a.Unsure, why)
}

// stop ends the request where the model cannot go on, or with the 500
// of an internalError.
func (st *state) stop(err error) {
	var ie *internalError
	if errors.As(err, &ie) {
		st.explain(ie.why)
		st.finalize(500, Handler{Kind: HandlerError})
		return
	}
	var u *unsure
	why := err.Error()
	if errors.As(err, &u) {
		why = u.why
	}
	st.note(why)
	st.finish(0, Handler{Kind: HandlerUnknown})
}

// setVar assigns a variable of the request (set, a named capture).
func (st *state) setVar(name, v string) {
	if st.vars == nil {
		st.vars = map[string]string{}
	}
	st.vars[name] = v
}

// answer ends the request with a response.
func (st *state) answer(status int, h Handler) {
	if st.errStatus != 0 && h.Kind != HandlerError && h.Kind != HandlerClose {
		// ngx_http_send_header: the status of the error being
		// answered by an error_page wins.
		status = st.errStatus
	}
	st.finish(status, h)
}

// finish records the answer.
func (st *state) finish(status int, h Handler) {
	if h.Kind == HandlerRedirect && strings.HasPrefix(h.Target, "/") {
		h.Target = st.absoluteLocation(h.Target)
	}
	if h.Kind != HandlerRedirect && h.Kind != HandlerClose && st.location != "" {
		st.a.LocationHeader = st.location
		if strings.HasPrefix(st.location, "/") {
			st.a.LocationHeader = st.absoluteLocation(st.location)
		}
	}
	st.a.Status = status
	st.a.Handler = h
	st.a.Location = st.loc
	st.a.URI, st.a.Args = st.uri, st.args
	st.next = phaseDone
}

// absoluteLocation is the Location header ngx_http_header_filter sends
// for a redirect to uri, which starts with "/": with absolute_redirect
// (on by default) the scheme, the host (the server's name with
// server_name_in_redirect, else the validated Host, else the local
// address) and the port unless it is the scheme's own or
// port_in_redirect is off, all read in the configuration that answers.
func (st *state) absoluteLocation(uri string) string {
	lv := st.cur
	if !lv.get(func(l *level) setting { return l.absoluteRedirect }, true) {
		return uri
	}
	r := st.req
	host := st.host
	switch {
	case lv.get(func(l *level) setting { return l.nameInRedirect }, false):
		host = st.srv.name
	case host != "":
	case r.Unix != "":
		host = "unix:"
	default:
		host = r.Addr.Unmap().String()
	}
	scheme, port := "http", r.Port
	if r.HTTPS {
		scheme = "https"
	}
	if r.Unix != "" || !lv.get(func(l *level) setting { return l.portInRedirect }, true) ||
		port == 80 && !r.HTTPS || port == 443 && r.HTTPS {
		port = 0
	}
	if port != 0 {
		return scheme + "://" + host + ":" + strconv.Itoa(port) + uri
	}
	return scheme + "://" + host + uri
}

func (st *state) step() *Step { return &st.a.Steps[len(st.a.Steps)-1] }

// moveOn records that d sent the request on, and starts the next step.
func (st *state) moveOn(d *parser.Directive, how string) {
	s := st.step()
	s.Via, s.How = d, how
	st.a.Steps = append(st.a.Steps, Step{URI: st.uri, Args: st.args})
}

// findConfig is ngx_http_core_find_config_phase.
func (st *state) findConfig() {
	st.uriChanged = false
	m := match{}
	rc := st.srv.root.find(st.uri, &m)
	if m.unsure != "" {
		st.loc = m.loc
		st.step().Location = m.loc
		st.stop(&unsure{m.unsure})
		return
	}
	if m.captures != nil {
		st.setCaptures(m.captures)
	}
	st.enter(m.loc)
	st.step().Location = m.loc
	if !st.internal && st.cur.get(func(l *level) setting { return l.internal }, false) {
		st.finalize(404, Handler{Kind: HandlerError})
		return
	}
	if rc == autoRedirect && m.loc != nil {
		target := escapeURI(m.loc.Spec.Path, escapeURIPath)
		if st.args != "" {
			target += "?" + st.args
		}
		st.finalize(301, Handler{Kind: HandlerRedirect, Target: target})
		return
	}
	st.next = phaseRewrite
}

// enter makes loc (nil: the server level) the request's location.
func (st *state) enter(loc *Location) {
	st.loc = loc
	if loc == nil {
		st.cur = st.srv.root.conf
	} else {
		st.cur = loc.conf
	}
	st.handler = nil
	if st.cur.handler != nil {
		st.handler = st.cur
	}
	// ngx_http_update_location_config: a method limit_except does not
	// list is handled in limit_except's configuration, which keeps the
	// location's *_pass unless it has its own.
	if lx := st.cur.limit; lx != nil && !methodIn(st.method, st.cur.limitExcept) {
		st.cur = lx
		if lx.handler != nil {
			st.handler = lx
		}
	}
}

// afterFind runs the location's rewrite phase and what follows: the
// post-rewrite check, access, try_files and the content handler.
func (st *state) afterFind() {
	if st.loc != nil {
		// The server level has no location rewrite phase of its own
		// (ngx_http_rewrite_handler skips the server's null location).
		if !st.run(st.loc.conf.prog) {
			return
		}
	}
	if st.uriChanged {
		st.changes--
		if st.changes == 0 {
			st.explain(fmt.Sprintf("rewrite or internal redirection cycle while processing %q", st.uri))
			st.finalize(500, Handler{Kind: HandlerError})
			return
		}
		st.moveOn(st.lastRewrite, "rewrite")
		st.enter(nil)
		st.next = phaseFindConfig
		return
	}
	if !st.access() {
		return
	}
	if done := st.tryFiles(); done {
		return
	}
	st.content()
}

func methodIn(method string, d *parser.Directive) bool {
	for _, a := range d.Args() {
		if strings.EqualFold(a.Value, method) || a.Value == "GET" && method == "HEAD" {
			return true
		}
	}
	return false
}

// run executes a rewrite program (ngx_http_rewrite_handler). It
// returns true when the request goes on to the next phase, false when a
// directive answered it or sent it elsewhere (st.next says where).
func (st *state) run(prog []op) bool {
	for pc := 0; pc < len(prog); {
		o := &prog[pc]
		switch o.kind {
		case opSet:
			v, err := o.script.value(st)
			if err != nil {
				st.stop(err)
				return false
			}
			if o.name == "args" {
				// $args has a set handler
				// (ngx_http_variable_set_args): set changes the
				// query string itself.
				st.args = v
			} else {
				st.setVar(o.name, v)
			}
			pc++
		case opBreak:
			if st.uriChanged {
				st.validLocation = false
				st.uriChanged = false
			}
			return true
		case opReturn:
			st.doReturn(o)
			return false
		case opIf:
			ok, err := st.cond(o)
			if err != nil {
				st.stop(err)
				return false
			}
			if !ok {
				pc = o.end
				continue
			}
			if o.lif != nil {
				st.cur = o.lif
				if o.lif.handler != nil {
					st.handler = o.lif
				}
			}
			pc++
		case opRewrite:
			c, ok, why := o.re.Match(st.uri)
			if why != "" {
				st.stop(&unsure{why})
				return false
			}
			if !ok {
				st.caps = nil
				pc++
				continue
			}
			st.setCaptures(c)
			if o.redirect {
				target, _, _, err := o.script.eval(st, escaping{redirect: true, request: st.quoted})
				if err != nil {
					st.stop(err)
					return false
				}
				target = unescapeRedirect(target)
				if o.addArgs && st.args != "" {
					sep := "?"
					if strings.Contains(o.d.Args()[1].Value, "?") {
						sep = "&"
					}
					target += sep + st.args
				}
				st.finalize(o.status, Handler{Kind: HandlerRedirect, Directive: o.d, Target: target})
				return false
			}
			uri, args, hasArgs, err := o.script.eval(st, escaping{request: st.quoted})
			if err != nil {
				st.stop(err)
				return false
			}
			st.internal = true
			if o.brk {
				st.validLocation = false
				st.uriChanged = false
			} else {
				st.uriChanged = true
			}
			if hasArgs {
				if o.addArgs && st.args != "" {
					args += "&" + st.args
				}
				st.args = args
			} else if !o.addArgs {
				st.args = ""
			}
			st.uri = uri
			st.lastRewrite = o.d
			if uri == "" {
				st.explain(fmt.Sprintf("%s: the rewritten URI has a zero length", pos(o.d)))
				st.finalize(500, Handler{Kind: HandlerError, Directive: o.d})
				return false
			}
			if o.last {
				return true
			}
			pc++
		default:
			pc++
		}
	}
	return true
}

// doReturn is return (ngx_http_script_return_code).
func (st *state) doReturn(o *op) {
	if o.status == 444 {
		st.answer(0, Handler{Kind: HandlerClose, Directive: o.d})
		return
	}
	if o.status < 400 || o.script != nil {
		// ngx_http_send_response sets the status before it evaluates
		// the text ($status there).
		st.outStatus = o.status
		text := ""
		if o.script != nil {
			v, err := o.script.value(st)
			if err != nil {
				st.stop(err)
				return
			}
			text = v
		}
		if isRedirect(o.status) {
			st.finalize(o.status, Handler{Kind: HandlerRedirect, Directive: o.d, Target: text})
			return
		}
		st.answer(o.status, Handler{Kind: HandlerReturn, Directive: o.d, Target: text})
		return
	}
	st.finalize(o.status, Handler{Kind: HandlerReturn, Directive: o.d})
}

// cond evaluates an if's condition (ngx_http_rewrite_if_condition's
// codes).
func (st *state) cond(o *op) (bool, error) {
	c := &o.cond
	if c.op == "?" || c.lhs == nil {
		return false, &unsure{fmt.Sprintf("%s: a condition nginx refuses", pos(o.d))}
	}
	lhs, err := c.lhs.value(st)
	if err != nil {
		return false, err
	}
	switch c.op {
	case "":
		return lhs != "" && lhs != "0", nil
	case "=", "!=":
		rhs, err := c.rhs.value(st)
		if err != nil {
			return false, err
		}
		return (lhs == rhs) == (c.op == "="), nil
	case "~", "~*", "!~", "!~*":
		caps, ok, why := c.re.Match(lhs)
		if why != "" {
			return false, &unsure{why}
		}
		if ok {
			st.setCaptures(caps)
		} else {
			st.caps = nil
		}
		return ok == !strings.HasPrefix(c.op, "!"), nil
	}
	neg := strings.HasPrefix(c.op, "!")
	test := strings.TrimPrefix(c.op, "!")
	root, rootOK := st.rootFor(lhs)
	k, err := st.lookup(root, rootOK, lhs)
	if err != nil {
		return false, err
	}
	var ok bool
	switch test {
	case "-f":
		ok = k == kindFile
	case "-d":
		ok = k == kindDir
	case "-e":
		ok = k == kindFile || k == kindDir
	case "-x":
		return false, &unsure{fmt.Sprintf("%s: whether %s is executable", pos(o.d), lhs)}
	default:
		return false, &unsure{fmt.Sprintf("%s: a condition nginx refuses", pos(o.d))}
	}
	return ok != neg, nil
}

// finalize is ngx_http_finalize_request with a status: a special
// response (3xx, 4xx, 5xx) goes to the error_page of the request's
// configuration, once (unless recursive_error_pages); otherwise h
// answers.
func (st *state) finalize(status int, h Handler) {
	if h.Kind == HandlerRedirect {
		// r->headers_out.location stays set through the error_page's
		// internal redirect.
		st.location = h.Target
	}
	if status >= 300 || status == 201 || status == 204 {
		st.errStatus = status
		pages := st.cur.effErrorPages()
		if !st.errorPage && len(pages) > 0 && st.changes != 0 {
			if !st.cur.get(func(l *level) setting { return l.recursiveErrorPages }, false) {
				st.errorPage = true
			}
			for i := range pages {
				if pages[i].status == status {
					st.sendErrorPage(&pages[i])
					return
				}
			}
		}
		if page, ok := ownCodes[status]; ok {
			// nginx's own codes that no error_page took are 400 with
			// a page that names the cause.
			st.explain(fmt.Sprintf("nginx answers its code %d, which no error_page %d takes, as 400 with the page %q", status, status, page))
			st.errStatus = 400
			status = 400
		}
	}
	st.finish(status, h)
}

// ownCodes are the codes of nginx that ngx_http_special_response_handler
// sends as 400, with the title of the page it sends.
var ownCodes = map[int]string{
	494: "Request Header Or Cookie Too Large",
	495: "The SSL certificate error",
	496: "No required SSL certificate was sent",
	497: "The plain HTTP request was sent to HTTPS port",
}

// sendErrorPage is ngx_http_send_error_page.
func (st *state) sendErrorPage(p *errorPage) {
	if p.overwrite >= 0 {
		st.errStatus = p.overwrite
	}
	uri, err := p.target.value(st)
	if err != nil {
		st.stop(err)
		return
	}
	switch {
	case strings.HasPrefix(uri, "/"):
		args := p.args
		if _, lit := p.target.Literal(); !lit {
			uri, args, _ = strings.Cut(uri, "?")
		}
		if st.method != "HEAD" {
			st.method = "GET"
		}
		st.internalRedirect(uri, args, p.d, "error_page")
	case strings.HasPrefix(uri, "@"):
		st.namedLocation(uri, p.d, "error_page")
	default:
		status := p.overwrite
		if !isRedirect(status) {
			status = 302
		}
		st.errStatus = status
		st.finish(status, Handler{Kind: HandlerRedirect, Directive: p.d, Target: uri})
	}
}

// internalRedirect is ngx_http_internal_redirect: the request starts
// again at the server's rewrite phase with another URI.
func (st *state) internalRedirect(uri, args string, via *parser.Directive, how string) {
	st.changes--
	if st.changes == 0 {
		st.explain(fmt.Sprintf("rewrite or internal redirection cycle while internally redirecting to %q", uri))
		st.finalize(500, Handler{Kind: HandlerError, Directive: via})
		return
	}
	st.uri, st.args = uri, args
	st.internal = true
	st.addURIToAlias = false
	st.moveOn(via, how)
	st.enter(nil)
	st.next = phaseServerRewrite
}

// namedLocation is ngx_http_named_location: the request goes on in the
// named location's rewrite phase with its URI unchanged.
func (st *state) namedLocation(name string, via *parser.Directive, how string) {
	st.changes--
	if st.changes == 0 {
		st.explain(fmt.Sprintf("rewrite or internal redirection cycle while redirect to named location %q", name))
		st.finalize(500, Handler{Kind: HandlerError, Directive: via})
		return
	}
	loc := st.srv.named[name]
	if loc == nil {
		st.explain(fmt.Sprintf("could not find named location %q", name))
		st.finalize(500, Handler{Kind: HandlerError, Directive: via})
		return
	}
	st.internal = true
	st.uriChanged = false
	st.moveOn(via, how)
	st.enter(loc)
	st.step().Location = loc
	st.next = phaseRewrite
}

// access is the access phase: allow and deny, auth_basic, and the
// modules the model does not run. It returns false when the request
// was answered.
func (st *state) access() bool {
	// The preaccess phase: a request over a limit_req rate or a
	// limit_conn count is refused, which only the traffic decides
	// (each of them inherits from the levels above when a block has
	// none, so the nearest says there is one).
	for lv := st.cur; lv != nil; lv = lv.parent {
		if d := lv.rateLimit; d != nil {
			st.note(fmt.Sprintf("%s at %s: nginx answers limit_req_status or limit_conn_status (503) instead when the traffic is over its limit", d.Name().Value, pos(d)))
			break
		}
	}
	for lv := st.cur; lv != nil; lv = lv.parent {
		if d := lv.varCharset; d != nil {
			st.note(fmt.Sprintf("%s at %s: the charset filter closes the connection when the variable names no charset it knows", d.Name().Value, pos(d)))
			break
		}
	}
	if op := st.cur.effOpaque(); len(op) > 0 {
		st.stop(&unsure{fmt.Sprintf("%s at %s decides at run time", op[0].Name().Value, pos(op[0]))})
		return false
	}
	satisfyAny := st.cur.get(func(l *level) setting { return l.satisfyAny }, false)
	// ngx_http_access_handler: the first rule that takes the client's
	// address decides; none, or no rules, decline.
	accessRC := 0 // 0 declined, 200 allowed, 403 denied
	for _, r := range st.cur.effAccess() {
		match := r.All
		switch {
		case r.All:
		case r.Unix:
			match = st.req.Unix != ""
		case st.req.Unix != "":
		case !r.Prefix.IsValid():
		case !st.req.Remote.IsValid():
			st.stop(&unsure{fmt.Sprintf("%s at %s: the client's address decides", r.Directive.Name().Value, pos(r.Directive))})
			return false
		default:
			match = r.Prefix.Contains(st.req.Remote.Unmap()) || st.req.Remote.Is4In6() && r.Prefix.Contains(st.req.Remote)
		}
		if match {
			accessRC = 403
			if r.Allow {
				accessRC = 200
			}
			break
		}
	}
	authRC := 0
	if d := st.cur.effAuthBasic(); d != nil {
		if _, err := st.header("authorization"); err == nil && st.hasHeader("authorization") {
			st.stop(&unsure{fmt.Sprintf("auth_basic at %s: the password file decides", pos(d))})
			return false
		}
		authRC = 401
	}
	if satisfyAny {
		if accessRC == 200 || authRC == 0 && accessRC == 0 {
			return true
		}
		if authRC == 401 {
			st.finalize(401, Handler{Kind: HandlerError, Directive: st.cur.effAuthBasic()})
			return false
		}
		if accessRC == 403 {
			st.finalize(403, Handler{Kind: HandlerError})
			return false
		}
		return true
	}
	if accessRC == 403 {
		st.finalize(403, Handler{Kind: HandlerError})
		return false
	}
	if authRC == 401 {
		st.finalize(401, Handler{Kind: HandlerError, Directive: st.cur.effAuthBasic()})
		return false
	}
	return true
}

func (st *state) hasHeader(name string) bool {
	for _, h := range st.req.Headers {
		if strings.EqualFold(h.Name, name) {
			return true
		}
	}
	return false
}

// tryFiles is the try_files phase handler. It returns true when the
// request was answered or redirected.
func (st *state) tryFiles() bool {
	lv := st.cur
	if lv.tryFiles == nil {
		return false
	}
	d := lv.tryFiles
	args := lv.tryFilesArgs
	rl := lv.effRoot()
	// An alias in a regex location is clcf->alias NGX_MAX_SIZE_T_VALUE:
	// each name is looked up after the whole alias, and a file found
	// becomes the URI, added to the alias from then on
	// (ngx_http_try_files_handler, ngx_http_map_uri_to_path).
	regexAlias := isRegexAlias(rl)
	if rl != nil && rl.alias && !st.validLocation {
		// The first name is looked up in ngx_http_map_uri_to_path's
		// buffer, which refuses.
		st.stop(aliasRewritten(rl))
		return true
	}
	for i, s := range args[:len(args)-1] {
		raw := d.Args()[i].Value
		testDir := strings.HasSuffix(raw, "/") && i+1 < len(d.Args())
		if testDir {
			s = compileScript(raw[:len(raw)-1], false)
		}
		name, err := s.value(st)
		if err != nil {
			st.stop(err)
			return true
		}
		if rl != nil && rl.alias && !regexAlias {
			if _, lit := s.Literal(); !lit {
				if n := aliasLen(rl); n <= len(st.uri) && strings.HasPrefix(name, st.uri[:n]) {
					name = name[n:]
				}
			}
		}
		root, err := st.rootPath(rl)
		if err != nil {
			st.stop(err)
			return true
		}
		known := root
		if regexAlias {
			known = literalDir(rl.rootScript, st.m.opts.Prefix)
		}
		k, err := st.lookup(known, true, root+name)
		if err != nil {
			st.stop(err)
			return true
		}
		if k != kindFile && k != kindDir || (k == kindDir) != testDir {
			continue
		}
		switch {
		case regexAlias:
			if !testDir {
				st.uri, st.addURIToAlias = name, true
			}
		case rl == nil || !rl.alias:
			st.uri = name
		default:
			st.uri = st.uri[:aliasLen(rl)] + name
		}
		return false
	}
	last := args[len(args)-1]
	v, err := last.value(st)
	if err != nil {
		st.stop(err)
		return true
	}
	if strings.HasPrefix(d.Args()[len(d.Args())-1].Value, "=") {
		code, err := strconv.Atoi(d.Args()[len(d.Args())-1].Value[1:])
		switch {
		case err != nil:
		case code < 300 && code != 201 && code != 204:
			// ngx_http_finalize_request takes any other code below
			// the special responses as "done": the connection closes
			// without a response.
			st.answer(0, Handler{Kind: HandlerClose, Directive: d})
			return true
		default:
			st.finalize(code, Handler{Kind: HandlerError, Directive: d})
			return true
		}
	}
	if strings.HasPrefix(v, "@") {
		st.namedLocation(v, d, "named location")
		return true
	}
	uri, a, _ := strings.Cut(v, "?")
	st.internalRedirect(uri, a, d, "internal redirect")
	return true
}

// isRegexAlias says rl is an alias written in a regex location:
// clcf->alias is NGX_MAX_SIZE_T_VALUE there (ngx_http_core_root), and
// in the locations nested in it, which inherit it: the alias is the
// whole path.
func isRegexAlias(rl *level) bool {
	if rl == nil || !rl.alias || rl.block == nil || rl.block.Name().Value != "location" {
		return false
	}
	spec, err := parser.LocationSpec(rl.block)
	return err == nil && spec.IsRegex
}

// aliasRewritten is ngx_http_map_uri_to_path's refusal of an alias
// once rewrite ... break changed the URI.
func aliasRewritten(rl *level) error {
	return &internalError{fmt.Sprintf("%s: \"alias\" cannot be used where the URI was rewritten (rewrite ... break): nginx answers 500", pos(rl.root))}
}

// aliasLen is clcf->alias: the length of the name of the location that
// wrote the alias.
func aliasLen(rl *level) int {
	if rl.block == nil || rl.block.Name().Value != "location" {
		return 0
	}
	return len((&parser.Location{Directive: rl.block}).Spec().Path)
}

// content is the content phase: the location's handler, else index,
// autoindex and the static handler.
func (st *state) content() {
	if h := st.handler; h != nil {
		st.passTo(h)
		return
	}
	if st.uri == "" {
		st.finalize(404, Handler{Kind: HandlerError})
		return
	}
	get := st.method == "GET" || st.method == "HEAD" || st.method == "POST"
	if !get {
		// Index and autoindex decline, the static handler refuses.
		st.finalize(405, Handler{Kind: HandlerError})
		return
	}
	if strings.HasSuffix(st.uri, "/") {
		if st.cur.get(func(l *level) setting { return l.randomIndex }, false) {
			st.stop(&unsure{"random_index picks a file at random"})
			return
		}
		if st.index() {
			return
		}
		if st.method != "POST" && st.cur.get(func(l *level) setting { return l.autoindex }, false) {
			p, root, err := st.mapURI(st.uri)
			if err != nil {
				st.stop(err)
				return
			}
			k, err := st.lookup(root, true, p)
			if err != nil {
				st.stop(err)
				return
			}
			if k == kindDir {
				st.answer(200, Handler{Kind: HandlerAutoindex, Target: p})
				return
			}
			st.finalize(404, Handler{Kind: HandlerError})
			return
		}
		st.finalize(403, Handler{Kind: HandlerError})
		return
	}
	p, root, err := st.mapURI(st.uri)
	if err != nil {
		st.stop(err)
		return
	}
	k, err := st.lookup(root, true, p)
	if err != nil {
		st.stop(err)
		return
	}
	switch k {
	case kindDir:
		target := escapeURI(st.uri, escapeURIPath) + "/"
		if st.args != "" {
			target += "?" + st.args
		}
		st.finalize(301, Handler{Kind: HandlerRedirect, Target: target})
	case kindFile:
		if st.method == "POST" {
			st.finalize(405, Handler{Kind: HandlerError})
			return
		}
		st.answer(200, Handler{Kind: HandlerStatic, Target: p})
	default:
		st.finalize(404, Handler{Kind: HandlerError})
	}
}

// index is ngx_http_index_handler; it returns true when it answered or
// redirected the request.
func (st *state) index() bool {
	il := st.cur.effIndex()
	scripts := []*Script{compileScript("index.html", false)}
	var d *parser.Directive
	if il != nil {
		scripts, d = il.indexScripts, il.index
	}
	dirTested := false
	for _, s := range scripts {
		name, err := s.value(st)
		if err != nil {
			st.stop(err)
			return true
		}
		if strings.HasPrefix(name, "/") {
			st.internalRedirect(name, st.args, d, "index")
			return true
		}
		p, root, err := st.mapURI(st.uri)
		if err != nil {
			st.stop(err)
			return true
		}
		k, err := st.lookup(root, true, p+name)
		if err != nil {
			st.stop(err)
			return true
		}
		switch k {
		case kindFile, kindDir:
			st.internalRedirect(st.uri+name, st.args, d, "index")
			return true
		case kindNotDir:
			st.finalize(404, Handler{Kind: HandlerError})
			return true
		}
		if !dirTested {
			dk, err := st.lookup(root, true, strings.TrimSuffix(p, "/"))
			if err != nil {
				st.stop(err)
				return true
			}
			if dk != kindDir {
				st.finalize(404, Handler{Kind: HandlerError})
				return true
			}
			dirTested = true
		}
	}
	return false
}

// passTo answers with level h's content handler.
func (st *state) passTo(h *level) {
	d := h.handler
	out := Handler{Kind: h.handlerKind, Directive: d}
	if h.handlerTarget != nil && h.handlerKind != HandlerModule {
		v, err := h.handlerTarget.value(st)
		if err != nil {
			st.note(err.Error())
			v = d.Args()[0].Value
		}
		out.Target = v
		if u, ok := symbols.ParsePass(d, false); ok && u.NoPort {
			out.Upstream = st.m.upstreams[u.Host]
		} else if !ok {
			// The value the variables gave, read as the handler's eval
			// reads it: a host without a port may name an upstream.
			if u, ok := ngxparse.ParsePass(d.Name().Value, false, v); ok && !u.Vars && u.Host != "" && !u.Unix && u.NoPort {
				out.Upstream = st.m.upstreams[strings.ToLower(u.Host)]
			}
		}
	}
	st.answer(0, out)
}

// fileKind is what a path names on the nginx host, as far as the model
// can tell.
type fileKind int

const (
	kindMissing fileKind = iota
	kindFile
	kindDir
	kindNotDir // a file on the way (ENOTDIR)
)

// rootPath is the root or alias of level rl (nil: nginx's default root
// "html") as nginx maps it: relative to the prefix, a root without its
// final slash.
func (st *state) rootPath(rl *level) (string, error) {
	if rl == nil {
		return st.m.opts.Prefix + "html", nil
	}
	v, err := rl.rootScript.value(st)
	if err != nil {
		return "", err
	}
	if !rl.alias {
		v = strings.TrimSuffix(v, "/")
	}
	if !strings.HasPrefix(v, "/") {
		v = st.m.opts.Prefix + v
	}
	return v, nil
}

// literalDir is the directory a root or alias script names before its
// first variable ("/srv/$host/www" is below "/srv/").
func literalDir(s *Script, prefix string) string {
	lit := s.Source
	for i, p := range s.parts {
		if p.name != "" || p.capture > 0 {
			lit = ""
			for _, q := range s.parts[:i] {
				lit += q.lit
			}
			break
		}
	}
	if !strings.HasPrefix(lit, "/") {
		lit = prefix + lit
	}
	if i := strings.LastIndexByte(lit, '/'); i >= 0 {
		return lit[:i+1]
	}
	return "/"
}

// rootOf is $document_root of lv.
func (st *state) rootOf(lv *level) (string, *level, error) {
	rl := lv.effRoot()
	p, err := st.rootPath(rl)
	return p, rl, err
}

// mapURI is ngx_http_map_uri_to_path: the file a URI names under the
// configuration's root or alias, and that root.
func (st *state) mapURI(uri string) (file, root string, err error) {
	rl := st.cur.effRoot()
	root, err = st.rootPath(rl)
	if err != nil {
		return "", "", err
	}
	if rl == nil || !rl.alias {
		return root + uri, root, nil
	}
	if !st.validLocation {
		return "", "", aliasRewritten(rl)
	}
	if isRegexAlias(rl) {
		// An alias in a regex location is the whole path (and the URI
		// after it once try_files found a file); the directory it
		// names is the part before its variables.
		if st.addURIToAlias {
			return root + uri, literalDir(rl.rootScript, st.m.opts.Prefix), nil
		}
		return root, literalDir(rl.rootScript, st.m.opts.Prefix), nil
	}
	n := aliasLen(rl)
	if n > len(uri) {
		n = len(uri)
	}
	return root + uri[n:], root, nil
}

// rootFor is the root of the current configuration, used for a file
// test of if (the path there is absolute, written by the user).
func (st *state) rootFor(string) (string, bool) {
	root, _, err := st.rootOf(st.cur)
	return root, err == nil
}

// lookup says what p names on the nginx host. Files are looked up on
// this machine (under Options.Roots' mapping) only below a root that
// exists here (a directory, or the file an alias names: "alias
// /srv/f.txt" serves it for the location's own path, and a path below
// it is not a directory); below any other, p is taken as missing and the
// answer says so.
func (st *state) lookup(root string, rootKnown bool, p string) (fileKind, error) {
	o := &st.m.opts
	if o.NoFiles {
		st.note(fmt.Sprintf("%s: taken as missing (files are not looked up)", p))
		return kindMissing, nil
	}
	local := st.m.localPath(p)
	if rootKnown && root != "" {
		lr := st.m.localPath(root)
		if _, err := o.Files.Stat(lr); err != nil {
			if pathWithin(p, root) {
				st.note(fmt.Sprintf("%s is not a directory on this machine: %s taken as missing", root, p))
				return kindMissing, nil
			}
		}
	}
	fi, err := o.Files.Stat(local)
	switch {
	case err == nil && fi.IsDir():
		return kindDir, nil
	case err == nil:
		return kindFile, nil
	case errors.Is(err, syscall.ENOTDIR):
		return kindNotDir, nil
	case errors.Is(err, fs.ErrNotExist):
		return kindMissing, nil
	}
	return kindMissing, nil
}

// localPath maps a path of the nginx host to this machine by
// Options.Roots (the longest directory that holds it).
func (m *Model) localPath(p string) string {
	best := ""
	for from := range m.opts.Roots {
		if pathWithin(p, from) && len(from) > len(best) {
			best = from
		}
	}
	if best == "" {
		return p
	}
	to := m.opts.Roots[best]
	rest := strings.TrimPrefix(p[len(best):], "/")
	if rest == "" {
		return to
	}
	return path.Join(to, rest) + map[bool]string{true: "/", false: ""}[strings.HasSuffix(p, "/")]
}

// pathWithin says p is dir or below it.
func pathWithin(p, dir string) bool {
	dir = strings.TrimSuffix(dir, "/")
	return p == dir || strings.HasPrefix(p, dir+"/")
}

func pos(d *parser.Directive) string {
	if d == nil || d.File == nil {
		return "?"
	}
	return fmt.Sprintf("%s:%d", d.File.Path, d.Line())
}

// lookup returns the server of a Host (already normalized) and the
// server_name regex that took it, if one did.
func (a *Addr) lookup(h string) (int, *rx) {
	if len(a.Servers) == 1 {
		// ngx_http_optimize_servers builds no tables for one server.
		return a.Default, nil
	}
	if n, r, ok := a.names.lookup(h); ok {
		return n, r
	}
	return a.Default, nil
}
