package rules

import (
	"slices"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/referer"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/analyzer/script"
	"github.com/nginx-lint/nginx-lint/internal/ngxparse"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// InvalidParameter reports parameters of listen, of an upstream's server
// and of add_header that nginx does not accept, or accepts only in another
// version or in NGINX Plus.
var InvalidParameter = &analyzer.Rule{
	Code: "NL2015", Name: "invalid-parameter", Title: "parameter nginx does not accept", Severity: parser.Error,
	Refuses: true,
	Run:     runInvalidParameter,
	Doc: analyzer.Doc{
		Text: "nginx reads the parameters of a few directives with hand-written code and refuses to start " +
			"on one it does not know (`invalid parameter \"X\"`) or on a bad value (`invalid backlog " +
			"\"backlog=0\"`). Checked here:\n\n" +
			"- `listen` in http, stream and mail: the address (a host that is a mistyped port, " +
			"`listen 8o`, is nginx's `host not found`), every parameter and its value " +
			"(`backlog=`, `rcvbuf=`, `sndbuf=`, `setfib=`, `fastopen=`, `ipv6only=on|off`, " +
			"`so_keepalive=on|off|[idle]:[intvl]:[cnt]`, ...), the parameters each module knows, and " +
			"those that cannot go with `quic` or `udp`;\n" +
			"- `server` in an upstream: `weight=` (1 or more), `max_conns=`, `max_fails=`, " +
			"`fail_timeout=` (a time), `backup`, `down`, `resolve` and `service=`; `backup` after " +
			"`hash`, `ip_hash` or `random` (`balancing method does not support parameter`); " +
			"`slow_start=` exists only in NGINX Plus, `route=` (at most 32 bytes) and `drain` in an http " +
			"upstream since 1.29.6 (ngx_http_upstream_sticky_module) and in NGINX Plus;\n" +
			"- `resolver`: the name servers' addresses, `valid=` (a time), `ipv4=` (1.23.1) and " +
			"`ipv6=` (on or off, not both off; `invalid parameter: ipv6=no`); a parameter the target " +
			"predates (`ipv4=` before 1.23.1) is a host name to nginx, which no lookup finds;\n" +
			"- `image_filter`: `off`, `test` or `size`; `rotate` 90, 180 or 270; `resize` or `crop` with a " +
			"width and a height over 0 or `-`;\n" +
			"- the fourth argument of `add_header` and `add_trailer`, which can only be `always`, and " +
			"the flag of `rewrite`: `last`, `break`, `redirect` or `permanent` (an empty replacement is " +
			"refused too);\n" +
			"- `server_name`: `*` only as `*.example.com`, `.` and `~` not alone (`server name \"**\" is " +
			"invalid`, `empty regex in server name \"~\"`), and, on an address several servers share, " +
			"one `*` at most and only at either end, no `..` (`invalid server name or wildcard " +
			"\"a.*.b\" on 0.0.0.0:80`).\n\n" +
			"Parameters follow the target nginx version (`--nginx-build`, `--nginx`): `quic` needs " +
			"1.25.0, `resolve` and `service=` in an upstream 1.27.3, `default_server` and `deferred` " +
			"on a stream listen 1.25.5, `multipath` 1.29.7. Without a target the newest open-source " +
			"nginx is assumed. Before 1.25.5 the stream and mail modules word the error `the invalid " +
			"\"X\" parameter`.",
		Bad: "events {}\nhttp {\n    upstream app {\n        server 127.0.0.1:8080 weight=0;\n    }\n" +
			"    server {\n        listen 127.0.0.1:8080 backlog=fast;\n    }\n}\n",
		Good: "events {}\nhttp {\n    upstream app {\n        server 127.0.0.1:8080 weight=2;\n    }\n" +
			"    server {\n        listen 127.0.0.1:8080 backlog=1024;\n    }\n}\n",
		URL: "https://nginx.org/en/docs/http/ngx_http_upstream_module.html#server",
	},
}

func runInvalidParameter(p *analyzer.Pass) {
	reportReferers(p, referer.Invalid)
	target := p.Target
	m := p.Model()
	for _, s := range m.Servers {
		ls := s.Listens()
		for i := range ls {
			checkListen(p, s.Protocol, &ls[i], target)
		}
	}
	checkUpstreamServers(p, target)
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, _ []*parser.Directive) {
		if directives.DataBlock(ctx) || len(d.Args()) != 3 || d.Args()[2].Value == "always" {
			return
		}
		p.Reportf(d.File, d.Args()[2].Range, "invalid parameter \"%s\"", d.Args()[2].Value).Detail =
			"the only parameter " + d.Name().Value + " takes after the value is \"always\""
	}, "add_header", "add_trailer")
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, _ []*parser.Directive) {
		if !directives.DataBlock(ctx) {
			checkResolver(p, d, ctx, target)
		}
	}, "resolver")
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, _ []*parser.Directive) {
		if directives.DataBlock(ctx) || len(d.Args()) < 2 {
			return
		}
		if d.Args()[1].Value == "" {
			p.Reportf(d.File, d.Args()[1].Range, "empty replacement")
			return
		}
		if len(d.Args()) != 3 {
			return
		}
		switch d.Args()[2].Value {
		case "last", "break", "redirect", "permanent":
			return
		}
		p.Reportf(d.File, d.Args()[2].Range, "invalid parameter \"%s\"", d.Args()[2].Value).Detail =
			"the flag of rewrite is last, break, redirect or permanent"
	}, "rewrite")
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, _ []*parser.Directive) {
		if !directives.DataBlock(ctx) {
			checkImageFilter(p, d)
		}
	}, "image_filter")
	checkServerNames(p)
}

