package optimize

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// settingRewrites sizes server_names_hash_*, worker_connections and
// worker_rlimit_nofile for the configuration r models.
func settingRewrites(m *parser.Model, r *costmodel.Result, o Options) []Rewrite {
	var out []Rewrite
	// The hashes: one setting for all addresses, the largest any needs.
	fixMax, fixBucket := 0, 0
	warn := ""
	for _, h := range r.Hashes {
		if h.Outcome == costmodel.HashOK {
			continue
		}
		fm, fb := h.Fix()
		if fm > 0 {
			fixMax = max(fixMax, fm)
		} else if fb > 0 {
			fixBucket = max(fixBucket, fb)
		}
		if warn == "" {
			warn = h.Outcome.String() + " on " + h.Addr.Key
		}
	}
	if r.HTTPBlock != nil {
		if fixMax > 0 {
			if rw, ok := setDirective(r.HTTPBlock, r.HashMaxSizeDir, "server_names_hash_max_size", strconv.Itoa(fixMax)); ok {
				rw.Kind, rw.Title = KindHashSize, fmt.Sprintf("set server_names_hash_max_size %d (removes nginx's %s)", fixMax, warn)
				out = append(out, rw)
			}
		} else if fixBucket > 0 {
			if rw, ok := setDirective(r.HTTPBlock, r.HashBucketSizeDir, "server_names_hash_bucket_size", strconv.Itoa(fixBucket)); ok {
				rw.Kind, rw.Title = KindHashSize, fmt.Sprintf("set server_names_hash_bucket_size %d (removes nginx's %s)", fixBucket, warn)
				out = append(out, rw)
			}
		}
	}
	events := mainDirective(m, "events")
	conns := r.WorkerConnections
	for _, l := range r.Limits {
		if l.Name == "worker_connections" && !l.OK && events != nil {
			if rw, ok := setDirective(events, r.WorkerConnectionsDir, "worker_connections", strconv.Itoa(l.Need)); ok {
				rw.Kind, rw.Title = KindWorkerConnections, fmt.Sprintf("set worker_connections %d (%d listening sockets need one connection each, and one more)", l.Need, l.Need-1)
				out = append(out, rw)
				conns = l.Need
			}
		}
	}
	// nginx warns "N worker_connections exceed open file resource
	// limit" when worker_connections is above the limit and
	// worker_rlimit_nofile does not cover it (ngx_event_module_init).
	// The value given also counts what every worker holds besides its
	// connections: the listening sockets and the logs.
	nofile := o.Cost.NoFile
	if nofile <= 0 {
		nofile = 1024
	}
	need := conns + r.Counts.SocketsStart + r.Counts.LogFiles + 3
	cur := mainDirective(m, "worker_rlimit_nofile")
	have := 0
	if cur != nil && len(cur.Args()) > 0 {
		have, _ = strconv.Atoi(cur.Args()[0].Value)
	}
	if conns > nofile && (cur == nil || conns > have) && events != nil {
		var rw Rewrite
		if cur != nil {
			rw = Rewrite{edits: []parser.Edit{argsEdit(cur, strconv.Itoa(need))}, Path: cur.File.Path, Line: cur.Line()}
		} else {
			at := int(events.Name().Range.Start)
			rw = Rewrite{edits: []parser.Edit{{File: events.File, Range: parser.Span(at, at),
				NewText: "worker_rlimit_nofile " + strconv.Itoa(need) + ";\n" + indentOf(events)}}, Path: events.File.Path, Line: events.Line()}
		}
		rw.Kind, rw.Title = KindRlimitNofile, fmt.Sprintf("set worker_rlimit_nofile %d (worker_connections %d exceed the open-file limit %d; each worker also holds %d listening sockets and the logs)",
			need, conns, nofile, r.Counts.SocketsStart)
		out = append(out, rw)
	}
	return out
}

// mainDirective finds a directive of the main context.
func mainDirective(m *parser.Model, name string) *parser.Directive {
	if m.Config == nil || m.Config.Main == nil || len(m.Config.Context) > 0 {
		return nil
	}
	for _, d := range m.Config.Main.Directives {
		if d.Name().Value == name {
			return d
		}
	}
	return nil
}

// setDirective gives the directive cur the value, or adds name value; at
// the top of block.
func setDirective(block, cur *parser.Directive, name, value string) (Rewrite, bool) {
	if cur != nil {
		if len(cur.Args()) == 0 {
			return Rewrite{}, false
		}
		return Rewrite{edits: []parser.Edit{argsEdit(cur, value)}, Path: cur.File.Path, Line: cur.Line()}, true
	}
	lb := block.LBrace()
	if lb < 0 {
		return Rewrite{}, false
	}
	at := int(lb) + 1
	text := "\n" + indentOf(block) + "    " + name + " " + value + ";"
	return Rewrite{edits: []parser.Edit{{File: block.File, Range: parser.Span(at, at), NewText: text}}, Path: block.File.Path, Line: block.Line()}, true
}

