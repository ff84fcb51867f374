package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/script"
	"github.com/nginx-lint/nginx-lint/analyzer/taint"
	"github.com/nginx-lint/nginx-lint/parser"
)

// CORSOriginReflection reports an Access-Control-Allow-Origin header that
// echoes the request's Origin back.
var CORSOriginReflection = &analyzer.Rule{
	Code: "NL3022", Name: "cors-origin-reflection", Title: "Access-Control-Allow-Origin echoes any Origin", Severity: parser.Warning,
	Run: runCORSOriginReflection,
	Doc: analyzer.Doc{
		Text: "`add_header Access-Control-Allow-Origin $http_origin;` tells every browser that every site " +
			"may read the response: the same as `*`, but also allowed together with " +
			"`Access-Control-Allow-Credentials: true`, which `*` is not, so any site a user visits can " +
			"read their authenticated data (reported as an error then). The value is followed through " +
			"`set` and through a `map` whose `default` is the Origin. Allow a list instead: " +
			"`map $http_origin $cors { default \"\"; \"https://app.example.com\" $http_origin; }` (the " +
			"`origins` rule checks regex entries of such maps).",
		Bad: "location /api/ {\n    add_header Access-Control-Allow-Origin $http_origin;\n" +
			"    add_header Access-Control-Allow-Credentials true;\n}\n",
		Good: "map $http_origin $cors {\n    default \"\";\n    \"https://app.example.com\" $http_origin;\n}\n" +
			"server {\n    location /api/ {\n        add_header Access-Control-Allow-Origin $cors;\n" +
			"        add_header Access-Control-Allow-Credentials true;\n    }\n}\n",
		URL: "https://developer.mozilla.org/docs/Web/HTTP/Headers/Access-Control-Allow-Origin",
	},
}

func runCORSOriginReflection(p *analyzer.Pass) {
	var env *taint.Env
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if len(d.Args()) < 2 || !strings.EqualFold(d.Args()[0].Value, "Access-Control-Allow-Origin") || !script.HasVars(d.Args()[1].Value) {
			return
		}
		if env == nil {
			env = taint.NewEnv(p)
		}
		via, ok := reflectsOrigin(env, d.Args()[1].Value, stack, 0)
		if !ok {
			return
		}
		msg := "\"Access-Control-Allow-Origin\" echoes the request's Origin"
		if via != "" {
			msg += " (through $" + via + ")"
		}
		if cred := credentialsAllowed(stack, d); cred != nil {
			diag := p.Reportf(d.File, d.Args()[1].Range, "%s and credentials are allowed: any site can read users' data", msg)
			diag.Severity = parser.Error
			diag.Detail = "list the trusted origins in a map with an empty default"
			diag.Related = []parser.Related{{File: cred.File, Range: cred.Name().Range, Message: "credentials allowed here"}}
			return
		}
		diag := p.Reportf(d.File, d.Args()[1].Range, "%s: every site may read the response", msg)
		diag.Detail = "list the trusted origins in a map with an empty default, or send \"*\" if the data is public"
	}, "add_header")
}

// reflectsOrigin reports whether value may be the request's Origin header
// unchecked: $http_origin itself, a variable set to it, or a map that
// falls back to it. via names the variable it went through, if any.
func reflectsOrigin(env *taint.Env, value string, stack []*parser.Directive, depth int) (via string, ok bool) {
	if depth > 4 {
		return "", false
	}
	for _, r := range script.Split(value) {
		switch {
		case r.Name == "":
			continue
		case r.Name == "http_origin":
			return "", true
		}
		for _, s := range env.VisibleSets(r.Name, stack) {
			if _, ok := reflectsOrigin(env, s.Directive.Args()[1].Value, s.Stack, depth+1); ok {
				return r.Name, true
			}
		}
		for _, e := range env.Map(r.Name) {
			if e.Key != "default" {
				continue
			}
			if _, ok := reflectsOrigin(env, e.Value, nil, depth+1); ok {
				return r.Name, true
			}
		}
	}
	return "", false
}

// credentialsAllowed returns the add_header in d's block that allows
// credentials, or nil.
func credentialsAllowed(stack []*parser.Directive, d *parser.Directive) *parser.Directive {
	siblings := d.File.Directives
	if len(stack) > 0 {
		siblings = stack[len(stack)-1].Children()
	}
	for _, c := range siblings {
		if c.Is("add_header") && len(c.Args()) >= 2 && strings.EqualFold(c.Args()[0].Value, "Access-Control-Allow-Credentials") &&
			strings.EqualFold(c.Args()[1].Value, "true") {
			return c
		}
	}
	return nil
}
