package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/netip"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/parser"
)

// routeCmd is `nginx-lint route CONFIG URL...`: which server and
// location answer each URL, through which redirects, with what.
type routeCmd struct {
	loadFlags
	Config string   `arg:"" name:"config" help:"Main configuration file, or \"-\" for standard input."`
	URLs   []string `arg:"" name:"url" help:"Requests as http[s]://HOST[:PORT]/path?query: HOST is the Host header (and for https the SNI name), the path is sent as written, undecoded."`
	Format string   `short:"f" enum:"text,json" default:"text" help:"Output format: ${enum}."`
	requestFlags
}

// requestFlags describe the requests and the machine nginx runs on, for
// route and diff.
type requestFlags struct {
	Local   string   `help:"The address and port the connection arrives at, ADDR:PORT or unix:PATH (default: the URL's port on an address the configuration listens on, the one whose servers name the host if any)." placeholder:"ADDR:PORT"`
	Header  []string `short:"H" help:"A request header, NAME:VALUE; repeatable." placeholder:"NAME:VALUE"`
	NoHost  bool     `name:"no-host" help:"Send no Host header (an HTTP/1.0 request)."`
	Method  string   `default:"GET" help:"The request method."`
	Remote  string   `help:"The client's address ($remote_addr, allow and deny); unknown by default, and what depends on it is reported unsure." placeholder:"ADDR"`
	RootMap []string `name:"root-map" help:"Look the files of a directory of the nginx host up in a directory here, FROM=TO (try_files, index, static files); repeatable. Files under a root that is no directory here are taken as missing, and the answer says so." placeholder:"FROM=TO"`
	NoFiles bool     `name:"no-files" help:"Take every file as missing (try_files, index, static files) without looking."`
}

// options are the routing model's options the flags give.
func (f requestFlags) options(prefix string) (routing.Options, error) {
	o := routing.Options{NoFiles: f.NoFiles, Roots: map[string]string{}}
	if prefix != "" {
		o.Prefix = prefix
	}
	for _, m := range f.RootMap {
		from, to, ok := strings.Cut(m, "=")
		if !ok || from == "" || to == "" {
			return o, usageError{fmt.Sprintf("--root-map %q: want FROM=TO", m)}
		}
		o.Roots[from] = to
	}
	return o, nil
}

// request applies the flags to a request made from a URL.
func (f requestFlags) request(t *routing.Table, raw string) (routing.HTTPRequest, error) {
	r, err := routing.ParseURL(raw)
	if err != nil {
		return r, usageError{err.Error()}
	}
	r.Method = f.Method
	r.NoHost = f.NoHost
	if f.NoHost {
		r.Host = ""
	}
	for _, h := range f.Header {
		name, value, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(name) == "" {
			return r, usageError{fmt.Sprintf("--header %q: want NAME:VALUE", h)}
		}
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if strings.EqualFold(name, "host") {
			r.Host, r.NoHost = value, false
			continue
		}
		r.Headers = append(r.Headers, routing.Header{Name: name, Value: value})
	}
	if f.Remote != "" {
		a, err := netip.ParseAddr(f.Remote)
		if err != nil {
			return r, usageError{fmt.Sprintf("--remote %q: not an address", f.Remote)}
		}
		r.Remote = a
	}
	switch {
	case strings.HasPrefix(f.Local, "unix:"):
		r.Unix = f.Local
	case f.Local != "":
		ap, err := netip.ParseAddrPort(f.Local)
		if err != nil {
			return r, usageError{fmt.Sprintf("--local %q: want ADDR:PORT or unix:PATH", f.Local)}
		}
		r.Addr, r.Port = ap.Addr(), int(ap.Port())
	}
	// When nothing listens on the port, the address stays unset and
	// the answer is Refused.
	_ = t.Arrive(&r)
	return r, nil
}

// loadRoutes reads one configuration and makes its request model.
func loadRoutes(e *env, lf loadFlags, path string, o routing.Options) (*routing.Model, error) {
	m, _, err := loadRoutesRead(e, lf, path, o)
	return m, err
}

// loadRoutesRead is loadRoutes that also says how many bytes it read,
// for sizing the garbage collector (bigInputGC).
func loadRoutesRead(e *env, lf loadFlags, path string, o routing.Options) (*routing.Model, int64, error) {
	w, err := lf.workspace(e)
	if err != nil {
		return nil, 0, err
	}
	w.NoSettings = true
	rep, err := w.Load([]lint.Target{lint.FileTarget(path)})
	if err != nil {
		return nil, 0, err
	}
	if len(rep.Unreadable) > 0 {
		return nil, rep.Read, fmt.Errorf("%s: %s", path, readError(rep.Unreadable[0].Err))
	}
	if len(rep.Entries) == 0 {
		return nil, rep.Read, fmt.Errorf("%s: nothing to route", path)
	}
	return modelOf(rep.Entries[0].Config, o), rep.Read, nil
}