type nameRewrite struct {
	Rewrite
	port *costmodel.Port
}

// nameBasedRewrites plans, for each port with several listed addresses
// and no wildcard, the move of every server onto the port's wildcard
// address (listen PORT), where the Host header alone picks the server,
// and lists the requests that would change.
func nameBasedRewrites(load Loader, m *parser.Model, r *costmodel.Result, t *routing.Table, o Options, removed map[*parser.Directive]bool) []nameRewrite {
	var out []nameRewrite
	for _, p := range r.Ports {
		if p.Protocol != parser.HTTP || p.UDP || (p.Family != costmodel.IPv4 && p.Family != costmodel.IPv6) || len(p.Addrs) < 2 || p.Wildcard != nil {
			continue
		}
		rw := nameRewrite{port: p}
		rw.Kind = KindByName
		rw.Title = fmt.Sprintf("%s: serve its %d addresses from one wildcard address with name-based virtual hosts", p.Name(), len(p.Addrs))
		// ssl, http2 and proxy_protocol are per address:port and combined
		// over its listens: on one address they would spread to every
		// server.
		var flags grammar.ParamSet
		const perAddr = 1<<grammar.ParamSSL | 1<<grammar.ParamHTTP2 | 1<<grammar.ParamProxyProtocol
		first := true
		var opts []string
		seenDefault := false
		host := strconv.Itoa(p.Port)
		if p.Family == costmodel.IPv6 {
			host = "[::]:" + host
		}
		for _, a := range p.Addrs {
			// ssl, http2 and proxy_protocol are ORed over the address's
			// listens, its socket options come from the one that gives
			// them.
			var af grammar.ParamSet
			var ao []string
			var at *parser.Directive
			for i := range a.Instances {
				in := &a.Instances[i]
				if in.Listen == nil || in.Listen.Spec == nil || removed[in.Listen.Directive] {
					continue
				}
				d, sp := in.Listen.Directive, in.Listen.Spec
				if at == nil {
					at = d
				}
				af |= sp.Set & perAddr
				if o := socketOptions(sp); len(o) > 0 {
					ao = o
				}
				if sp.LastPort > sp.Port {
					rw.Reason = "a listen on a port range is left as written"
					break
				}
				if sp.Set&(1<<grammar.ParamBind) != 0 {
					rw.Reason = fmt.Sprintf("\"listen %s\" at %s:%d asks for a socket of its own with bind, which is kept", strings.Join(d.ArgValues(), " "), d.File.Path, d.Line())
					break
				}
				keep := []string{host}
				for _, prm := range sp.Params {
					switch {
					case prm.Kind == grammar.ParamDefaultServer && seenDefault:
						continue
					case prm.Kind == grammar.ParamDefaultServer:
						seenDefault = true
					case socketParam(prm.Kind):
						// Given once, on the first listen (below).
						continue
					}
					keep = append(keep, d.Args()[prm.Arg].Raw(d.File))
				}
				if rw.Path == "" {
					rw.Path, rw.Line = d.File.Path, d.Line()
				}
				rw.edits = append(rw.edits, argsEdit(d, keep...))
			}
			if rw.Reason != "" || at == nil {
				break
			}
			if first {
				flags, opts, first = af, ao, false
			} else if af != flags {
				rw.Reason = fmt.Sprintf("ssl, http2 or proxy_protocol differ between its addresses (%s:%d): on one address they would apply to every server", at.File.Path, at.Line())
			} else if !slices.Equal(ao, opts) {
				rw.Reason = fmt.Sprintf("its addresses have different socket options (%s:%d)", at.File.Path, at.Line())
			}
			if rw.Reason != "" {
				break
			}
		}
		if rw.Reason == "" && len(opts) > 0 && len(rw.edits) > 0 {
			// The socket options on the first listen of the port.
			e := &rw.edits[0]
			e.NewText += " " + strings.Join(opts, " ")
		}
		if rw.Reason == "" {
			// The requests that change: parse the rewrite alone and
			// compare.
			texts, err := apply(rw.edits)
			if err == nil {
				if m1, err := load(texts); err == nil {
					r1 := costmodel.Compute(m1, o.Cost)
					t1 := routing.Build(m1, r1)
					rw.Saving = r.StartupSeconds - r1.StartupSeconds
					for _, d := range routing.Compare(t, t1, maxChanges) {
						rw.Changes = append(rw.Changes, d.Describe(t, t1))
					}
				}
			}
		}
		out = append(out, rw)
	}
	return out
}
