package rules

import (
	"fmt"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/referer"
	"github.com/nginx-lint/nginx-lint/analyzer/valuecheck"
	"github.com/nginx-lint/nginx-lint/internal/ngxparse"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// SettingConflict reports settings nginx refuses together: the checks its
// modules make once a block's values are merged with the enclosing
// blocks' (the *_merge_loc_conf functions and postconfiguration), and
// directives that must come in a given order.
var SettingConflict = &analyzer.Rule{
	Code: "NL2080", Name: "setting-conflict", Title: "settings nginx refuses together", Severity: parser.Error,
	Run: runSettingConflict,
	Doc: analyzer.Doc{
		Text: "Some values are valid alone and refused in combination, which nginx finds only once it " +
			"merges every server and location with the blocks around them:\n\n" +
			"- the upstream buffers of proxy, fastcgi, uwsgi and scgi: `*_buffers` must be at least 2; " +
			"`*_busy_buffers_size` must be at least the larger of `*_buffer_size` and one buffer, and " +
			"less than all the buffers minus one; `*_temp_file_write_size` and a non-zero " +
			"`*_max_temp_file_size` must be at least the larger of the two sizes (the defaults are 8 " +
			"buffers of a memory page, a page of `*_buffer_size`, twice that busy and temp write size, " +
			"1g of temp file);\n" +
			"- `charset` and `source_charset` that differ need a `charset_map` between them;\n" +
			"- `proxy_redirect default` must follow the `proxy_pass` of its location, whose URL has no " +
			"variables;\n" +
			"- an upstream (http or stream) whose `server` has `resolve` and a host name needs a `zone` " +
			"(`resolving names at run time requires upstream ... to be in shared memory`; nginx 1.27.3 " +
			"and later; the resolver it needs next is stale-dns-cache's);\n" +
			"- a stream or mail `server` needs a `listen` (`no \"listen\" is defined for server`), a mail " +
			"server an `auth_http` of its own or of the `mail` block and a `protocol` (or a listen on a port " +
			"of imap, pop3 or smtp: `unknown mail protocol for server`), and before nginx 1.27.1 a stream " +
			"server a handler: `proxy_pass`, `return` or `pass` (`no handler for server`).\n\n" +
			"nginx names the end of the `http` block for the merge checks and no line for the charset " +
			"one; nginx-lint reports at the directive to change, once per directive.",
		Bad:  "events {}\nhttp {\n    proxy_buffers 4 4k;\n    server {\n        listen 80;\n        location / {\n            proxy_busy_buffers_size 64k;\n            proxy_pass http://127.0.0.1:8080;\n        }\n    }\n}\n",
		Good: "events {}\nhttp {\n    proxy_buffers 4 4k;\n    server {\n        listen 80;\n        location / {\n            proxy_busy_buffers_size 8k;\n            proxy_pass http://127.0.0.1:8080;\n        }\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_proxy_module.html#proxy_busy_buffers_size",
	},
}

// upstreamBufferModules are the modules whose merge checks the buffers.
var upstreamBufferModules = []string{"proxy", "fastcgi", "uwsgi", "scgi"}

// mergedNames are the directives the merge checks read.
var mergedNames = func() []string {
	out := []string{"charset", "source_charset"}
	for _, m := range upstreamBufferModules {
		for _, d := range []string{"_buffers", "_buffer_size", "_busy_buffers_size", "_temp_file_write_size", "_max_temp_file_size"} {
			out = append(out, m+d)
		}
	}
	return out
}()

func runSettingConflict(p *analyzer.Pass) {
	reportReferers(p, referer.Empty)
	checkUpstreamResolve(p)
	checkServerRequired(p)
	ix := p.Index()
	// The directives of mergedNames each block sets, by the block's
	// entry: a configuration with few of them costs little.
	set := map[int32][]*parser.Directive{}
	for _, i := range ix.Named(mergedNames...) {
		e := &ix.Entries[i]
		if e.Context()&directives.StreamContexts == 0 {
			set[e.Parent] = append(set[e.Parent], e.Directive)
		}
	}
	reported := map[*parser.Directive]bool{}
	// nginx finds these when it merges, after reading the http block,
	// and names the line of its "}": the finding stays at the directive
	// to change and points there too.
	merged := mergeReportedAt(ix)
	report := func(d *parser.Directive, format string, args ...any) *parser.Diagnostic {
		if reported[d] {
			return nil
		}
		reported[d] = true
		diag := p.ReportDirective(d, format, args...)
		if merged != nil {
			diag.Related = append(diag.Related, *merged)
		}
		return diag
	}
	var charsets []charsetUse
	if len(set) > 0 {
		for _, i := range ix.Named("server", "location", "if", "limit_except") {
			e := &ix.Entries[i]
			if e.Directive.Block == nil || e.Context()&directives.StreamContexts != 0 {
				continue
			}
			// nginx merges every server and location, but one that
			// sets none of these has its parent's values, checked
			// there; a server is checked for what it takes from http.
			if _, own := set[i]; !own && !(e.Directive.Is("server") && len(set[e.Parent]) > 0) {
				continue
			}
			find := func(name string) *parser.Directive {
				for b := i; b >= 0; b = ix.Entries[b].Parent {
					ds := set[b]
					for k := len(ds) - 1; k >= 0; k-- {
						if ds[k].Name().Value == name {
							return ds[k]
						}
					}
					if ix.Entries[b].Directive.Is("http") {
						break
					}
				}
				return nil
			}
			for _, m := range upstreamBufferModules {
				checkUpstreamBuffers(m, find, report)
			}
			if cs, src := find("charset"), find("source_charset"); cs != nil && src != nil {
				charsets = append(charsets, charsetUse{cs, src})
			}
		}
	}
	checkCharsetMaps(p, charsets, report)
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		checkRedirectDefault(p, d, stack)
	}, "proxy_redirect")
}

