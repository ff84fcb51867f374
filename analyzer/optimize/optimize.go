// Package optimize rewrites a configuration into one that starts faster
// and routes every request as before: the engine of `nginx-lint cost
// --fix` and `--diff`.
//
// Every rewrite is checked on the rewritten text, parsed again: the cost
// model must show no new bind conflict, the routing model's server
// tables (analyzer/routing) must route every request the original served
// to the same server, and the whole request model must answer every
// request of the request set (routing.Probes of both configurations)
// with the same server, location, redirect chain, handler and status. A
// rewrite that fails a check is listed with the reason and not applied.
// A bind the user wrote is never dropped.
//
// The rewrites:
//
//   - One socket per port: a port whose addresses each have a socket gets
//     one wildcard listen (nginx binds 0.0.0.0:PORT or [::]:PORT once and
//     finds the address a connection came to with getsockname), in a
//     catch-all server that closes the connections to addresses no
//     listen names (return 444; they were refused before). The port then
//     answers on every address of the machine: a change of routing,
//     applied only under Options.Wildcard. The socket options (backlog,
//     reuseport, rcvbuf, deferred, ...) move to the wildcard listen,
//     which needs them to be the same on every listen of the port:
//     otherwise the port is left alone, as it is when a listen has bind.
//     ssl, http2, proxy_protocol and default_server stay on each address,
//     where nginx keeps them (ngx_http_add_addrs copies them per address).
//   - server_names_hash_max_size or _bucket_size, when nginx would warn
//     or fail building a server_names hash: the smallest value that
//     avoids it (the cost model's search).
//   - worker_connections, when below the listening sockets + 1, and
//     worker_rlimit_nofile, when the workers' connections and sockets
//     exceed the open-file limit.
//   - A listen repeated in the same server (nginx refuses it: "a duplicate
//     listen") is removed.
//
// Rewrites that change routing (ByName: all servers of a port on one
// wildcard address, chosen by Host alone) are listed with the requests
// that would change, and applied only when Options.AssumeHost says the
// user accepts that every client sends the Host of its server and
// Options.Wildcard that the port listens on every address.
package optimize

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/internal/plural"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// Loader parses the configuration with the given file contents in place
// of the files on disk (keys are absolute paths) and returns its model.
type Loader func(overlay map[string][]byte) (*parser.Model, error)

// Options tune the optimizer.
type Options struct {
	// Cost are the host facts of the cost model.
	Cost costmodel.Options
	// AssumeHost applies the rewrites that move IP-based virtual hosts to
	// name-based ones: it is the user's word that every client sends a
	// Host header naming its server, so that the requests listed as
	// changing (no Host, an unknown Host) do not occur or do not matter.
	// Those rewrites listen on a wildcard address too, so they also need
	// Wildcard.
	AssumeHost bool
	// Wildcard applies the rewrites that give a port a wildcard listen
	// where it had none: nginx then answers that port on every address
	// of the machine, not only those the configuration names (the
	// connections to the others, refused before, are closed by a
	// catch-all server). It is the user's word that this change of
	// routing is acceptable (a firewall, say, keeps those addresses
	// closed).
	Wildcard bool
}

// Kinds of rewrite.
const (
	KindWildcard          = "wildcard-listen"
	KindHashSize          = "server-names-hash"
	KindWorkerConnections = "worker-connections"
	KindRlimitNofile      = "worker-rlimit-nofile"
	KindDuplicateListen   = "duplicate-listen"
	KindByName            = "name-based"
)

// Rewrite is one proposed change.
type Rewrite struct {
	Kind  string
	Title string
	// Saving is the estimated startup time saved, in seconds.
	Saving float64
	// Applied says whether the change is in Plan.Fixed; Reason says why
	// not.
	Applied bool
	Reason  string
	// Changes are the requests the rewrite would route elsewhere, in
	// words (name-based rewrites), at most maxChanges.
	Changes []string
	// Path and Line locate the change.
	Path string
	Line int

	edits []parser.Edit
}