// checkServerNames follows ngx_http_core_server_name (and its stream
// twin), which refuses `server name "**" is invalid` and `empty regex in
// server name "~"` on any server, and ngx_http_server_names, which
// refuses `invalid server name or wildcard "a.*.b" on 127.0.0.1:80` when
// it builds the name hash of an address several servers share (a name on
// a server alone on its addresses is never hashed, and nginx takes it).
// The hash of an address whose one server has a regex name with
// captures is built too; it is not replayed here (no finding rather than
// a wrong one).
func checkServerNames(p *analyzer.Pass) {
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, _ []*parser.Directive) {
		if ctx&(directives.Server|directives.StreamServer) == 0 {
			return
		}
		for _, a := range d.Args() {
			if err := grammar.ParseServerName(a.Value).DirectiveError(); err != nil {
				p.Reportf(d.File, a.Range, "%s", err.Error()).Detail =
					"a server name is a host name, \"*.example.com\", \".example.com\", \"www.example.*\" or a regex after \"~\""
			}
		}
	}, "server_name")
	type place struct {
		d   *parser.Directive
		arg int
	}
	var invalid []routing.Run[routing.Claim]
	for _, proto := range []parser.Protocol{parser.HTTP, parser.Stream} {
		for _, h := range nameHashes.Get(p, proto) {
			for _, c := range h.invalid {
				invalid = append(invalid, routing.Run[routing.Claim]{Item: c, Addr: h.addr})
			}
		}
	}
	at := func(c routing.Claim) place { return place{c.Directive, c.Arg} }
	found, addrs := routing.MergeRunsPer(invalid, at, func(a, b routing.Claim) bool { return at(a) == at(b) })
	for i, c := range found {
		name := asciiLower(c.Directive.Args()[c.Arg].Value) // as nginx stores it
		p.Reportf(c.Directive.File, c.Range(), "invalid server name or wildcard \"%s\" on %s", name, addrs[i]).Detail =
			"nginx builds a hash of the names of the servers that share " + addrs[i] + ", and takes \"*\" only as \"*.example.com\" or \"www.example.*\", once, and no empty label (\"..\")"
	}
}

