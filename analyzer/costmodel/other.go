package costmodel

import (
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/internal/ipaddr"
	"github.com/nginx-lint/nginx-lint/internal/ngxparse"

	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// otherState collects, during the one walk over every directive, the
// startup costs outside listen: regular expressions, certificates,
// config-time DNS lookups, log files.
type otherState struct {
	r         *Result
	upstreams map[string]bool
	logs      map[string]bool
	implicit  map[string]bool
	// The certificate inherited from http (or set in the server) is
	// loaded once per server block by ngx_http_ssl_merge_srv_conf.
	httpCert   string
	serverCert map[*parser.Directive]string
	// regexNames is set by finish when some server has a regex name.
	regexNames bool
}

func newOtherState(r *Result, m *parser.Model) *otherState {
	o := &otherState{r: r, upstreams: map[string]bool{}, logs: map[string]bool{}, implicit: map[string]bool{},
		serverCert: map[*parser.Directive]string{}}
	for _, u := range m.Upstreams {
		o.upstreams[strings.ToLower(u.Name)] = true
	}
	return o
}

// visit counts d, whose block is parent's (nil at the top).
func (o *otherState) visit(d *parser.Directive, parentDir *parser.Directive) {
	r := o.r
	parent := ""
	if parentDir != nil {
		parent = parentDir.Name().Value
	}
	args := d.Args()
	r.Counts.Regexes += compiledRegexes(d, parent)
	switch d.Name().Value {
	case "ssl_certificate":
		if len(args) > 0 {
			switch parent {
			case "http":
				o.httpCert = args[0].Value
			case "server":
				o.serverCert[parentDir] = args[0].Value
			}
		}
	case "access_log", "error_log":
		if len(args) > 0 {
			p := args[0].Value
			if p != "off" && !strings.HasPrefix(p, "syslog:") && !strings.HasPrefix(p, "memory:") &&
				!strings.HasPrefix(p, "/dev/") && !strings.Contains(p, "$") {
				o.logs[p] = true
			}
		}
	case "server":
		if parent == "upstream" && len(args) > 0 && !hasArg(args, "resolve") && isHostName(args[0].Value) {
			// ngx_http_upstream_server resolves it while parsing.
			r.Counts.DNSLookups++
		}
	default:
		if !directives.IsPass(d.Name().Value) {
			break
		}
		if len(args) > 0 {
			if h := passHost(d.Name().Value, args[0].Value); h != "" && !o.upstreams[hostOnly(h)] && !o.implicit[h] {
				// ngx_http_upstream_add makes an implicit upstream,
				// resolved once per distinct host:port.
				o.implicit[h] = true
				r.Counts.DNSLookups++
			}
		}
	}
}

// compiledRegexes counts the regexes nginx compiles while it reads d,
// whose block is parent's (a regex server_name is counted with the
// servers, in finish): a regex location, a rewrite, an if's match, a
// map's regex key.
func compiledRegexes(d *parser.Directive, parent string) int {
	args := d.Args()
	n := 0
	switch d.Name().Value {
	case "location":
		if len(args) > 0 && (args[0].Value == "~" || args[0].Value == "~*" ||
			len(args) == 1 && strings.HasPrefix(args[0].Value, "~")) {
			n++
		}
	case "rewrite":
		n++
	case "if":
		for _, a := range args {
			switch a.Value {
			case "~", "~*", "!~", "!~*":
				n++
			}
		}
	}
	if parent == "map" && strings.HasPrefix(d.Name().Value, "~") {
		n++
	}
	return n
}

// finish counts what needs the servers: certificates per server, regex
// server names, includes and log files.
func (o *otherState) finish(m *parser.Model) {
	r := o.r
	c := m.Config
	r.Counts.Includes = len(m.Includes)
	r.Counts.IncludedFiles = max(0, len(c.Files)-1)
	certs := map[string]bool{}
	for _, s := range m.Servers {
		for _, n := range s.Names() {
			if n.Spec().Kind == grammar.NameRegex {
				// ngx_http_core_server_name compiles it while parsing.
				r.Counts.Regexes++
				o.regexNames = true
			}
		}
		if s.Protocol != parser.HTTP {
			continue
		}
		cert, ok := o.serverCert[s.Directive]
		if !ok {
			cert = o.httpCert
		}
		if cert == "" {
			continue
		}
		if r.sslSrvrs == nil {
			r.sslSrvrs = map[*parser.Server]bool{}
		}
		r.sslSrvrs[s] = true
		r.Counts.SSLServers++
		r.Counts.SSLCertificates++
		if !certs[cert] {
			certs[cert] = true
			r.Counts.SSLDistinct++
		}
	}
	// The error log nginx opens before reading the configuration.
	r.Counts.LogFiles = len(o.logs) + 1
}

func hasArg(ws []parser.Word, v string) bool {
	for _, w := range ws {
		if w.Value == v {
			return true
		}
	}
	return false
}

// passHost returns "host:port" (no port when none is written) of the
// address the *_pass name names with arg, when its host is a name nginx
// resolves at config time, or "". The address is read as the directive's
// handler reads it (ngxparse.ParsePass); stream's proxy_pass, which takes
// no scheme, is told from http's by the missing "http://".
func passHost(name, arg string) string {
	pp, ok := ngxparse.ParsePass(name, false, arg)
	if ok && pp.BadPrefix {
		pp, ok = ngxparse.ParsePass(name, true, arg)
	}
	if !ok || pp.Vars || pp.Err != "" || pp.Unix {
		// A variable: resolved per request by the resolver, if at all.
		return ""
	}
	hp := pp.Host
	if !pp.NoPort {
		hp += ":" + strconv.Itoa(pp.Port)
	}
	if !isHostName(hp) {
		return ""
	}
	return strings.ToLower(hp)
}

func hostOnly(hp string) string {
	if i := strings.LastIndexByte(hp, ':'); i >= 0 && !strings.HasSuffix(hp, "]") {
		return hp[:i]
	}
	return hp
}

// isHostName reports whether an address (with an optional port) is a name
// rather than an IP literal or a unix socket.
func isHostName(hp string) bool {
	if hp == "" || strings.HasPrefix(hp, "unix:") || strings.HasPrefix(hp, "[") {
		return false
	}
	h := hostOnly(hp)
	if _, ok := ipaddr.Parse(h); ok {
		return false
	}
	return h != "" && h != "*"
}

// limits compares what the sockets need with worker_connections and the
// open-file limit.
func (b *builder) limits() {
	r := b.r
	need := r.Counts.SocketsTest + 1
	wc := Limit{Name: "worker_connections", Need: need, Have: r.WorkerConnections,
		Directive: r.WorkerConnectionsDir, OK: r.WorkerConnections >= need}
	if !wc.OK {
		// ngx_event_init_conf, run by nginx -t as well.
		wc.Message = itoa(r.WorkerConnections) + " worker_connections are not enough for " +
			itoa(r.Counts.SocketsTest) + " listening sockets"
	}
	r.Limits = append(r.Limits, wc)
	// The master holds every listening socket (reuseport clones included)
	// and the log files, plus standard input, output and error.
	files := r.Counts.SocketsStart + r.Counts.LogFiles + 3
	nf := Limit{Name: "open files", Need: files, Have: r.Options.nofile(), OK: files <= r.Options.nofile()}
	if !nf.OK {
		nf.Message = "the master needs " + itoa(files) + " open files (" + itoa(r.Counts.SocketsStart) +
			" listening sockets, " + itoa(r.Counts.LogFiles) + " log files) but the limit is " +
			itoa(r.Options.nofile()) + ": socket() fails with (24: Too many open files)"
	}
	r.Limits = append(r.Limits, nf)
}
