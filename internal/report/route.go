package report

import (
	"fmt"
	"io"
	"net/netip"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Route is what nginx-lint route reports of one request, in the shape
// of its JSON.
type Route struct {
	URL      string       `json:"url"`
	Request  Request      `json:"request"`
	Server   *Place       `json:"server"`
	Location *Place       `json:"location"`
	Status   int          `json:"status"`
	URI      string       `json:"uri"`
	Args     string       `json:"args"`
	Chain    []Step       `json:"chain"`
	Handler  RouteHandler `json:"handler"`
	// LocationHeader is the Location a response other than a redirect
	// carries (a redirect's status sent to an error_page).
	LocationHeader string `json:"location_header,omitempty"`
	// Notes say why nginx answers as it does (routing.Answer.Notes).
	Notes  []string `json:"notes"`
	Unsure []string `json:"unsure"`
}

// Request is the request a Route answers.
type Request struct {
	Method string `json:"method"`
	Local  string `json:"local"`
	Host   string `json:"host,omitempty"`
	NoHost bool   `json:"no_host,omitempty"`
	Target string `json:"target"`
	HTTPS  bool   `json:"https,omitempty"`
}

// Place is a block or directive of the configuration: the file and
// line of its directive, and its name ("= /x", "@fallback", a server's
// first name).
type Place struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Name string `json:"name"`
}

// Step is one location of a Route's chain.
type Step struct {
	URI       string `json:"uri"`
	Args      string `json:"args"`
	Location  *Place `json:"location"`
	Directive *Place `json:"directive,omitempty"`
	How       string `json:"how,omitempty"`
}

// RouteHandler is what answers a request.
type RouteHandler struct {
	Kind      string    `json:"kind"`
	Directive *Place    `json:"directive"`
	Target    string    `json:"target,omitempty"`
	Upstream  *Upstream `json:"upstream,omitempty"`
	Text      string    `json:"text"`
}

// Upstream is the upstream block a *_pass names.
type Upstream struct {
	Name    string   `json:"name"`
	File    string   `json:"file"`
	Line    int      `json:"line"`
	Servers []string `json:"servers"`
}

func place(d *parser.Directive, name, cwd string) *Place {
	if d == nil || d.File == nil {
		return nil
	}
	return &Place{File: DisplayPath(d.File.Path, cwd), Line: d.Line(), Name: name}
}