// checkImageFilter follows ngx_http_image_filter: off, test or size alone;
// rotate and an angle of 90, 180 or 270; resize or crop and a width and a
// height, each a positive number or "-" (variables are read per request).
// nginx names the first argument it stops at.
func checkImageFilter(p *analyzer.Pass, d *parser.Directive) {
	args := d.Args()
	bad := func(a parser.Word, detail string) {
		p.Reportf(d.File, a.Range, "invalid parameter \"%s\"", a.Value).Detail = detail
	}
	const forms = "image_filter takes off, test or size; rotate 90|180|270; or resize|crop WIDTH HEIGHT"
	// dimension is ngx_http_image_filter_value: "-", or ngx_atoi over 0.
	dimension := func(a parser.Word) bool {
		if script.HasVars(a.Value) || a.Value == "-" {
			return true
		}
		n, ok := grammar.Atoi(a.Value)
		return ok && n > 0
	}
	switch len(args) {
	case 1:
		switch args[0].Value {
		case "off", "test", "size":
		default:
			bad(args[0], forms)
		}
	case 2:
		if args[0].Value != "rotate" {
			bad(args[0], forms)
			return
		}
		switch v := args[1].Value; {
		case script.HasVars(v), v == "90", v == "180", v == "270":
		default:
			if n, ok := grammar.Atoi(v); !ok || n != 90 && n != 180 && n != 270 {
				bad(args[1], "rotate takes 90, 180 or 270 degrees")
			}
		}
	case 3:
		if args[0].Value != "resize" && args[0].Value != "crop" {
			bad(args[0], forms)
			return
		}
		for _, a := range args[1:] {
			if !dimension(a) {
				bad(a, "a width or height is a number of pixels over 0, or \"-\" to keep the image's")
				return
			}
		}
	}
}

// listenContext maps a server's protocol to the listen grammar's context.
func listenContext(proto parser.Protocol) grammar.Context {
	switch proto {
	case parser.Stream:
		return grammar.ContextStream
	case parser.Mail:
		return grammar.ContextMail
	}
	return grammar.ContextHTTP
}

// checkListen reports what ngx_http_core_listen (or its stream and mail
// twins) of the target version refuses in l.
func checkListen(p *analyzer.Pass, proto parser.Protocol, l *parser.Listen, target *analyzer.Target) {
	d := l.Directive
	if len(d.Args()) == 0 {
		return // invalid-arguments
	}
	ctx := listenContext(proto)
	// Before 1.25.5 the stream and mail modules worded an unknown
	// parameter differently.
	oldWording := ctx != grammar.ContextHTTP && target.Lacks("1.25.5")
	invalid := func(arg int, detail string) *parser.Diagnostic {
		text := d.Args()[arg].Value
		msg := "invalid parameter \"" + text + "\""
		if oldWording {
			msg = "the invalid \"" + text + "\" parameter"
		}
		diag := p.Reportf(d.File, d.Args()[arg].Range, "%s", msg)
		diag.Detail = detail
		return diag
	}
	if err := l.Err(); err != nil {
		ge, ok := err.(*grammar.Error)
		if !ok || ge.Arg < 0 || ge.Arg >= len(d.Args()) {
			return
		}
		msg := ge.Msg
		if ge.Arg == 0 {
			msg += ` of the "listen" directive`
		} else if k := grammar.KindOf(d.Args()[ge.Arg].Value); !ctx.Accepts(k) || target.Lacks(grammar.ParamSince(ctx, k)) {
			// A bad value of a parameter this listen does not have:
			// nginx never reads the value.
			invalid(ge.Arg, "the "+proto.String()+" listen does not know it; see "+listenURL(proto))
			return
		}
		p.Reportf(d.File, d.Args()[ge.Arg].Range, "%s", msg)
		return
	}
	if l.Spec.Kind == grammar.AddrHost && portTypo(l.Spec.Host) {
		// nginx resolves the host at startup; a single label starting
		// with a digit ("8o", "80O") is a mistyped port, not a name.
		p.Reportf(d.File, d.Args()[0].Range, "host not found in \"%s\" of the \"listen\" directive", d.Args()[0].Value).Detail =
			"nginx reads \"" + l.Spec.Host + "\" as a host name (it is no port) and no lookup finds it; a port is digits only"
		return
	}
	if l.Spec.Kind == grammar.AddrHost && serverNamePattern(l.Spec.Host) {
		// A server_name pattern given to listen: nginx looks the name
		// up at startup, and no lookup answers for such a name.
		p.Reportf(d.File, d.Args()[0].Range, "host not found in \"%s\" of the \"listen\" directive", d.Args()[0].Value).Detail =
			"listen takes an address or a host name to look up, not a server name pattern; the names go in server_name"
		return
	}
	if len(l.Spec.Params) == 0 {
		return // an address alone, the common case: nothing more to check
	}
	var tooNew grammar.ParamSet
	for _, prm := range l.Spec.Params {
		since := grammar.ParamSince(ctx, prm.Kind)
		if target.Lacks(since) {
			tooNew |= 1 << prm.Kind
			p.AssumeTarget(invalid(prm.Arg, "nginx "+target.NginxVersion()+" predates it: the "+prm.Kind.String()+" parameter of a "+
				proto.String()+" listen appeared in nginx "+since))
		}
	}
	for _, e := range l.Spec.Check(ctx) {
		if strings.HasPrefix(e.Msg, "invalid parameter ") {
			invalid(e.Arg, "the "+proto.String()+" listen does not know it; see "+listenURL(proto))
			continue
		}
		if (tooNew.Has(grammar.ParamQUIC) && strings.HasSuffix(e.Msg, `"quic"`)) || e.Arg < 0 {
			continue // nginx stops at the unknown "quic" first
		}
		// nginx returns the conflict from the handler, and
		// ngx_conf_handler prefixes the directive's name.
		p.Reportf(d.File, d.Args()[e.Arg].Range, "\"listen\" directive %s", e.Msg)
	}
}