// Plan is what Optimize found and did.
type Plan struct {
	Rewrites []Rewrite
	// Original and Fixed hold the text of every changed file before and
	// after; Fixed is empty when nothing applies.
	Original, Fixed map[string][]byte
	// Before and After are the cost models of the original and the fixed
	// configuration (After equals Before when nothing applies).
	Before, After *costmodel.Result
	// BeforeRoutes and AfterRoutes are their routing tables.
	BeforeRoutes, AfterRoutes *routing.Table
	// Accepted are the routing differences the fix brings: connections
	// to unlisted addresses of a port that gets a wildcard, refused
	// before, closed without a response by the catch-all server after.
	Accepted []routing.Difference
	// CatchAll is the number of the added catch-all server in
	// AfterRoutes, -1 if none was added.
	CatchAll int
	// Opened are the wildcard addresses the applied rewrites listen on
	// where the configuration listened on listed addresses only
	// ("0.0.0.0:20000", "[::]:443"): ports now open on every address of
	// the machine, which Options.Wildcard accepted.
	Opened []string
	// Requests is the number of requests the request model answered
	// alike before and after the applied rewrites (routing.Probes of
	// both configurations).
	Requests int
}

// Saving is the estimated startup time the applied rewrites save.
func (p *Plan) Saving() float64 { return p.Before.StartupSeconds - p.After.StartupSeconds }

const maxChanges = 10

// maxSeparate bounds the rewrites tried one by one when together they
// fail a check (each try parses the configuration again).
const maxSeparate = 64