// mergeReportedAt is where nginx reports what it finds when it merges
// the http block's settings: the block's "}" (nil when the configuration
// has no single, closed http block).
func mergeReportedAt(ix *analyzer.Index) *parser.Related {
	hs := ix.Named("http")
	if len(hs) != 1 {
		return nil
	}
	h := ix.Entries[hs[0]].Directive
	if h.RBrace() < 0 {
		return nil
	}
	return &parser.Related{File: h.File, Range: parser.Range{Start: h.RBrace(), End: h.RBrace() + 1},
		Message: "nginx reports it here, at the end of the http block, where it merges the settings"}
}

// checkUpstreamBuffers makes ngx_http_<m>_merge_loc_conf's checks of the
// buffers in force in one block (find gives each directive in force).
func checkUpstreamBuffers(m string, find func(string) *parser.Directive, report func(*parser.Directive, string, ...any) *parser.Diagnostic) {
	bufsDir, sizeDir := find(m+"_buffers"), find(m+"_buffer_size")
	num, bufSize := int64(8), int64(pageSize)
	if bufsDir != nil {
		if len(bufsDir.Args()) != 2 {
			return
		}
		n, ok1 := valuecheck.Atoi(bufsDir.Args()[0].Value)
		s, ok2 := valuecheck.ParseSize(bufsDir.Args()[1].Value)
		if !ok1 || !ok2 {
			return // invalid-value's
		}
		num, bufSize = n, s
	}
	bufferSize := int64(pageSize)
	if sizeDir != nil {
		s, ok := sizeOf(sizeDir)
		if !ok {
			return
		}
		bufferSize = s
	}
	if num < 2 {
		report(bufsDir, "there must be at least 2 %q", m+"_buffers")
		return
	}
	size := max(bufferSize, bufSize)
	// The directive to change: the one the check is about when set,
	// else what made the other side too small or too large.
	blame := func(primary *parser.Directive) *parser.Directive {
		for _, d := range []*parser.Directive{primary, bufsDir, sizeDir} {
			if d != nil {
				return d
			}
		}
		return nil
	}
	busyDir := find(m + "_busy_buffers_size")
	busy := 2 * size
	if busyDir != nil {
		s, ok := sizeOf(busyDir)
		if !ok {
			return
		}
		busy = s
	}
	switch {
	case busy < size:
		if d := blame(busyDir); d != nil {
			report(d, "%q must be equal to or greater than the maximum of the value of %q and one of the %q",
				m+"_busy_buffers_size", m+"_buffer_size", m+"_buffers")
		}
		return
	case busy > (num-1)*bufSize:
		if d := blame(busyDir); d != nil {
			report(d, "%q must be less than the size of all %q minus one buffer", m+"_busy_buffers_size", m+"_buffers")
		}
		return
	}
	writeDir := find(m + "_temp_file_write_size")
	if writeDir != nil {
		s, ok := sizeOf(writeDir)
		if !ok {
			return
		}
		if s < size {
			report(writeDir, "%q must be equal to or greater than the maximum of the value of %q and one of the %q",
				m+"_temp_file_write_size", m+"_buffer_size", m+"_buffers")
			return
		}
	}
	maxDir := find(m + "_max_temp_file_size")
	if maxDir != nil {
		s, ok := offsetOf(maxDir)
		if !ok {
			return
		}
		if s != 0 && s < size {
			report(maxDir, "%q must be equal to zero to disable temporary files usage or must be equal to or greater than the maximum of the value of %q and one of the %q",
				m+"_max_temp_file_size", m+"_buffer_size", m+"_buffers")
		}
	} else if size > 1<<30 {
		if d := blame(nil); d != nil {
			report(d, "%q must be equal to zero to disable temporary files usage or must be equal to or greater than the maximum of the value of %q and one of the %q",
				m+"_max_temp_file_size", m+"_buffer_size", m+"_buffers")
		}
	}
}

