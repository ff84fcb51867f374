package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// tokensMissing makes version-disclosure report an unset server_tokens.
var tokensMissing = analyzer.BoolOption("missing", false, "Also report a configuration whose http block never sets server_tokens (it defaults to on).")

// VersionDisclosure reports server_tokens settings that put the nginx
// version in the Server header and error pages.
var VersionDisclosure = &analyzer.Rule{
	Code: "NL3009", Name: "version-disclosure", Title: "nginx version sent in the Server header and error pages", Severity: parser.Warning,
	Fixable: true,
	Run:     runVersionDisclosure,
	Options: []analyzer.Option{tokensMissing.Decl()},
	Doc: analyzer.Doc{
		Text: "With `server_tokens on` (the default) nginx sends `Server: nginx/1.x.y` and prints the " +
			"version on its error pages; `build` adds the build name. The exact version tells a " +
			"scanner which published vulnerabilities to try. Set `server_tokens off;` in the http " +
			"block. (Removing the `Server` header entirely needs headers-more's " +
			"`more_clear_headers Server;` or the commercial `server_tokens \"\"`.) With the option " +
			"`missing: true`, a whole configuration whose http block never sets `server_tokens` is " +
			"reported too (off by default: the finding would sit on nearly every config).",
		Bad:  "events {}\nhttp {\n    server_tokens on;\n}\n",
		Good: "events {}\nhttp {\n    server_tokens off;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_core_module.html#server_tokens",
	},
}

func runVersionDisclosure(p *analyzer.Pass) {
	missing := tokensMissing.Get(p)
	// The servers matter only to the missing check: a big configuration
	// has tens of thousands.
	names := []string{"http", "server_tokens"}
	if missing {
		names = append(names, "server")
	}
	var httpBlock *parser.Directive
	httpOff := false
	// The http servers, and those that turn the setting off themselves.
	var servers []*parser.Directive
	serverOff := map[*parser.Directive]bool{}
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, stack []*parser.Directive) {
		if d.Is("http") && d.Block != nil && len(stack) == 0 && httpBlock == nil {
			httpBlock = d
		}
		if d.Is("server") {
			if len(stack) == 1 && stack[0] == httpBlock {
				servers = append(servers, d)
			}
			return
		}
		if !d.Is("server_tokens") || len(d.Args()) != 1 {
			return
		}
		// stream and mail have no server_tokens (directive-not-allowed
		// says so); there is no header to disclose anything in.
		if analyzer.Innermost(stack, "stream") != nil || analyzer.Innermost(stack, "mail") != nil {
			return
		}
		v := strings.ToLower(d.Args()[0].Value)
		if v == "on" || v == "build" {
			diag := p.Reportf(d.File, d.Args()[0].Range, "%q %q discloses the nginx version", "server_tokens", d.Args()[0].Value)
			diag.Detail = "the Server header and error pages name the exact version; set \"server_tokens off;\""
			diag.Edits = []parser.Edit{{File: d.File, Range: d.Args()[0].Range, NewText: "off"}}
			return
		}
		if len(stack) == 1 && stack[0] == httpBlock {
			httpOff = true
		}
		if len(stack) == 2 && stack[0] == httpBlock && stack[1].Is("server") {
			serverOff[stack[1]] = true
		}
	}, names...)
	// The default is on: a whole configuration without the setting at the
	// http level leaks the version from every server that does not set it.
	// Servers that turn it off themselves do not leak.
	leaks := len(servers) == 0
	for _, sv := range servers {
		if !serverOff[sv] {
			leaks = true
			break
		}
	}
	if missing && leaks && httpBlock != nil && !httpOff && len(p.Config.Context) == 0 {
		diag := p.ReportDirective(httpBlock, "%q is not set, so it defaults to %q and discloses the nginx version", "server_tokens", "on")
		diag.Detail = "add \"server_tokens off;\" to the http block"
	}
}