// Optimize plans and checks the rewrites of the configuration load gives.
func Optimize(load Loader, o Options) (*Plan, error) {
	m0, err := load(nil)
	if err != nil {
		return nil, err
	}
	r0 := costmodel.Compute(m0, o.Cost)
	t0 := routing.Build(m0, r0)
	p := &Plan{Original: map[string][]byte{}, Fixed: map[string][]byte{}, Before: r0, After: r0,
		BeforeRoutes: t0, AfterRoutes: t0, CatchAll: -1}

	// Stage 1: listens (duplicates, one socket per port, and the
	// name-based rewrites when assumed), checked by both models.
	dups := duplicateListens(m0)
	removed := map[*parser.Directive]bool{}
	for _, rw := range dups {
		removed[rw.dir] = true
	}
	wild, skipped := wildcardRewrites(r0, removed)
	byName := nameBasedRewrites(load, m0, r0, t0, o, removed)
	type cand struct {
		rw     *Rewrite
		listen string
	}
	var cands []cand
	for i := range dups {
		cands = append(cands, cand{&dups[i].Rewrite, ""})
	}
	if o.AssumeHost && o.Wildcard && len(byName) > 0 {
		// The name-based rewrites replace the wildcard ones of their
		// ports.
		ported := map[*costmodel.Port]bool{}
		for i := range byName {
			if byName[i].Reason == "" {
				cands = append(cands, cand{&byName[i].Rewrite, ""})
				ported[byName[i].port] = true
			}
		}
		for i := range wild {
			if ported[wild[i].port] {
				wild[i].Reason = "replaced by the name-based rewrite of the port"
			}
		}
	}
	for i := range wild {
		if wild[i].Reason == "" && wild[i].listen != "" && !o.Wildcard {
			// A port without a wildcard would listen on every address.
			w := &wild[i]
			w.Reason = fmt.Sprintf("it would open %s on every address of the machine, where the configuration listens on %s only: a change of routing; --wildcard applies it",
				wildcardAddr(w.port), plural.Count(len(w.port.Addrs), "address"))
			w.Changes = []string{fmt.Sprintf("a connection to any other address of port %d, refused before, would be accepted and closed without a response (return 444)", w.port.Port)}
		}
		if wild[i].Reason == "" {
			cands = append(cands, cand{&wild[i].Rewrite, wild[i].listen})
		}
	}
	type attempt struct {
		texts map[string][]byte
		r     *costmodel.Result
		t     *routing.Table
		catch bool
		bad   string
		n     int
		// cut: the proof passed its bound (routing.Bound); a smaller
		// set of rewrites asks as many requests, so none is tried.
		cut bool
	}
	try := func(cs []cand) (attempt, error) {
		var edits []parser.Edit
		var listens []string
		for _, c := range cs {
			edits = append(edits, c.rw.edits...)
			if c.listen != "" {
				listens = append(listens, c.listen)
			}
		}
		catch := catchAll(r0, listens)
		edits = append(edits, catch...)
		texts, err := apply(edits)
		if err != nil {
			return attempt{}, err
		}
		m1, err := load(texts)
		if err != nil {
			return attempt{}, err
		}
		r1 := costmodel.Compute(m1, o.Cost)
		t1 := routing.Build(m1, r1)
		at := attempt{texts: texts, r: r1, t: t1, catch: len(catch) > 0}
		at.bad = check(r0, r1, t0, t1, at.catch, o.AssumeHost)
		if at.bad == "" {
			at.bad, at.n, at.cut = checkRequests(m0, m1, t0, t1, o.Wildcard, o.AssumeHost)
		}
		return at, nil
	}
	overlay := map[string][]byte{}
	var done *attempt
	if len(cands) > 0 {
		at, err := try(cands)
		if err != nil {
			return nil, err
		}
		if at.bad == "" {
			done = &at
		} else if at.cut {
			for _, c := range cands {
				c.rw.Reason = at.bad
			}
			cands = nil
		} else if len(cands) > 1 && len(cands) <= maxSeparate {
			// One rewrite spoils the lot: try each alone, so that the
			// reason lands on the right one, then the good ones together.
			var good []cand
			for _, c := range cands {
				one, err := try([]cand{c})
				if err != nil {
					return nil, err
				}
				if one.bad != "" {
					c.rw.Reason = one.bad
				} else {
					good = append(good, c)
				}
			}
			cands = good
		} else if len(cands) == 1 {
			cands[0].rw.Reason = at.bad
			cands = nil
		}
	}
	for done == nil && len(cands) > 0 {
		at, err := try(cands)
		if err != nil {
			return nil, err
		}
		if at.bad == "" {
			done = &at
			break
		}
		// Drop the last rewrite and try again.
		cands[len(cands)-1].rw.Reason = at.bad
		cands = cands[:len(cands)-1]
	}
	if done != nil {
		for _, c := range cands {
			c.rw.Applied = true
		}
		overlay = done.texts
		p.After, p.AfterRoutes = done.r, done.t
		p.Requests = done.n
		if done.catch {
			p.CatchAll = len(done.t.Servers) - 1
		}
		p.Accepted = routing.Compare(t0, done.t, maxChanges)
		for _, c := range cands {
			for i := range wild {
				if c.rw == &wild[i].Rewrite && wild[i].listen != "" {
					p.Opened = append(p.Opened, wildcardAddr(wild[i].port))
				}
			}
			for i := range byName {
				if c.rw == &byName[i].Rewrite {
					p.Opened = append(p.Opened, wildcardAddr(byName[i].port))
				}
			}
		}
	}
	for i := range dups {
		p.Rewrites = append(p.Rewrites, dups[i].Rewrite)
	}
	for i := range wild {
		p.Rewrites = append(p.Rewrites, wild[i].Rewrite)
	}
	p.Rewrites = append(p.Rewrites, skipped...)
	for i := range byName {
		rw := byName[i].Rewrite
		if (!o.AssumeHost || !o.Wildcard) && rw.Reason == "" {
			rw.Reason = fmt.Sprintf("changes routing (the requests listed) and opens %s on every address of the machine; --assume-host --wildcard apply it", wildcardAddr(byName[i].port))
		}
		p.Rewrites = append(p.Rewrites, rw)
	}

	// Stage 2: settings on the rewritten text.
	m1, err := load(overlay)
	if err != nil {
		return nil, err
	}
	r1 := p.After
	settings := settingRewrites(m1, r1, o)
	if len(settings) > 0 {
		var edits []parser.Edit
		for _, rw := range settings {
			edits = append(edits, rw.edits...)
		}
		texts, err := applyOver(edits, overlay)
		if err != nil {
			return nil, err
		}
		m2, err := load(texts)
		if err != nil {
			return nil, err
		}
		r2 := costmodel.Compute(m2, o.Cost)
		t2 := routing.Build(m2, r2)
		// The settings (worker_connections, worker_rlimit_nofile, the
		// server_names hash sizes) are no directive the request model
		// reads: the server tables are checked again, the requests were
		// proven with the listens.
		if bad := check(r0, r2, t0, t2, p.CatchAll >= 0, o.AssumeHost); bad != "" {
			for i := range settings {
				settings[i].Reason = bad
			}
		} else {
			for i := range settings {
				settings[i].Applied = true
				settings[i].Saving = r1.StartupSeconds - r2.StartupSeconds
				if len(settings) > 1 {
					settings[i].Saving /= float64(len(settings))
				}
			}
			overlay = texts
			p.After, p.AfterRoutes = r2, t2
		}
		p.Rewrites = append(p.Rewrites, settings...)
	}
	for path, text := range overlay {
		f := fileOf(m0, path)
		if f == nil || f.Src == string(text) {
			continue
		}
		p.Original[path] = []byte(f.Src)
		p.Fixed[path] = text
	}
	return p, nil
}

