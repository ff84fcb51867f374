package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/internal/report"
	"github.com/nginx-lint/nginx-lint/parser"
)

// This file is what the editor shows of the request model
// (analyzer/routing): the hover of a location (URIs that reach it, one of
// its prefix that goes elsewhere) and the command nginx-lint.route, which
// answers a URL as `nginx-lint route` does.

// RouteCommand is the workspace/executeCommand command that routes a
// URL through the configuration of a document. Its arguments are the
// document's URI, the URL (http[s]://HOST[:PORT]/path?query, sent as
// written), and optionally an object of request options: "local"
// (ADDR:PORT or unix:PATH), "method", "headers" (["Name: value"]),
// "noHost" and "remote". It returns {"text": the answer as `nginx-lint
// route` prints it, "route": its JSON object}.
const RouteCommand = "nginx-lint.route"

// routeHover describes, in Markdown, which URIs reach the location dir
// (a location directive of the document): two examples, and when some
// URIs of its prefix go elsewhere one of those with the location that
// takes it. "" for other directives.
func routeHover(v *view, dir *parser.Directive) string {
	if dir.Name().Value != "location" || v.unit == nil || v.unitFile == nil {
		return ""
	}
	// The unit may be the nginx.conf that includes the document: its
	// location is the one at the same place of the same file.
	var found, server *parser.Directive
	v.unit.Config.Walk(func(d *parser.Directive, stack []*parser.Directive) bool {
		if found != nil {
			return false
		}
		if d.File == v.unitFile && d.Name().Value == "location" && d.Name().Range.Start == dir.Name().Range.Start {
			found = d
			for i := len(stack) - 1; i >= 0; i-- {
				if stack[i].Name().Value == "server" {
					server = stack[i]
					break
				}
			}
			return false
		}
		switch d.Name().Value {
		case "http", "server", "location", "include":
			return true
		}
		return false
	})
	if found == nil {
		return ""
	}
	root := v.unit.Locations(server)
	var loc *routing.Location
	root.Walk(func(l *routing.Location) {
		if l.Directive == found {
			loc = l
		}
	})
	if loc == nil {
		return "" // a named location, or one nginx refuses
	}
	sets := routing.NewSets()
	var b strings.Builder
	b.WriteString("**Routing** (nginx's location search; `nginx-lint route` follows a URL further)\n\n")
	ex := sets.Examples(loc, 2)
	if len(ex) == 0 {
		b.WriteString("- no URI reaches this location\n")
		return b.String()
	}
	quoted := make([]string, len(ex))
	for i, u := range ex {
		quoted[i] = "`" + u + "`"
	}
	fmt.Fprintf(&b, "- reached by %s\n", strings.Join(quoted, " and "))
	if u, by, ok := sets.Elsewhere(loc); ok {
		fmt.Fprintf(&b, "- `%s` goes to %s instead\n", u, blockRef(by, v.unitFile))
	}
	return b.String()
}

// blockRef names a location (nil: the server level) and where it is.
func blockRef(l *routing.Location, here *parser.File) string {
	if l == nil || l.Directive == nil {
		return "the server level"
	}
	d := l.Directive
	at := fmt.Sprintf("line %d", d.Line())
	if d.File != here {
		at = fmt.Sprintf("%s:%d", filepath.Base(d.File.Path), d.Line())
	}
	return fmt.Sprintf("`location %s` (%s)", l.String(), at)
}

// routeOptions are the request options of nginx-lint.route.
type routeOptions struct {
	Local   string
	Method  string
	Headers []string
	NoHost  bool
	Remote  string
}

// executeCommand runs RouteCommand.
func (s *Server) executeCommand(_ context.Context, p *protocol.ExecuteCommandParams) (any, error) {
	if p.Command != RouteCommand {
		return nil, errorf(codeInvalidParams, "unknown command %q", p.Command)
	}
	if len(p.Arguments) < 2 {
		return nil, errorf(codeInvalidParams, "%s: want the document's URI and a URL", RouteCommand)
	}
	doc, ok1 := p.Arguments[0].(string)
	url, ok2 := p.Arguments[1].(string)
	if !ok1 || !ok2 {
		return nil, errorf(codeInvalidParams, "%s: want the document's URI and a URL, as strings", RouteCommand)
	}
	var o routeOptions
	if len(p.Arguments) > 2 {
		m, ok := p.Arguments[2].(map[string]any)
		if !ok {
			return nil, errorf(codeInvalidParams, "%s: the third argument is an object of request options", RouteCommand)
		}
		o.Local, _ = m["local"].(string)
		o.Method, _ = m["method"].(string)
		o.NoHost, _ = m["noHost"].(bool)
		o.Remote, _ = m["remote"].(string)
		if hs, ok := m["headers"].([]any); ok {
			for _, h := range hs {
				if s, ok := h.(string); ok {
					o.Headers = append(o.Headers, s)
				}
			}
		}
	}
	v := s.viewOf(protocol.DocumentUri(doc))
	if v == nil || v.unit == nil {
		return nil, errorf(codeInvalidParams, "%s: %s is not an open nginx configuration", RouteCommand, doc)
	}
	m := v.unit.Routes()
	r, err := routeRequest(m.Table, url, o)
	if err != nil {
		return nil, errorf(codeInvalidParams, "%s: %v", RouteCommand, err)
	}
	a := m.Route(r)
	cwd := filepath.Dir(v.unit.Config.Main.Path)
	j := report.RouteOf(m, url, r, a, cwd)
	var text strings.Builder
	report.WriteRouteText(&text, j)
	return map[string]any{"text": text.String(), "route": j}, nil
}

// routeRequest is the request of a URL with the options, as nginx-lint
// route makes it from its flags.
func routeRequest(t *routing.Table, url string, o routeOptions) (routing.HTTPRequest, error) {
	r, err := routing.ParseURL(url)
	if err != nil {
		return r, err
	}
	ro := routing.RequestOptions{Method: o.Method, NoHost: o.NoHost, Headers: o.Headers, Remote: o.Remote, Local: o.Local}
	if err := ro.Apply(&r); err != nil {
		return r, err
	}
	_ = t.Arrive(&r)
	return r, nil
}
