package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// EmptyUpstream reports an upstream block without any server.
var EmptyUpstream = &analyzer.Rule{
	Code: "NL2019", Name: "empty-upstream", Title: "upstream block without servers", Severity: parser.Error,
	Refuses: true,
	Run:     runEmptyUpstream,
	Doc: analyzer.Doc{
		Text: "nginx refuses to start on an `upstream` block (http or stream) that holds no `server` " +
			"(`no servers are inside upstream`), at the block's closing brace. A common cause is a " +
			"block directive of a module this nginx lacks read as an upstream named after it, or " +
			"servers kept in an included file that matches nothing. An upstream whose servers are " +
			"all `backup` has no server to stand in for either (`no servers in upstream \"app\"`).",
		Bad:  "events {}\nhttp {\n    upstream app {\n        keepalive 8;\n    }\n}\n",
		Good: "events {}\nhttp {\n    upstream app {\n        server 127.0.0.1:8080;\n        keepalive 8;\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_upstream_module.html#upstream",
	},
}

func runEmptyUpstream(p *analyzer.Pass) {
	for _, u := range p.Model().Upstreams {
		d := u.Directive
		if u.Protocol == parser.Mail {
			continue // an upstream misplaced in mail: directive-not-allowed
		}
		if len(u.Servers) > 0 && allBackup(u.Servers) && len(d.Args()) == 1 && !missingInclude(p.Config, d.Block.Directives) {
			// ngx_http_upstream_init_round_robin counts the primary
			// servers once the whole configuration is read, and names
			// the upstream's own line.
			diag := p.ReportDirective(d, "no servers in upstream \"%s\"", u.Name)
			diag.Detail = "every server of the upstream is a backup, and backups only stand in for primary servers; drop backup from at least one"
			continue
		}
		if len(u.Servers) > 0 || d.Block == nil || d.RBrace() < 0 || len(d.Args()) != 1 || missingInclude(p.Config, d.Block.Directives) ||
			moduleServers(d.Block.Directives) {
			continue
		}
		diag := p.Reportf(d.File, parser.Range{Start: d.RBrace(), End: d.RBrace() + 1}, "no servers are inside upstream")
		diag.Detail = "upstream \"" + u.Name + "\" has no server directive; add one (server 127.0.0.1:8080;) or remove the block"
		diag.Related = []parser.Related{{File: d.File, Range: d.Name().Range, Message: "the upstream"}}
	}
}

// moduleServers reports whether an upstream block holds a directive of a
// module other than nginx's, which may give the upstream its servers
// (ngx_postgres's postgres_server, drizzle_server, ...): a directive
// nginx-lint does not know, or a third-party one.
func moduleServers(dirs []*parser.Directive) bool {
	for _, d := range dirs {
		rows := directives.Lookup(d.Name().Value)
		if len(rows) == 0 {
			return true
		}
		for _, r := range rows {
			if r.ThirdParty && strings.HasSuffix(d.Name().Value, "_server") {
				return true
			}
		}
	}
	return false
}

// allBackup reports whether every server has the backup parameter.
func allBackup(servers []*parser.Directive) bool {
	for _, s := range servers {
		backup := false
		for _, a := range s.Args() {
			backup = backup || a.Value == "backup"
		}
		if !backup {
			return false
		}
	}
	return true
}

// missingInclude reports whether dirs hold an include that loaded no
// file, whose content the linter therefore cannot see.
func missingInclude(c *parser.Config, dirs []*parser.Directive) bool {
	for _, d := range dirs {
		if d.Name().Value == "include" && len(c.Included(d)) == 0 {
			return true
		}
	}
	return false
}
