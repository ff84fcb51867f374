package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/script"
	"github.com/nginx-lint/nginx-lint/analyzer/taint"
	"github.com/nginx-lint/nginx-lint/parser"
)

// SSRF reports proxy_pass (and fastcgi_pass, grpc_pass, ...) targets whose
// scheme or host the client picks.
var SSRF = &analyzer.Rule{
	Code: "NL3001", Name: "ssrf", Title: "the upstream host of a *_pass comes from the request", Severity: parser.Error,
	Run: runSSRF,
	Doc: analyzer.Doc{
		Text: "When the scheme or host of `proxy_pass` (or the address of `fastcgi_pass`, " +
			"`grpc_pass`, `uwsgi_pass`, `scgi_pass`, `memcached_pass`) comes from the request (a query argument, a " +
			"header, a regex capture of the path), a client can make nginx connect anywhere it can " +
			"reach: internal services, cloud metadata endpoints, other tenants (server-side request " +
			"forgery). Keep the host fixed and put only the path in variables, pick the backend " +
			"with a `map` of fixed values, or mark the location `internal` so only internal " +
			"redirects reach it.",
		Bad:  "location /proxy/ {\n    proxy_pass $arg_target;\n}\n",
		Good: "location /proxy/ {\n    proxy_pass http://backend$request_uri;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_proxy_module.html#proxy_pass",
	},
}

// urlPart is a piece of an expanded URL with the blocks it is evaluated in.
type urlPart struct {
	script.Token
	stack []*parser.Directive
}

// expandURL replaces variables that a single visible "set" defines with
// that set's text, so "set $u http://$h; proxy_pass $u;" is seen as
// "http://$h". Maps and several definitions stay opaque variables.
func expandURL(env *taint.Env, s string, stack []*parser.Directive, depth int) []urlPart {
	var out []urlPart
	for _, r := range script.Split(s) {
		if r.Name != "" && depth < 4 {
			visible := env.VisibleSets(r.Name, stack)
			if len(visible) == 1 && env.Map(r.Name) == nil {
				out = append(out, expandURL(env, visible[0].Directive.Args()[1].Value, visible[0].Stack, depth+1)...)
				continue
			}
		}
		out = append(out, urlPart{Token: r, stack: stack})
	}
	return out
}

// hostVariable returns the first variable of a URL that lets the client
// choose the scheme or host, and whether there is one. A variable that
// can only hold a single host label (no dots, colons, slashes) next to
// fixed host text merely picks among fixed names ("api_v$1"); alone it
// can still name "localhost" or an internal host.
func hostVariable(env *taint.Env, parts []urlPart) (string, bool) {
	inHost := false
	var hostVars []string
	fixedText := false
	for _, p := range parts {
		if p.Name == "" {
			if !inHost {
				i := strings.Index(p.Text, "://")
				if i < 0 {
					return "", false // a relative or odd target: no host here
				}
				inHost = true
				host, _, cut := strings.Cut(p.Text[i+3:], "/")
				fixedText = fixedText || strings.Trim(host, "?#") != ""
				if cut {
					break
				}
				continue
			}
			host, _, cut := strings.Cut(p.Text, "/")
			fixedText = fixedText || host != ""
			if cut || strings.ContainsAny(p.Text, "?#") {
				break
			}
			continue
		}
		t := env.Var(p.Name, p.stack)
		if t.Slash {
			break // "$request_uri" and the like start the path
		}
		if !t.User {
			continue
		}
		if t.Wide {
			return p.Name, true // it can hold a whole host, or URL
		}
		if inHost {
			hostVars = append(hostVars, p.Name)
		}
	}
	if len(hostVars) > 0 && !fixedText {
		return hostVars[0], true
	}
	return "", false
}

// ssrfSinks are the directives whose argument names where nginx connects.
// Only proxy_pass takes a URL with a scheme; the others take an address
// (grpc_pass with an optional grpc:// or grpcs://).
var ssrfSinks = directives.PassDirectives()

func runSSRF(p *analyzer.Pass) {
	var env *taint.Env
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, stack []*parser.Directive) {
		if len(d.Args()) != 1 || !script.HasVars(d.Args()[0].Value) || analyzer.InStream(stack, ctx) {
			return
		}
		if loc := analyzer.Innermost(stack, "location"); loc != nil && loc.HasChild("internal") {
			return // only internal redirects reach it
		}
		if env == nil {
			env = taint.NewEnv(p)
		}
		parts := expandURL(env, d.Args()[0].Value, stack, 0)
		if !d.Is("proxy_pass") && !(d.Is("grpc_pass") && strings.Contains(d.Args()[0].Value, "://")) {
			// An address: read it as the host part of a URL. A unix:
			// socket path names no host.
			if len(parts) > 0 && parts[0].Name == "" && strings.HasPrefix(parts[0].Text, "unix:") {
				return
			}
			parts = append([]urlPart{{Token: script.Token{Text: "tcp://"}}}, parts...)
		}
		name, ok := hostVariable(env, parts)
		if !ok {
			return
		}
		diag := p.Reportf(d.File, d.Args()[0].Range, "%q uses a variable from the request in the host: server-side request forgery", d.Name().Value)
		diag.Detail = "$" + name + " comes from the request and decides where nginx connects; keep the " +
			"host fixed (or choose among fixed backends with a map), or mark the location internal"
	}, ssrfSinks...)
}