func sizeOf(d *parser.Directive) (int64, bool) {
	if len(d.Args()) != 1 {
		return 0, false
	}
	return valuecheck.ParseSize(d.Args()[0].Value)
}

func offsetOf(d *parser.Directive) (int64, bool) {
	if len(d.Args()) != 1 {
		return 0, false
	}
	return valuecheck.ParseOffset(d.Args()[0].Value)
}

// charsetUse is a charset and a source_charset in force in one block.
type charsetUse struct{ charset, source *parser.Directive }

// checkCharsetMaps makes ngx_http_charset_postconfiguration's check: a
// block that recodes from source_charset to a different charset needs a
// charset_map between the two, in either direction, anywhere in http.
func checkCharsetMaps(p *analyzer.Pass, uses []charsetUse, report func(*parser.Directive, string, ...any) *parser.Diagnostic) {
	if len(uses) == 0 {
		return
	}
	maps := map[[2]string]bool{}
	// nginx names a charset as first written (ngx_http_add_charset
	// registers each name once, in reading order, ignoring case).
	spelling := map[string]string{}
	ix := p.Index()
	for _, i := range ix.Named("charset_map", "charset", "source_charset") {
		d := ix.Entries[i].Directive
		for _, a := range d.Args() {
			if l := strings.ToLower(a.Value); spelling[l] == "" && !(d.Is("charset") && l == "off") {
				spelling[l] = a.Value
			}
		}
		if d.Is("charset_map") && len(d.Args()) == 2 {
			a, b := strings.ToLower(d.Args()[0].Value), strings.ToLower(d.Args()[1].Value)
			maps[[2]string{a, b}], maps[[2]string{b, a}] = true, true
		}
	}
	for _, u := range uses {
		if len(u.charset.Args()) != 1 || len(u.source.Args()) != 1 {
			continue
		}
		dst, src := u.charset.Args()[0].Value, u.source.Args()[0].Value
		// Only charset has "off"; a source_charset "off" is a charset
		// of that name.
		ld, ls := strings.ToLower(dst), strings.ToLower(src)
		if ld == "off" || ld == ls || strings.Contains(dst, "$") || strings.Contains(src, "$") || maps[[2]string{ls, ld}] {
			continue
		}
		if diag := report(u.charset, "no %q between the charsets %q and %q", "charset_map", spelling[ls], spelling[ld]); diag != nil {
			diag.Detail = fmt.Sprintf("nginx recodes from source_charset to charset with a charset_map; add \"charset_map %s %s { ... }\" (nginx ships koi-utf, koi-win and win-utf) or make them the same", src, dst)
		}
	}
}

