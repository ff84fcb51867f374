package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/costpass"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/internal/ngxparse"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// QUICReuseport reports QUIC sockets that several workers share without
// reuseport, and a quic_bpf that steers no socket.
var QUICReuseport = &analyzer.Rule{
	Code: "NL4013", Name: "quic-reuseport", Title: "QUIC listen without reuseport under several workers, or quic_bpf with nothing to steer", Severity: parser.Warning,
	Run: runQUICReuseport,
	Doc: analyzer.Doc{
		Text: "A QUIC connection is a stream of UDP datagrams, and the worker that accepted it holds its " +
			"state. Without `reuseport` all workers read one UDP socket, so a datagram can reach a " +
			"worker that does not know its connection; nginx's QUIC guide asks for `reuseport` on the " +
			"`quic` listen \"to make it work properly with multiple workers\". With `reuseport` each " +
			"worker gets its own socket and the kernel keeps a client's datagrams on one of them, and " +
			"`quic_bpf on` goes further: an eBPF program routes by connection ID, so a connection " +
			"survives the client's address changing. That program is attached only to the sockets of " +
			"listens that have both `quic` and `reuseport` (`ngx_quic_bpf_module_init`), so `quic_bpf " +
			"on` without such a listen does nothing.\n\n" +
			"The first finding needs more than one worker (`worker_processes auto` or a number above " +
			"1; nginx's default is 1) and a whole configuration; `reuseport` on any listen of the " +
			"address counts, since it belongs to the socket.",
		Bad: "worker_processes auto;\nevents {}\nhttp {\n    server {\n        listen 443 ssl;\n        listen 443 quic;\n" +
			"        ssl_certificate cert.pem;\n        ssl_certificate_key cert.key;\n    }\n}\n",
		Good: "worker_processes auto;\nevents {}\nhttp {\n    server {\n        listen 443 ssl;\n        listen 443 quic reuseport;\n" +
			"        ssl_certificate cert.pem;\n        ssl_certificate_key cert.key;\n    }\n}\n",
		URL: "https://nginx.org/en/docs/quic.html#configuration",
	},
}

func runQUICReuseport(p *analyzer.Pass) {
	ix := p.Index()
	many := false
	if p.WholeConfig() {
		for _, i := range ix.Named("worker_processes") {
			if e := &ix.Entries[i]; e.Parent < 0 {
				if d := e.Directive; len(d.Args()) == 1 {
					n, ok := ngxparse.Atoi(d.Args()[0].Value)
					many = d.Args()[0].Value == "auto" || ok && n > 1
				}
			}
		}
	}
	steered := false
	var quicListens int
	// The runs of one range without reuseport are one finding at its
	// listen, naming the ports.
	var bare []routing.Run[*parser.Directive]
	for _, port := range costpass.Get(p).Ports {
		if port.Protocol != parser.HTTP {
			continue
		}
		for _, a := range port.Addrs {
			var first *parser.Directive
			reuse := false
			for i := range a.Instances {
				l := a.Instances[i].Listen
				if l == nil || l.Spec == nil || !l.Spec.Has(grammar.ParamQUIC) {
					continue
				}
				quicListens++
				if first == nil {
					first = l.Directive
				}
				reuse = reuse || l.Spec.Has(grammar.ParamReuseport)
			}
			steered = steered || (first != nil && reuse)
			if first != nil && !reuse && many {
				bare = append(bare, routing.Run[*parser.Directive]{Item: first, Addr: a})
			}
		}
	}
	same := func(a, b *parser.Directive) bool { return a == b }
	firsts, addrs := routing.MergeRunsPer(bare, func(d *parser.Directive) *parser.Directive { return d }, same)
	for i, first := range firsts {
		diag := p.ReportDirective(first, "QUIC on %s without reuseport: every worker reads its one UDP socket, and a datagram can reach a worker that does not hold its connection", addrs[i])
		diag.Detail = "add reuseport to one listen ... quic of the address (it applies to the socket); nginx's QUIC guide asks for it with more than one worker"
	}
	if steered || !p.WholeConfig() {
		return
	}
	for _, i := range ix.Named("quic_bpf") {
		d := ix.Entries[i].Directive
		if len(d.Args()) == 1 && d.Args()[0].Value == "on" {
			diag := p.ReportDirective(d, "quic_bpf on steers no socket: no listen has both quic and reuseport")
			if quicListens == 0 {
				diag.Detail = "the eBPF program attaches only to the sockets of listens with quic and reuseport, and this configuration has no quic listen"
			} else {
				diag.Detail = "the eBPF program attaches only to the sockets of listens with quic and reuseport: add reuseport to the listen ... quic"
			}
		}
	}
}