// check returns why the rewritten configuration is refused, "" if not:
// a new bind conflict, more sockets, or a request routed elsewhere
// (besides what a catch-all server takes, or what AssumeHost accepts).
func check(r0, r1 *costmodel.Result, t0, t1 *routing.Table, catchAll, assumeHost bool) string {
	if len(r1.Conflicts) > len(r0.Conflicts) {
		return "the rewritten configuration would fail to start: " + r1.Conflicts[0].Message
	}
	if r1.Counts.SocketsStart > r0.Counts.SocketsStart {
		return fmt.Sprintf("the rewritten configuration opens more sockets (%d, not %d)", r1.Counts.SocketsStart, r0.Counts.SocketsStart)
	}
	if r1.Truncated > 0 || len(t1.Servers) < len(t0.Servers) {
		return "the rewritten configuration lost servers"
	}
	if assumeHost {
		// The user's word: every client sends a Host naming its server.
		// Those requests must keep their server, and nothing served may
		// be refused.
		if d, ok := routing.KeepsNamedRequests(t0, t1); !ok {
			return "the routing model finds a difference for a request with its server's name: " + d.Describe(t0, t1)
		}
		for _, d := range routing.Compare(t0, t1, 0) {
			if d.Kind == routing.NowRefused {
				return "the routing model finds a difference: " + d.Describe(t0, t1)
			}
		}
		return ""
	}
	for _, d := range routing.Compare(t0, t1, 0) {
		if d.Kind == routing.NowAccepted && d.Other && catchAll && d.After == len(t1.Servers)-1 {
			continue
		}
		return "the routing model finds a difference: " + d.Describe(t0, t1)
	}
	return ""
}

// checkRequests answers every request of the request set that tells
// the two configurations apart (routing.Probes of both: every address
// and port, every name, no Host and an unknown one, the paths of every
// location) with the whole request model, and returns why the rewrite
// is refused: the first request whose server, location, redirect chain,
// handler or status changes, besides those the rewrite is accepted to
// change: under opened (Options.Wildcard), a connection to an address
// no listen names, refused before and answered now (by a catch-all
// server that closes it, or the port's servers after a name-based
// rewrite); under assumeHost, a request whose Host does not name the
// server it reached. n is the number of requests answered. The
// requests and their answers are bounded (routing.NewBound): a proof
// cut there refuses the rewrite, cut set.
func checkRequests(m0, m1 *parser.Model, t0, t1 *routing.Table, opened, assumeHost bool) (bad string, n int, cut bool) {
	// Files are not looked up: a listen does not change them, and the
	// answers must not depend on this machine.
	before := routing.NewWithTable(m0, t0, routing.Options{NoFiles: true})
	after := routing.NewWithTable(m1, t1, routing.Options{NoFiles: true})
	accepted := func(c routing.Change) bool {
		r := c.Request
		if opened && c.Before.Server == routing.Refused && c.After.Server >= 0 && routing.Unlisted(r.Addr) {
			return true
		}
		if assumeHost && c.Before.Server >= 0 && (r.NoHost || !namesHost(t0.Servers[c.Before.Server], r.Host)) {
			return true
		}
		return false
	}
	bound := routing.NewBound(before, after)
	c, n := routing.FirstChangeBounded(before, after, bound.Probes(before, after), bound, accepted)
	if c == nil && bound.Cut {
		// A proof that asked part of the request set proves nothing.
		return "the proof that routing is unchanged is too large: " + bound.String() + ", and none of those changed, but the rest were not asked", n, true
	}
	if c == nil {
		return "", n, false
	}
	return "the request model finds a difference: " + describeChange(before, after, c), n, false
}