// routeGC undoes batchGC's GOGC=400 for route and diff on a big
// configuration: a request model holds several times what a lint does
// (every server's locations, twice for diff), and five times its live
// heap would be gigabytes for 19,900 servers. bigInputGC's memory limit
// is sized for a lint's heap and would collect without end here.
func routeGC(read int64) {
	if _, set := os.LookupEnv("GOGC"); !set && read > 8<<20 {
		debug.SetGCPercent(100)
	}
}

// modelOf is the request model of a loaded configuration.
func modelOf(c *parser.Config, o routing.Options) *routing.Model {
	m := parser.BuildModel(c)
	return routing.New(m, costmodel.Compute(m, costmodel.Options{}), o)
}

func (cmd *routeCmd) run(e *env) (int, error) {
	o, err := cmd.requestFlags.options(cmd.Prefix)
	if err != nil {
		return 0, err
	}
	m, read, err := loadRoutesRead(e, cmd.loadFlags, cmd.Config, o)
	if err != nil {
		return exitError, err
	}
	routeGC(read)
	var reqs []routing.HTTPRequest
	for _, u := range cmd.URLs {
		r, err := cmd.requestFlags.request(m.Table, u)
		if err != nil {
			return 0, err
		}
		reqs = append(reqs, r)
	}
	cwd, _ := os.Getwd()
	var out []routeJSON
	for i, r := range reqs {
		a := m.Route(r)
		j := answerJSON(m, cmd.URLs[i], r, a, cwd)
		if cmd.Format == "json" {
			out = append(out, j)
			continue
		}
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		writeRouteText(e.stdout, j)
	}
	if cmd.Format == "json" {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if out == nil {
			out = []routeJSON{}
		}
		if err := enc.Encode(out); err != nil {
			return exitError, err
		}
	}
	return exitClean, nil
}

// The JSON of one routed request.
type routeJSON struct {
	URL      string      `json:"url"`
	Request  requestJSON `json:"request"`
	Server   *placeJSON  `json:"server"`
	Location *placeJSON  `json:"location"`
	Status   int         `json:"status"`
	URI      string      `json:"uri"`
	Args     string      `json:"args"`
	Chain    []stepJSON  `json:"chain"`
	Handler  handlerJSON `json:"handler"`
	Unsure   []string    `json:"unsure"`
}

type requestJSON struct {
	Method string `json:"method"`
	Local  string `json:"local"`
	Host   string `json:"host,omitempty"`
	NoHost bool   `json:"no_host,omitempty"`
	Target string `json:"target"`
	HTTPS  bool   `json:"https,omitempty"`
}

// placeJSON is a block or directive of the configuration: the file and
// line of its directive, and its name ("= /x", "@fallback", a server's
// first name).
type placeJSON struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Name string `json:"name"`
}

type stepJSON struct {
	URI       string     `json:"uri"`
	Args      string     `json:"args"`
	Location  *placeJSON `json:"location"`
	Directive *placeJSON `json:"directive,omitempty"`
	How       string     `json:"how,omitempty"`
}

type handlerJSON struct {
	Kind      string        `json:"kind"`
	Directive *placeJSON    `json:"directive"`
	Target    string        `json:"target,omitempty"`
	Upstream  *upstreamJSON `json:"upstream,omitempty"`
	Text      string        `json:"text"`
}

type upstreamJSON struct {
	Name    string   `json:"name"`
	File    string   `json:"file"`
	Line    int      `json:"line"`
	Servers []string `json:"servers"`
}

func place(d *parser.Directive, name, cwd string) *placeJSON {
	if d == nil || d.File == nil {
		return nil
	}
	return &placeJSON{File: displayPath(d.File.Path, cwd), Line: d.Line(), Name: name}
}

