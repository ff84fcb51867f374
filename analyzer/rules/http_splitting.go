package rules

import (
	"strconv"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/script"
	"github.com/nginx-lint/nginx-lint/analyzer/taint"
	"github.com/nginx-lint/nginx-lint/parser"
)

// HTTPSplitting reports headers, redirects and upstream requests built
// from variables that can hold a decoded CR or LF.
var HTTPSplitting = &analyzer.Rule{
	Code: "NL3002", Name: "http-splitting", Title: "header or upstream request built from a value that can hold a newline", Severity: parser.Error,
	Run: runHTTPSplitting,
	Doc: analyzer.Doc{
		Text: "`$uri`, `$document_uri` and regex captures of the path are percent-decoded, so a " +
			"request for `/%0D%0ASet-Cookie:x` puts a CR LF into them. Written into a response " +
			"header (`add_header`, a `return` or `rewrite` redirect) or into the request line sent " +
			"upstream (`proxy_pass`, `proxy_set_header`), it ends the line early and lets the client " +
			"inject headers or a whole request (HTTP response splitting, request smuggling). Use " +
			"`$request_uri` (raw, still encoded) instead of `$uri`, and capture with classes that " +
			"exclude newlines (`[^\\r\\n]*` or `[^/]+` is not enough: it still matches `\\n`).",
		Bad:  "location / {\n    return 301 https://example.com$uri;\n}\n",
		Good: "location / {\n    return 301 https://example.com$request_uri;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_core_module.html#var_uri",
	},
}

func runHTTPSplitting(p *analyzer.Pass) {
	var env *taint.Env
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, stack []*parser.Directive) {
		arg, lfOnly := splittingSink(d)
		if arg < 0 || analyzer.InStream(stack, ctx) || !script.HasVars(d.Args()[arg].Value) {
			return
		}
		if env == nil {
			env = taint.NewEnv(p)
		}
		var t taint.Value
		if d.Is("rewrite") {
			// nginx escapes the rewrite's own captures when it builds
			// the new URI, so only other variables can inject.
			if re := env.Regex(d.Args()[0].Value, false); re != nil {
				t = env.OfWith(d.Args()[arg].Value, stack, &taint.Scope{Re: re, Subject: ""}, true)
			}
		} else {
			t = env.Of(d.Args()[arg].Value, stack)
		}
		if !t.LF && (lfOnly || !t.CR) {
			return
		}
		diag := p.Reportf(d.File, d.Args()[arg].Range, "%q value %q can hold a CR/LF from the request: HTTP splitting", d.Name().Value, d.Args()[arg].Value)
		diag.Detail = "the value comes from the decoded request path (or a capture of it) and may contain \"%0D%0A\"; " +
			"use $request_uri instead of $uri, or capture with a class that excludes \\r and \\n"
	}, "proxy_pass", "add_header", "add_trailer", "proxy_set_header", "grpc_set_header", "rewrite", "return")
}

// splittingSink returns the argument of d that ends up in a header line
// or in the upstream request line, or -1. lfOnly is set where a lone CR
// is harmless (the upstream request line, which nginx writes as is and
// backends split on LF).
func splittingSink(d *parser.Directive) (arg int, lfOnly bool) {
	n := len(d.Args())
	switch d.Name().Value {
	case "proxy_pass":
		if n == 1 {
			return 0, true
		}
	case "add_header", "add_trailer", "proxy_set_header", "grpc_set_header":
		if n >= 2 {
			return 1, false
		}
	case "rewrite":
		if n >= 2 {
			return 1, false
		}
	case "return":
		// "return URL" and "return 301..308 URL" send a Location header;
		// other codes send a body, where newlines are harmless.
		if n == 1 {
			if _, err := strconv.Atoi(d.Args()[0].Value); err != nil {
				return 0, false
			}
		}
		if n == 2 {
			switch d.Args()[0].Value {
			case "301", "302", "303", "307", "308":
				return 1, false
			}
		}
	}
	return -1, false
}