// portTypo reports whether a listen's host is a single label that
// starts with a digit and is not all digits: a port with a typo.
func portTypo(host string) bool {
	if host == "" || host[0] < '0' || host[0] > '9' || strings.IndexByte(host, '.') >= 0 {
		return false
	}
	return strings.TrimLeft(host, "0123456789") != ""
}

// serverNamePattern reports a listen host that is a server_name pattern:
// a wildcard (app.*), a leading dot (.example.com) or the catch-all "_".
func serverNamePattern(host string) bool {
	return strings.IndexByte(host, '*') >= 0 || strings.HasPrefix(host, ".") || strings.Trim(host, "_") == ""
}

func listenURL(proto parser.Protocol) string {
	switch proto {
	case parser.Stream:
		return "https://nginx.org/en/docs/stream/ngx_stream_core_module.html#listen"
	case parser.Mail:
		return "https://nginx.org/en/docs/mail/ngx_mail_core_module.html#listen"
	}
	return "https://nginx.org/en/docs/http/ngx_http_core_module.html#listen"
}

// noBackupBalancers are the balancing methods whose flags lack
// NGX_HTTP_UPSTREAM_BACKUP: a server with "backup" after them is refused.
var noBackupBalancers = map[string]bool{"hash": true, "ip_hash": true, "random": true}

// plusServerParams are upstream server parameters of NGINX Plus only.
var plusServerParams = []string{"slow_start=", "route=", "drain"}

// stickySince is the release whose ngx_http_upstream_sticky_module (built
// unless --without-http_upstream_sticky_module) gives an http upstream's
// server the route= and drain parameters of NGINX Plus.
const stickySince = "1.29.6"

// sidLen is NGX_HTTP_UPSTREAM_SID_LEN, the longest route= (an md5 in hex).
const sidLen = 32

// checkUpstreamServers replays ngx_http_upstream_server (and the stream
// one) over every server of every upstream, in reading order (included
// files expanded), remembering whether a balancing method without backup
// servers came first.
func checkUpstreamServers(p *analyzer.Pass, target *analyzer.Target) {
	for _, u := range p.Model().Upstreams {
		if u.Directive.Block == nil || len(u.Servers) == 0 {
			continue
		}
		noBackup := ""
		for _, d := range p.Body(u.Directive) {
			switch name := d.Name().Value; {
			case noBackupBalancers[name]:
				noBackup = name
			case name == "server" && len(d.Args()) > 0:
				checkServerParams(p, d, target, noBackup, u.Protocol == parser.HTTP)
			}
		}
	}
}