// directiveText is a directive as written on one line, shortened.
func directiveText(d *parser.Directive) string {
	s := d.Name.Value
	for _, a := range d.Args {
		s += " " + a.Raw(d.File)
	}
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

func locPlace(l *routing.Location, cwd string) *placeJSON {
	if l == nil {
		return nil
	}
	return place(l.Directive, l.String(), cwd)
}

// answerJSON is the JSON of an answer.
func answerJSON(m *routing.Model, url string, r routing.HTTPRequest, a *routing.Answer, cwd string) routeJSON {
	j := routeJSON{URL: url, Status: a.Status, URI: a.URI, Args: a.Args, Unsure: a.Unsure, Chain: []stepJSON{}}
	j.Request = requestJSON{Method: r.Method, Host: r.Host, NoHost: r.NoHost, Target: r.Target, HTTPS: r.HTTPS}
	if j.Request.Method == "" {
		j.Request.Method = "GET"
	}
	switch {
	case r.Unix != "":
		j.Request.Local = r.Unix
	case r.Addr.IsValid():
		j.Request.Local = netip.AddrPortFrom(r.Addr, uint16(r.Port)).String()
	}
	if j.Unsure == nil {
		j.Unsure = []string{}
	}
	if cwd != "" {
		// The model names files by their absolute path; shown as the
		// other paths are.
		for i, u := range j.Unsure {
			j.Unsure[i] = strings.ReplaceAll(u, cwd+string(filepath.Separator), "")
		}
	}
	if a.Server >= 0 {
		s := m.Table.Servers[a.Server]
		name := ""
		if ns := s.Names(); len(ns) > 0 {
			name = ns[0].Directive.Args[ns[0].Arg].Value
		}
		j.Server = place(s.Directive, name, cwd)
	}
	j.Location = locPlace(a.Location, cwd)
	for _, s := range a.Steps {
		st := stepJSON{URI: s.URI, Args: s.Args, Location: locPlace(s.Location, cwd), How: s.How}
		if s.Via != nil {
			st.Directive = place(s.Via, directiveText(s.Via), cwd)
		}
		j.Chain = append(j.Chain, st)
	}
	h := a.Handler
	j.Handler = handlerJSON{Kind: h.Kind.String(), Target: h.Target, Text: a.Describe()}
	if h.Directive != nil {
		j.Handler.Directive = place(h.Directive, directiveText(h.Directive), cwd)
	}
	if u := h.Upstream; u != nil {
		uj := &upstreamJSON{Name: u.Name, Servers: []string{}}
		if u.Directive != nil && u.Directive.File != nil {
			uj.File, uj.Line = displayPath(u.Directive.File.Path, cwd), u.Directive.Line()
		}
		for _, d := range u.Servers {
			if len(d.Args) > 0 {
				uj.Servers = append(uj.Servers, d.Args[0].Value)
			}
		}
		j.Handler.Upstream = uj
	}
	return j
}

func (p *placeJSON) String() string {
	if p == nil {
		return "(none)"
	}
	return fmt.Sprintf("%s (%s:%d)", p.Name, p.File, p.Line)
}

// writeRouteText prints one answer for a person.
func writeRouteText(w io.Writer, j routeJSON) {
	local := j.Request.Local
	if local == "" {
		local = "nothing listening"
	}
	fmt.Fprintf(w, "%s %s (on %s)\n", j.Request.Method, terminalSafe(j.URL), local)
	if j.Server == nil {
		fmt.Fprintf(w, "  refused: no server listens there\n")
		return
	}
	name := j.Server.Name
	if name == "" {
		name = "server"
	}
	fmt.Fprintf(w, "  server    %s (%s:%d)\n", terminalSafe(name), j.Server.File, j.Server.Line)
	if len(j.Chain) > 1 {
		for i, s := range j.Chain {
			loc := "no location"
			if s.Location != nil {
				loc = "location " + terminalSafe(s.Location.String())
			}
			uri := s.URI
			if s.Args != "" {
				uri += "?" + s.Args
			}
			fmt.Fprintf(w, "  %-9s %s in %s\n", map[bool]string{true: "chain", false: ""}[i == 0], terminalSafe(uri), loc)
			if s.Directive != nil {
				fmt.Fprintf(w, "            -> %s: %s (%s:%d)\n", s.How, terminalSafe(s.Directive.Name), s.Directive.File, s.Directive.Line)
			}
		}
	}
	if j.Location != nil {
		fmt.Fprintf(w, "  location  %s\n", terminalSafe(j.Location.String()))
	} else {
		fmt.Fprintf(w, "  location  none (the server level)\n")
	}
	if d := j.Handler.Directive; d != nil {
		fmt.Fprintf(w, "  handler   %s\n            by %s (%s:%d)\n", terminalSafe(j.Handler.Text), terminalSafe(d.Name), d.File, d.Line)
	} else {
		fmt.Fprintf(w, "  handler   %s\n", terminalSafe(j.Handler.Text))
	}
	if u := j.Handler.Upstream; u != nil {
		fmt.Fprintf(w, "            upstream %s (%s:%d): %s\n", terminalSafe(u.Name), u.File, u.Line, terminalSafe(strings.Join(u.Servers, ", ")))
	}
	for _, u := range j.Unsure {
		fmt.Fprintf(w, "  unsure    %s\n", terminalSafe(u))
	}
}
