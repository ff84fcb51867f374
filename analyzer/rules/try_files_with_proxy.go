package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// TryFilesWithProxy reports a location that has both try_files and a
// *_pass: the two compete for the same request.
var TryFilesWithProxy = &analyzer.Rule{
	Code: "NL2051", Name: "try-files-with-proxy", Title: "try_files and proxy_pass in one location", Severity: parser.Warning,
	Run: runTryFilesWithProxy,
	Doc: analyzer.Doc{
		Text: "`try_files` runs before the content handler: when a file exists, the request keeps " +
			"its URI and still goes to `proxy_pass` (the file is not served), and when none exists " +
			"nginx redirects internally to the last argument, so the proxy is only reached for " +
			"requests that name an existing file, which is rarely what was meant (a final `=404`, " +
			"the usual guard in front of `fastcgi_pass`, is not reported). Serve files in " +
			"the location and proxy the rest through a named location: " +
			"`try_files $uri $uri/ @backend;` with `location @backend { proxy_pass ...; }`.",
		Bad:  "location / {\n    try_files $uri $uri/ /index.html;\n    proxy_pass http://backend;\n}\n",
		Good: "location / {\n    try_files $uri $uri/ @backend;\n}\nlocation @backend {\n    proxy_pass http://backend;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_core_module.html#try_files",
	},
}

func runTryFilesWithProxy(p *analyzer.Pass) {
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if len(stack) == 0 || !stack[len(stack)-1].Is("location") || len(d.Args()) == 0 {
			return
		}
		// "try_files $uri =404;" before fastcgi_pass is the guard that
		// keeps a backend from running files that do not exist: meant.
		if last := d.Args()[len(d.Args())-1].Value; len(last) > 1 && last[0] == '=' {
			return
		}
		loc := stack[len(stack)-1]
		for _, c := range loc.Children() {
			for _, sink := range ssrfSinks {
				if c.Is(sink) {
					diag := p.ReportDirective(d, "%q and %q in the same location: requests for existing files go to the proxy, the others to the fallback", "try_files", sink)
					diag.Detail = "proxy from a named location that try_files falls back to (try_files $uri $uri/ @backend;)"
					diag.Related = []parser.Related{{File: c.File, Range: c.Name().Range, Message: "the proxy"}}
					return
				}
			}
		}
	}, "try_files")
}