// namesHost reports whether host is an exact name of the server (as a
// client sends it: any case, a final dot).
func namesHost(s *parser.Server, host string) bool {
	h, ok := routing.NormalizeHost(host)
	if !ok {
		return false
	}
	for _, n := range s.Names() {
		sp := n.Spec()
		if sp.Kind == grammar.NameExact && sp.Name == h || sp.Kind == grammar.NameDotWildcard && sp.Domain == h {
			return true
		}
	}
	return false
}

// describeChange words a request the rewrite would answer otherwise.
func describeChange(before, after *routing.Model, c *routing.Change) string {
	r := c.Request
	req := r.Request.String()
	if routing.Unlisted(r.Addr) {
		req = fmt.Sprintf("a request to any unlisted address of port %d", r.Port)
		if !r.NoHost {
			req += fmt.Sprintf(" with Host %q", r.Host)
		}
	}
	answer := func(m *routing.Model, a *routing.Answer) string {
		if a.Server < 0 {
			return "refused"
		}
		s := "server " + m.Table.Ref(a.Server)
		if a.Location != nil {
			s += fmt.Sprintf(", location %s (%s:%d)", a.Location, a.Location.Directive.File.Path, a.Location.Directive.Line())
		}
		return s + ": " + a.Describe()
	}
	return fmt.Sprintf("%s %s: %s after, %s before (%s changes)", req, r.Target, answer(after, c.After), answer(before, c.Before), strings.Join(c.What, ", "))
}

// wildcardAddr is the wildcard address of a port, as nginx names it.
func wildcardAddr(p *costmodel.Port) string {
	if p.Family == costmodel.IPv6 {
		return fmt.Sprintf("[::]:%d", p.Port)
	}
	return fmt.Sprintf("0.0.0.0:%d", p.Port)
}

// fileOf returns the file of the model at path.
func fileOf(m *parser.Model, path string) *parser.File {
	for _, f := range m.Config.Files {
		if f.Path == path {
			return f
		}
	}
	return nil
}

// apply splices edits into their files' sources.
func apply(edits []parser.Edit) (map[string][]byte, error) {
	return applyOver(edits, nil)
}

// applyOver splices edits into their files (whose sources the edits
// carry) and adds the files of base they do not touch.
func applyOver(edits []parser.Edit, base map[string][]byte) (map[string][]byte, error) {
	byFile := map[string][]parser.Edit{}
	for _, e := range edits {
		byFile[e.File.Path] = append(byFile[e.File.Path], e)
	}
	out := map[string][]byte{}
	for k, v := range base {
		out[k] = v
	}
	for path, es := range byFile {
		sort.SliceStable(es, func(i, j int) bool { return es[i].Range.Start < es[j].Range.Start })
		s := es[0].File.Src
		var b bytes.Buffer
		at := int32(0)
		for _, e := range es {
			if e.Range.Start < at {
				return nil, fmt.Errorf("%s: overlapping edits at offset %d", path, e.Range.Start)
			}
			b.WriteString(s[at:e.Range.Start])
			b.WriteString(e.NewText)
			at = e.Range.End
		}
		b.WriteString(s[at:])
		out[path] = b.Bytes()
	}
	return out, nil
}

// lineOf returns the range of d's whole line(s) with the newline when
// nothing else is on them, else d's own range.
func lineOf(d *parser.Directive) parser.Range {
	r := d.Range()
	src := d.File.Src
	start, end := int(r.Start), int(r.End)
	for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t') {
		start--
	}
	if start > 0 && src[start-1] != '\n' {
		return r
	}
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	if end < len(src) && src[end] == '\n' {
		end++
	} else if end < len(src) {
		return r
	}
	return parser.Span(start, end)
}