// checkRedirectDefault makes ngx_http_proxy_redirect's checks of
// "proxy_redirect default": it reads the proxy_pass of its own block,
// given before it and without variables.
func checkRedirectDefault(p *analyzer.Pass, d *parser.Directive, stack []*parser.Directive) {
	if len(d.Args()) != 1 || d.Args()[0].Value != "default" || len(stack) == 0 {
		return
	}
	var pass *parser.Directive
	for _, x := range p.Body(stack[len(stack)-1]) {
		if x == d {
			break
		}
		if x.Is("proxy_pass") {
			pass = x
		}
	}
	switch {
	case pass == nil:
		p.ReportDirective(d, "%q should be placed after the %q directive", "proxy_redirect default", "proxy_pass").Detail =
			"\"default\" derives the rewrite from the location's proxy_pass, which nginx has not read yet; move proxy_redirect below proxy_pass (in the same location)"
	case len(pass.Args()) == 1 && strings.Contains(pass.Args()[0].Value, "$"):
		p.ReportDirective(d, "%q cannot be used with %q directive with variables", "proxy_redirect default", "proxy_pass").Detail =
			"write the rewrite out: proxy_redirect <upstream URL> <location>"
	}
}

// streamHandlerUntil is the release that let a stream server go without a
// content handler (before, ngx_stream_core_merge_srv_conf refused it).
const streamHandlerUntil = "1.27.1"

// streamHandlers are nginx's stream directives that give a server its
// content handler (they set cscf->handler).
var streamHandlers = map[string]bool{"proxy_pass": true, "return": true, "pass": true}

// mailPorts are the ports by which a mail listen chooses its server's
// protocol when no "protocol" does (the port lists of the imap, pop3 and
// smtp modules' ngx_mail_protocol_t).
var mailPorts = map[int]bool{143: true, 993: true, 110: true, 995: true, 25: true, 465: true, 587: true}

// checkServerRequired makes the checks nginx makes of a stream or mail
// server once its block is read: ngx_stream_core_server and
// ngx_mail_core_server want a listen in it; ngx_mail_auth_http_merge_conf
// wants an auth_http in it or in the mail block, and
// ngx_mail_core_merge_srv_conf a protocol (its own, or the one a listen's
// port names); and before 1.27.1,
// ngx_stream_core_merge_srv_conf wants a content handler (proxy_pass,
// return, pass). nginx names the server's file and line in the message;
// the finding is at the server.
func checkServerRequired(p *analyzer.Pass) {
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, stack []*parser.Directive) {
		stream, mail := ctx&directives.Stream != 0, ctx&directives.Mail != 0
		if !stream && !mail || d.Block == nil || len(d.Args()) != 0 || missingInclude(p.Config, d.Block.Directives) {
			return
		}
		body := p.Body(d)
		listen, handler, auth, unknown := false, false, false, false
		protocol := false // a protocol, or a listen port that names one
		for _, c := range body {
			name := c.Name().Value
			switch {
			case name == "listen":
				listen = true
				l, err := grammar.ParseListen(c.ArgValues())
				protocol = protocol || err != nil || mailPorts[l.Port]
			case name == "protocol":
				protocol = true
			case name == "auth_http":
				auth = true
			case streamHandlers[name]:
				handler = true
			default:
				rows := directives.Lookup(name)
				if len(rows) == 0 {
					unknown = true
				}
				for _, r := range rows {
					// A module's directive may set the handler
					// (content_by_lua_block) or the peer.
					unknown = unknown || r.ThirdParty
				}
			}
		}
		if !listen {
			diag := p.ReportDirective(d, "no \"listen\" is defined for server")
			diag.Detail = "a " + map[bool]string{true: "stream", false: "mail"}[stream] +
				" server has no default address: add a listen (listen 127.0.0.1:12345;)"
			return
		}
		if unknown {
			return
		}
		if stream && !handler && p.Target.Lacks(streamHandlerUntil) {
			diag := p.ReportDirective(d, "no handler for server")
			diag.Detail = "nginx " + p.Target.NginxVersion() + " wants every stream server to pass its connections on " +
				"(proxy_pass, return or pass); nginx 1.27.1 and later accept a server without one"
			return
		}
		if mail && !protocol {
			diag := p.ReportDirective(d, "unknown mail protocol for server")
			diag.Detail = "no protocol directive, and no listen on a port of imap (143, 993), pop3 (110, 995) or " +
				"smtp (25, 465, 587) that would choose one: add protocol imap, pop3 or smtp"
			return
		}
		if mail && !auth && len(stack) > 0 {
			outer := stack[len(stack)-1]
			if !outer.Is("mail") || outer.Block == nil || missingInclude(p.Config, outer.Block.Directives) {
				return
			}
			for _, c := range p.Body(outer) {
				if c.Is("auth_http") {
					return
				}
			}
			diag := p.ReportDirective(d, "no \"auth_http\" is defined for server")
			diag.Detail = "nginx's mail proxy asks an HTTP server where to send each login: add auth_http to the server or the mail block"
		}
	}, "server")
}