// directiveText is a directive as written on one line, shortened.
func directiveText(d *parser.Directive) string {
	s := d.Name().Value
	for _, a := range d.Args() {
		s += " " + a.Raw(d.File)
	}
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

func locPlace(l *routing.Location, cwd string) *Place {
	if l == nil {
		return nil
	}
	return place(l.Directive, l.String(), cwd)
}

// RouteOf is the report of one answer of m: the request as url and r,
// the files named as DisplayPath names them relative to cwd.
func RouteOf(m *routing.Model, url string, r routing.HTTPRequest, a *routing.Answer, cwd string) Route {
	j := Route{URL: url, Status: a.Status, URI: a.URI, Args: a.Args, Notes: slices.Clone(a.Notes), Unsure: slices.Clone(a.Unsure),
		Chain: []Step{}, LocationHeader: a.LocationHeader}
	j.Request = Request{Method: r.Method, Host: r.Host, NoHost: r.NoHost, Target: r.Target, HTTPS: r.HTTPS}
	if j.Request.Method == "" {
		j.Request.Method = "GET"
	}
	switch {
	case r.Unix != "":
		j.Request.Local = r.Unix
	case r.Addr.IsValid():
		j.Request.Local = netip.AddrPortFrom(r.Addr, uint16(r.Port)).String()
	}
	if j.Notes == nil {
		j.Notes = []string{}
	}
	if j.Unsure == nil {
		j.Unsure = []string{}
	}
	if cwd != "" {
		// The model names files by their absolute path; shown as the
		// other paths are.
		for _, list := range [][]string{j.Notes, j.Unsure} {
			for i, u := range list {
				list[i] = strings.ReplaceAll(u, cwd+string(filepath.Separator), "")
			}
		}
	}
	if a.Server >= 0 {
		s := m.Table.Servers[a.Server]
		name := ""
		if ns := s.Names(); len(ns) > 0 {
			name = ns[0].Directive.Args()[ns[0].Arg].Value
		}
		j.Server = place(s.Directive, name, cwd)
	}
	j.Location = locPlace(a.Location, cwd)
	for _, s := range a.Steps {
		st := Step{URI: s.URI, Args: s.Args, Location: locPlace(s.Location, cwd), How: s.How}
		if s.Via != nil {
			st.Directive = place(s.Via, directiveText(s.Via), cwd)
		}
		j.Chain = append(j.Chain, st)
	}
	h := a.Handler
	j.Handler = RouteHandler{Kind: h.Kind.String(), Target: h.Target, Text: a.Describe()}
	if h.Directive != nil {
		j.Handler.Directive = place(h.Directive, directiveText(h.Directive), cwd)
	}
	if u := h.Upstream; u != nil {
		uj := &Upstream{Name: u.Name, Servers: []string{}}
		if u.Directive != nil && u.Directive.File != nil {
			uj.File, uj.Line = DisplayPath(u.Directive.File.Path, cwd), u.Directive.Line()
		}
		for _, d := range u.Servers {
			if len(d.Args()) > 0 {
				uj.Servers = append(uj.Servers, d.Args()[0].Value)
			}
		}
		j.Handler.Upstream = uj
	}
	return j
}

// String is the place as "name (file:line)".
func (p *Place) String() string {
	if p == nil {
		return "(none)"
	}
	return fmt.Sprintf("%s (%s:%d)", p.Name, p.File, p.Line)
}

// WriteRouteText writes one answer for a person.
func WriteRouteText(w io.Writer, j Route) {
	local := j.Request.Local
	if local == "" {
		local = "nothing listening"
	}
	fmt.Fprintf(w, "%s %s (on %s)\n", j.Request.Method, TerminalSafe(j.URL), local)
	if j.Server == nil {
		fmt.Fprintf(w, "  refused: no server listens there\n")
		return
	}
	name := j.Server.Name
	if name == "" {
		name = "server"
	}
	fmt.Fprintf(w, "  server    %s (%s:%d)\n", TerminalSafe(name), j.Server.File, j.Server.Line)
	if len(j.Chain) > 1 {
		for i, s := range j.Chain {
			loc := "no location"
			if s.Location != nil {
				loc = "location " + TerminalSafe(s.Location.String())
			}
			uri := s.URI
			if s.Args != "" {
				uri += "?" + s.Args
			}
			fmt.Fprintf(w, "  %-9s %s in %s\n", map[bool]string{true: "chain", false: ""}[i == 0], TerminalSafe(uri), loc)
			if s.Directive != nil {
				fmt.Fprintf(w, "            -> %s: %s (%s:%d)\n", s.How, TerminalSafe(s.Directive.Name), s.Directive.File, s.Directive.Line)
			}
		}
	}
	if j.Location != nil {
		fmt.Fprintf(w, "  location  %s\n", TerminalSafe(j.Location.String()))
	} else {
		fmt.Fprintf(w, "  location  none (the server level)\n")
	}
	if d := j.Handler.Directive; d != nil {
		fmt.Fprintf(w, "  handler   %s\n            by %s (%s:%d)\n", TerminalSafe(j.Handler.Text), TerminalSafe(d.Name), d.File, d.Line)
	} else {
		fmt.Fprintf(w, "  handler   %s\n", TerminalSafe(j.Handler.Text))
	}
	if u := j.Handler.Upstream; u != nil {
		fmt.Fprintf(w, "            upstream %s (%s:%d): %s\n", TerminalSafe(u.Name), u.File, u.Line, TerminalSafe(strings.Join(u.Servers, ", ")))
	}
	if j.LocationHeader != "" {
		fmt.Fprintf(w, "            with Location: %s (set by the redirect the error_page answers)\n", TerminalSafe(j.LocationHeader))
	}
	for _, n := range j.Notes {
		fmt.Fprintf(w, "  note      %s\n", TerminalSafe(n))
	}
	for _, u := range j.Unsure {
		fmt.Fprintf(w, "  unsure    %s\n", TerminalSafe(u))
	}
}