// indentOf returns the whitespace before d on its line.
func indentOf(d *parser.Directive) string {
	src := d.File.Src
	i := int(d.Name().Range.Start)
	j := i
	for j > 0 && (src[j-1] == ' ' || src[j-1] == '\t') {
		j--
	}
	if j == 0 || src[j-1] == '\n' {
		return src[j:i]
	}
	return ""
}

// argsEdit replaces the arguments of d with args.
func argsEdit(d *parser.Directive, args ...string) parser.Edit {
	r := parser.Span(int(d.Name().Range.End), int(d.Args()[len(d.Args())-1].Range.End))
	return parser.Edit{File: d.File, Range: r, NewText: " " + strings.Join(args, " ")}
}

type dupRewrite struct {
	Rewrite
	dir *parser.Directive
}

// duplicateListens finds a listen of the same address and port as an
// earlier one of its server, which nginx refuses ("a duplicate listen").
func duplicateListens(m *parser.Model) []dupRewrite {
	var out []dupRewrite
	for _, s := range m.Servers {
		if s.Protocol != parser.HTTP {
			continue
		}
		ls := s.Listens()
		seen := map[string]*grammar.Listen{}
		for i := range ls {
			sp := ls[i].Spec
			if sp == nil || sp.LastPort > sp.Port {
				continue
			}
			if first, ok := seen[sp.Key]; ok && first.Set == sp.Set && slices.Equal(paramTexts(first), paramTexts(sp)) {
				d := ls[i].Directive
				out = append(out, dupRewrite{Rewrite{Kind: KindDuplicateListen, Title: "remove the repeated listen " + strings.Join(d.ArgValues(), " "),
					Path: d.File.Path, Line: d.Line(), edits: []parser.Edit{{File: d.File, Range: lineOf(d)}}}, d})
				continue
			}
			seen[sp.Key] = sp
		}
	}
	return out
}

func paramTexts(l *grammar.Listen) []string {
	var out []string
	for _, p := range l.Params {
		out = append(out, p.Text)
	}
	return out
}

// socketParam says whether a listen parameter is an option of the socket
// (what makes nginx give the listen a socket of its own).
func socketParam(k grammar.ParamKind) bool {
	switch k {
	case grammar.ParamBind, grammar.ParamBacklog, grammar.ParamRcvbuf, grammar.ParamSndbuf, grammar.ParamAcceptFilter,
		grammar.ParamDeferred, grammar.ParamIPv6Only, grammar.ParamSetfib, grammar.ParamSoKeepalive, grammar.ParamFastopen,
		grammar.ParamReuseport, grammar.ParamMultipath:
		return true
	}
	return false
}

// socketOptions returns the socket options of a listen, bind left out
// (it only asks for a socket of its own, and the rewrites keep it), in a
// canonical order.
func socketOptions(l *grammar.Listen) []string {
	var out []string
	for _, p := range l.Params {
		if socketParam(p.Kind) && p.Kind != grammar.ParamBind {
			out = append(out, p.Text)
		}
	}
	sort.Strings(out)
	return out
}

type wildRewrite struct {
	Rewrite
	port   *costmodel.Port
	listen string // the wildcard listen's arguments, "" when the port has one
}