// resolveSince is the release that gave an open-source upstream's server
// the resolve parameter (before, invalid-parameter refuses it).
const resolveSince = "1.27.3"

// checkUpstreamResolve makes the first check of
// ngx_http_upstream_init_round_robin (and the stream one) on an upstream
// whose server names are resolved at run time: a server with "resolve" and
// a host name needs the upstream's "zone". nginx reports it after the whole
// configuration is read, naming the upstream's file and line in the
// message; the finding stays at the upstream. The check after it, a
// resolver for such a server, is stale-dns-cache's.
func checkUpstreamResolve(p *analyzer.Pass) {
	if p.Target.Lacks(resolveSince) {
		return
	}
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, _ []*parser.Directive) {
		if d.Block == nil || len(d.Args()) != 1 || ctx&(directives.HTTP|directives.Stream) == 0 {
			return
		}
		body := p.Body(d)
		if missingInclude(p.Config, d.Block.Directives) {
			return // the missing file may hold the zone
		}
		var named *parser.Directive // the first server resolved at run time
		zone := false
		for _, c := range body {
			switch c.Name().Value {
			case "zone":
				zone = true
			case "server":
				if named == nil && resolvedAtRunTime(c) {
					named = c
				}
			}
		}
		if named == nil {
			return
		}
		if !zone {
			diag := p.ReportDirective(d, "resolving names at run time requires upstream \"%s\" to be in shared memory", d.Args()[0].Value)
			diag.Detail = "a server with \"resolve\" keeps its addresses in the upstream's shared memory zone: add \"zone " +
				d.Args()[0].Value + " 64k;\" to the upstream, or drop resolve"
			diag.Related = []parser.Related{{File: named.File, Range: named.Name().Range, Message: "resolved at run time"}}
		}
	}, "upstream")
}

// resolvedAtRunTime reports whether an upstream's server has "resolve"
// and a name to resolve: ngx_http_upstream_server keeps the host only
// when the address is no IP literal or unix socket.
func resolvedAtRunTime(d *parser.Directive) bool {
	if len(d.Args()) < 2 {
		return false
	}
	resolve := false
	for _, a := range d.Args()[1:] {
		resolve = resolve || a.Value == "resolve"
	}
	if !resolve {
		return false
	}
	u := ngxparse.ParseURL(d.Args()[0].Value, false, 80)
	return u.Err == "" && !u.Unix && !u.Addr && u.Host != ""
}
