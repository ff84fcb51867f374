package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/routing/routepass"
	"github.com/nginx-lint/nginx-lint/parser"
)

// RewriteLoop reports a rewrite whose every new URI the location search
// brings back to the same location, where the rewrite matches it again.
var RewriteLoop = &analyzer.Rule{
	Code: "NL2058", Name: "rewrite-loop", Title: "rewrite ... last that sends requests back to its own location", Severity: parser.Warning,
	Run: runRewriteLoop,
	Doc: analyzer.Doc{
		Text: "`rewrite ... last` searches the locations again with the new URI. When every URI the " +
			"rewrite can make falls in the same location, and its regex matches that URI again, the " +
			"request is rewritten again and again (`/download/x`, `/download/files/x`, " +
			"`/download/files/files/x`, ...) until nginx stops after ten URI changes: the client gets " +
			"a 500 and the error log says `rewrite or internal redirection cycle while processing`. " +
			"The classic case is `rewrite ^/download/(.*)$ /download/files/$1 last;` inside " +
			"`location /download/`, or a front controller `rewrite ^ /index.php last;` in `location " +
			"/` without a location for `.php`. Use `break` to handle the new URI in this location, or " +
			"send it where no rewrite takes it again.\n\n" +
			"nginx-lint reports it when it holds for every request: the rewrite runs on every request " +
			"of the location (the first of its rewrite directives other than `set`, not inside an " +
			"`if`), and the URIs its replacement can make (its text, each capture any string the " +
			"regex's group matches, each variable any string) all match the regex and are all taken " +
			"to this location by the location search, computed with automata of the regexes.",
		Bad:  "server {\n    listen 80;\n    location /download/ {\n        rewrite ^/download/(.*)$ /download/files/$1 last;\n    }\n}\n",
		Good: "server {\n    listen 80;\n    location /download/ {\n        rewrite ^/download/(.*)$ /download/files/$1 break;\n        root /srv;\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_rewrite_module.html#rewrite",
	},
}

func runRewriteLoop(p *analyzer.Pass) {
	for _, server := range routepass.ServersWith(p, "rewrite") {
		for _, lp := range serverLoops.Get(p, server) {
			if len(lp.Steps) != 1 {
				continue
			}
			st := lp.Steps[0]
			flag := "\"last\""
			if len(st.Rewrite.Args()) < 3 {
				flag = "no flag (a rewrite without one at the end of the location searches the locations again, as \"last\")"
			}
			if st.URI != "" {
				diag := p.ReportDirective(st.Rewrite, "%q sends requests to %q, which location %s takes again, where the rewrite matches it again",
					"rewrite", st.URI, locationRef(st.Location))
				diag.Detail = "with " + flag + ", every request that reaches this rewrite is rewritten until nginx stops after 10 URI changes and answers 500 (\"rewrite or internal redirection cycle\"); use \"break\", or send it to a location that does not rewrite it again"
				continue
			}
			diag := p.ReportDirective(st.Rewrite, "%q makes URIs starting with %q, which location %s takes again, where the rewrite matches them again",
				"rewrite", st.Prefix, locationRef(st.Location))
			diag.Detail = "with " + flag + ", every request that reaches this rewrite is rewritten until nginx stops after 10 URI changes and answers 500 (\"rewrite or internal redirection cycle\"); use \"break\" to handle the new URI here"
		}
	}
}
