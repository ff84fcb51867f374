package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

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
		if !stream && !mail || d.Block == nil || len(d.Args) != 0 || missingInclude(p.Config, d.Block.Directives) {
			return
		}
		body := p.Body(d)
		listen, handler, auth, unknown := false, false, false, false
		protocol := false // a protocol, or a listen port that names one
		for _, c := range body {
			name := c.Name.Value
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
