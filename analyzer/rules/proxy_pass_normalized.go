package rules

import (
	"fmt"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/script"
	"github.com/nginx-lint/nginx-lint/analyzer/taint"
	"github.com/nginx-lint/nginx-lint/internal/ngxparse"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// ProxyPassNormalized reports proxy_pass forms that send upstream a path
// other than the one the client sent.
var ProxyPassNormalized = &analyzer.Rule{
	Code: "NL3015", Name: "proxy-pass-normalized", Title: "proxy_pass sends a decoded or re-encoded path upstream", Severity: parser.Info,
	Run: runProxyPassNormalized,
	Doc: analyzer.Doc{
		Text: "When `proxy_pass` has a URI part (`proxy_pass http://backend/;`), nginx replaces the " +
			"matched location prefix in the *normalized* URI: percent-escapes are decoded, `..` and " +
			"`//` resolved. `/%2F..%2Fadmin` reaches the backend as a different path than the one " +
			"nginx checked, and encoded slashes are lost. After `rewrite ^ $request_uri;` (used to keep " +
			"the raw path), a `proxy_pass` without a variable encodes it again (`%2F` becomes `%252F`). " +
			"`$uri` in the URI part is the same decoded path, unless a rewrite to `$request_uri` ran " +
			"first on every way to the `proxy_pass` (in its location, its `if`, or its server): a " +
			"rewrite inside an `if` runs only when the condition holds, and the finding says so. " +
			"An information-level finding: the URI form is common and often intended. Pass the path explicitly: `proxy_pass http://backend$request_uri;`, or `http://backend/$1` " +
			"after a rewrite, or omit the URI part (`proxy_pass http://backend;`).",
		Bad:  "location /api/ {\n    proxy_pass http://127.0.0.1:8080/;\n}\n",
		Good: "location /api/ {\n    proxy_pass http://127.0.0.1:8080;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_proxy_module.html#proxy_pass",
	},
}

func runProxyPassNormalized(p *analyzer.Pass) {
	rewrites := analyzer.NewPerBlock(p, taint.RawRewritesOf)
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, stack []*parser.Directive) {
		if !d.Is("proxy_pass") || len(d.Args()) != 1 || analyzer.InStream(stack, ctx) {
			return
		}
		if loc := analyzer.Innermost(stack, "location"); loc != nil {
			if l, err := parser.LocationSpec(loc); err == nil && l.Modifier == grammar.ModExact {
				return // the whole URI is fixed: nothing of the client's path is passed
			}
		}
		path, pathVars, ok := proxyPassPath(d.Args()[0].Value)
		if !ok {
			return
		}
		if pathVars {
			normalizedVarPass(p, d, rewrites, stack)
			return
		}
		if path != "" {
			diag := p.Reportf(d.File, d.Args()[0].Range, "%q with the URI %q passes the decoded, normalized path upstream", "proxy_pass", path)
			diag.Detail = "nginx substitutes the location prefix in the normalized URI (%2F decoded, ../ resolved); " +
				"the backend sees another path than the client sent; drop the URI part or pass $request_uri"
			return
		}
		if rw, _ := taint.RawURIRewrite(rewrites, stack); rw != nil {
			diag := p.Reportf(d.File, d.Args()[0].Range, "%q without a variable re-encodes the raw path set by %q", "proxy_pass", "rewrite ^ $request_uri")
			diag.Detail = "after rewriting to $request_uri the URI is already encoded and proxy_pass encodes it again " +
				"(%2F becomes %252F); pass it explicitly, e.g. proxy_pass http://backend$1 or $uri"
			diag.Related = []parser.Related{{File: rw.File, Range: rw.Name().Range, Message: "the rewrite to the raw request URI"}}
		}
	}, "proxy_pass")
}

// proxyPassPath returns the URI part of a proxy_pass URL as
// ngxparse.ParsePass reads it, and whether nginx builds the URL from
// variables past one that starts it. A variable that starts the URL gives
// its scheme, or its scheme and host ("$backend/api", as gixy reads it),
// and the text after it is the URI part as written. ok is false when
// nothing can be said: no scheme nginx takes, or a URL that is one
// variable with no URI part after it.
func proxyPassPath(u string) (path string, vars, ok bool) {
	pp, _ := ngxparse.ParsePass("proxy_pass", false, u)
	switch {
	case !pp.Vars:
		return pp.URI, false, !pp.BadPrefix
	case pp.VarScheme || pp.Scheme == "" && strings.HasPrefix(pp.Host, "$"):
		n := 0
		for _, t := range script.Split(u) {
			if t.Name != "" {
				n++
			}
		}
		if n > 1 {
			return "", true, true
		}
		if pp.URI == "" && !pp.VarScheme {
			return "", false, false
		}
		return pp.URI, false, true
	case pp.Scheme == "":
		return "", false, false
	}
	return pp.URI, true, true
}

// normalizedVarPass reports a proxy_pass whose URI is built from $uri
// (or $document_uri): the decoded, normalized path, unless a rewrite to
// $request_uri has replaced it with the raw one on every way to it. A
// rewrite inside an "if" does so only when the condition holds: on the
// other requests $uri is still the decoded path.
func normalizedVarPass(p *analyzer.Pass, d *parser.Directive, rewrites *analyzer.PerBlock[taint.RawRewrites], stack []*parser.Directive) {
	name := ""
	for _, part := range script.Split(d.Args()[0].Value) {
		if part.Name == "uri" || part.Name == "document_uri" {
			name = part.Name
			break
		}
	}
	if name == "" {
		return
	}
	always, inIf := taint.RawURIRewrite(rewrites, stack)
	if always != nil {
		return
	}
	diag := p.Reportf(d.File, d.Args()[0].Range, "%q passes $%s, the decoded, normalized path, upstream", "proxy_pass", name)
	diag.Detail = "the backend sees %2F as \"/\" and ../ resolved, another path than the client sent; pass $request_uri, " +
		"or rewrite ^ $request_uri first in the location itself"
	switch {
	case inIf != nil && inIf.Is("if"):
		diag.Message = fmt.Sprintf("%q passes $%s, the decoded path, on every request the %q condition does not take: its rewrite to $request_uri runs only inside it", "proxy_pass", name, "if")
		diag.Related = []parser.Related{{File: inIf.File, Range: inIf.Name().Range, Message: "the rewrite to the raw request URI is inside this if"}}
	case inIf != nil:
		diag.Message = fmt.Sprintf("%q passes $%s, the decoded path, on every request the regex %q does not match: the rewrite to $request_uri runs only when it does", "proxy_pass", name, inIf.Args()[0].Value)
		diag.Related = []parser.Related{{File: inIf.File, Range: inIf.Args()[0].Range, Message: "the rewrite to the raw request URI, which runs only when its regex matches"}}
	}
}