// wildcardRewrites plans one socket per port.
func wildcardRewrites(r *costmodel.Result, removed map[*parser.Directive]bool) (out []wildRewrite, skipped []Rewrite) {
	sock := r.Profile.Cost(costmodel.CostSocket)
	for _, p := range r.Ports {
		if p.Protocol != parser.HTTP || p.UDP || (p.Family != costmodel.IPv4 && p.Family != costmodel.IPv6) || p.Sockets < 2 {
			continue
		}
		rw := wildRewrite{port: p}
		rw.Kind = KindWildcard
		title := fmt.Sprintf("%s: one wildcard socket for its %d addresses", p.Name(), len(p.Addrs))
		var opts []string
		first := true
		reason := ""
		var edits []parser.Edit
		var firstDir *parser.Directive
		for _, a := range p.Addrs {
			// Socket options belong to the address: nginx takes them
			// from the one listen there that gives them.
			var ao []string
			var at *parser.Directive
			for i := range a.Instances {
				in := &a.Instances[i]
				if in.Listen == nil || in.Listen.Spec == nil || removed[in.Listen.Directive] {
					continue
				}
				d, sp := in.Listen.Directive, in.Listen.Spec
				if firstDir == nil {
					firstDir = d
				}
				if at == nil {
					at = d
				}
				if sp.LastPort > sp.Port {
					reason = "a listen on a port range (" + d.Args()[0].Value + ") is left as written"
					break
				}
				if o := socketOptions(sp); len(o) > 0 {
					ao, at = o, d
				}
				if a.Wildcard {
					continue
				}
				if sp.Set&(1<<grammar.ParamBind) != 0 {
					// The user asked for a socket of this address; beside a
					// wildcard socket it would fail to start (Linux:
					// bind() ... Address already in use).
					reason = fmt.Sprintf("\"listen %s\" at %s:%d asks for a socket of its own with bind, which is kept; one socket for the port cannot be",
						strings.Join(d.ArgValues(), " "), d.File.Path, d.Line())
					break
				}
				keep := []string{d.Args()[0].Raw(d.File)}
				changed := false
				for _, prm := range sp.Params {
					if socketParam(prm.Kind) {
						changed = true
						continue
					}
					keep = append(keep, d.Args()[prm.Arg].Raw(d.File))
				}
				if changed {
					edits = append(edits, argsEdit(d, keep...))
				}
			}
			if reason != "" {
				break
			}
			if at == nil {
				continue
			}
			if first {
				opts, first = ao, false
			} else if !slices.Equal(ao, opts) {
				reason = fmt.Sprintf("its addresses have different socket options (%q at %s:%d, %q before): one socket cannot keep both",
					strings.Join(ao, " "), at.File.Path, at.Line(), strings.Join(opts, " "))
				break
			}
		}
		if reason != "" {
			skipped = append(skipped, Rewrite{Kind: KindWildcard, Title: title, Reason: reason})
			continue
		}
		if p.Wildcard == nil {
			host := strconv.Itoa(p.Port)
			if p.Family == costmodel.IPv6 {
				host = "[::]:" + host
			}
			rw.listen = strings.Join(append([]string{host}, opts...), " ")
			title += fmt.Sprintf(" (listen %s in a catch-all server; other addresses of the port, refused before, get the connection closed)", rw.listen)
		} else {
			title += " (the specific listens give up their own sockets; the options are the wildcard's)"
		}
		rw.Title = title
		rw.Saving = float64(p.Sockets-1) * sock
		if firstDir != nil {
			rw.Path, rw.Line = firstDir.File.Path, firstDir.Line()
		}
		rw.edits = edits
		out = append(out, rw)
	}
	return out, skipped
}

// catchAll returns the edit adding one server with the given wildcard
// listens at the end of the http block.
func catchAll(r *costmodel.Result, listens []string) []parser.Edit {
	if len(listens) == 0 || r.HTTPBlock == nil || r.HTTPBlock.RBrace() < 0 {
		return nil
	}
	h := r.HTTPBlock
	var b strings.Builder
	in := indentOf(h)
	b.WriteString("\n" + in + "    # Added by nginx-lint cost --fix: one listening socket per port; nginx finds\n")
	b.WriteString(in + "    # the address of a connection with getsockname(). Connections to addresses\n")
	b.WriteString(in + "    # no listen names (refused before) are closed without a response.\n")
	b.WriteString(in + "    server {\n")
	for _, l := range listens {
		b.WriteString(in + "        listen " + l + ";\n")
	}
	b.WriteString(in + "        return 444;\n" + in + "    }\n")
	at := int(h.RBrace())
	src := h.File.Src
	j := at
	for j > 0 && (src[j-1] == ' ' || src[j-1] == '\t') {
		j--
	}
	if j > 0 && src[j-1] == '\n' {
		at = j
		return []parser.Edit{{File: h.File, Range: parser.Span(at, at), NewText: strings.TrimPrefix(b.String(), "\n")}}
	}
	return []parser.Edit{{File: h.File, Range: parser.Span(at, at), NewText: b.String()}}
}