func checkServerParams(p *analyzer.Pass, d *parser.Directive, target *analyzer.Target, noBackup string, http bool) {
	// The build's module list does not name the sticky module (the
	// tables date the sticky directive by NGINX Plus): a release that
	// has it builds it unless configure was told otherwise.
	sticky := http && !target.Lacks(stickySince) && (target == nil || !slices.Contains(target.Configure, "--without-http_upstream_sticky_module"))
	for _, a := range d.Args()[1:] {
		v := a.Value
		bad := func(detail string) {
			p.Reportf(d.File, a.Range, "invalid parameter \"%s\"", v).Detail = detail
		}
		name, val, hasVal := strings.Cut(v, "=")
		switch {
		case hasVal && name == "weight":
			if n, ok := grammar.Atoi(val); !ok || n == 0 {
				bad("weight= takes a whole number of 1 or more")
			}
		case hasVal && (name == "max_conns" || name == "max_fails"):
			if _, ok := grammar.Atoi(val); !ok {
				bad(name + "= takes a whole number (0 for no limit)")
			}
		case hasVal && name == "fail_timeout":
			if _, ok := grammar.ParseTimeSec(val); !ok {
				bad("fail_timeout= takes a time such as 10s or 1m")
			}
		case v == "backup":
			if noBackup != "" {
				p.Reportf(d.File, a.Range, "balancing method does not support parameter \"%s\"", v).Detail =
					"\"" + noBackup + "\" comes before this server in the upstream, and it has no backup servers; " +
						"remove backup or the balancing method"
			}
		case v == "down", sticky && v == "drain":
		case sticky && hasVal && name == "route":
			// ngx_http_upstream_server keeps the route as the server's
			// session id, at most NGX_HTTP_UPSTREAM_SID_LEN bytes.
			if val == "" {
				p.Reportf(d.File, a.Range, "route is empty")
			} else if len(val) > sidLen {
				p.Reportf(d.File, a.Range, "route is longer than %d", sidLen).Detail =
					"the route is the server's session id, at most 32 bytes (an md5 in hex)"
			}
		case v == "resolve" || (hasVal && name == "service"):
			if target.Lacks("1.27.3") {
				bad("nginx " + target.NginxVersion() + " predates it: " + name + " in an open-source upstream appeared in nginx 1.27.3 " +
					"(before, only NGINX Plus had it)")
				continue
			}
			if hasVal && val == "" {
				p.Reportf(d.File, a.Range, "service is empty")
			}
		default:
			detail := "an upstream server takes weight=, max_conns=, max_fails=, fail_timeout=, backup, down, resolve and service="
			for _, plus := range plusServerParams {
				if v == plus || strings.HasPrefix(v, plus) && strings.HasSuffix(plus, "=") {
					detail = strings.TrimSuffix(plus, "=") + " exists only in NGINX Plus"
					if plus != "slow_start=" {
						detail += " and, for an http upstream, in nginx " + stickySince + " and later"
					}
				}
			}
			bad(detail)
		}
	}
}

// checkResolver follows ngx_resolver_create: name servers (port 53 by
// default) and the valid=, ipv4= (1.23.1) and ipv6= parameters.
func checkResolver(p *analyzer.Pass, d *parser.Directive, ctx directives.Context, target *analyzer.Target) {
	if len(d.Args()) == 1 && d.Args()[0].Value == "off" && ctx&(directives.Mail|directives.MailServer) != 0 {
		return // the mail module's way to turn the resolver off
	}
	ipv4, ipv6, servers := true, true, 0
	for _, a := range d.Args() {
		v := a.Value
		bad := func(detail string) {
			p.Reportf(d.File, a.Range, "invalid parameter: %s", v).Detail = detail
		}
		switch {
		case strings.HasPrefix(v, "valid="):
			if _, ok := grammar.ParseTimeSec(v[len("valid="):]); !ok {
				bad("valid= takes a time such as 30s or 5m")
				return
			}
			continue
		case strings.HasPrefix(v, "ipv4=") && !target.Lacks("1.23.1"), strings.HasPrefix(v, "ipv6="):
			on := v[5:] == "on"
			if !on && v[5:] != "off" {
				bad(v[:4] + "= takes on or off")
				return
			}
			if v[3] == '4' {
				ipv4 = on
			} else {
				ipv6 = on
			}
			continue
		}
		u := ngxparse.ParseURL(v, false, 53)
		if u.Err != "" {
			p.Reportf(d.File, a.Range, "%s in resolver \"%s\"", u.Err, v).Detail = "a name server is an address with an optional port: 127.0.0.53, [::1]:5353"
			return
		}
		if strings.IndexByte(u.Host, '=') >= 0 {
			// A parameter this nginx does not know (ipv4= before
			// 1.23.1) is a host name to nginx, which no lookup finds.
			p.Reportf(d.File, a.Range, "host not found in resolver \"%s\"", v).Detail =
				"nginx " + target.NginxVersion() + " does not know this parameter and looks it up as a name server's host name"
			return
		}
		servers++
	}
	if !ipv4 && !ipv6 {
		p.ReportDirective(d, "\"ipv4\" and \"ipv6\" cannot both be \"off\"")
		return
	}
	if servers == 0 {
		p.ReportDirective(d, "no name servers defined").Detail = "resolver needs at least one address besides its parameters"
	}
}
