package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// streamMailTLS reports the stream and mail servers that turn TLS on
// without a certificate: ngx_stream_ssl_merge_conf and
// ngx_mail_ssl_merge_conf refuse a "listen ... ssl" (and mail's
// "starttls on|only") when neither the server nor its stream or mail
// block has an ssl_certificate, at that directive's line.
func streamMailTLS(p *analyzer.Pass) {
	// What each stream or mail block says, read once.
	outer := map[*parser.Directive]bool{}
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if d.Block == nil || len(stack) == 0 {
			return
		}
		parent := stack[len(stack)-1]
		if !parent.Is("stream") && !parent.Is("mail") {
			return
		}
		has, ok := outer[parent]
		if !ok {
			has = hasCertificate(p.Body(parent))
			outer[parent] = has
		}
		dirs := p.Body(d)
		if has || hasCertificate(dirs) {
			return
		}
		for _, x := range dirs {
			switch {
			case x.Is("listen") && len(x.Args) > 0:
				if spec, err := grammar.ParseListen(x.ArgValues()); err == nil && spec.Has(grammar.ParamSSL) {
					p.ReportDirective(x, "no %q is defined for the %q directive", "ssl_certificate", "listen ... ssl").Detail =
						"add ssl_certificate and ssl_certificate_key to this server or to the " + parent.Name.Value + " block; nginx refuses to start"
					return
				}
			case x.Is("starttls") && parent.Is("mail") && len(x.Args) == 1 && !strings.EqualFold(x.Args[0].Value, "off"):
				p.ReportDirective(x, "no %q is defined for the %q directive", "ssl_certificate", "starttls").Detail =
					"add ssl_certificate and ssl_certificate_key to this server or to the mail block; nginx refuses to start"
				return
			}
		}
	}, "server")
}

func hasCertificate(dirs []*parser.Directive) bool {
	for _, d := range dirs {
		if d.Is("ssl_certificate") {
			return true
		}
	}
	return false
}
