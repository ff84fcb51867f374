package rules

import (
	"fmt"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// InvalidRegex reports $1..$9 that name a capture group the regex just
// matched does not have.
var InvalidRegex = &analyzer.Rule{
	Code: "NL2011", Name: "invalid-regex", Title: "reference to a capture group the regex does not have", Severity: parser.Warning,
	Run: runInvalidRegex,
	Doc: analyzer.Doc{
		Text: "`$1` to `$9` hold the groups of the last regex nginx matched. In a `rewrite` " +
			"replacement that is the rewrite's own regex, and in a `set` or `return` inside " +
			"`if ($var ~ regex)` it is the condition's. A number above the regex's group count " +
			"is always empty — even when an enclosing location's regex had that group, since each " +
			"match replaces the captures — so `rewrite ^/(.*)$ /$1/$2` quietly drops a part of " +
			"the URL. Count the groups again (`(?:...)` does not capture, named groups do), or " +
			"add the group that was meant. Regexes that Go's parser does not read (look-behind, " +
			"possessive quantifiers) are skipped.",
		Bad:  "location /old/ {\n    rewrite ^/old/(.*)$ /new/$1/$2 permanent;\n}\n",
		Good: "location /old/ {\n    rewrite ^/old/(.*)/(.*)$ /new/$1/$2 permanent;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_rewrite_module.html#rewrite",
	},
}

func runInvalidRegex(p *analyzer.Pass) {
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		switch {
		case d.Is("rewrite") && len(d.Args) >= 2:
			if re := nginxRegex(d.Args[0].Value, false); re != nil {
				checkGroupRefs(p, d, d.Args[1:2], re.MaxCap(), d.Args[0].Value)
			}
		case (d.Is("set") || d.Is("return")) && len(stack) > 0:
			ifd := stack[len(stack)-1]
			_, re, matched := ifRegex(ifd)
			if re == nil || !matched || rewriteBefore(p.Config, ifd, d) {
				return
			}
			args := d.Args
			if d.Is("set") && len(args) == 2 {
				args = args[1:]
			}
			_, _, expr, _ := ifMatch(ifd)
			checkGroupRefs(p, d, args, re.MaxCap(), expr)
		}
	}, "rewrite", "set", "return")
}

// checkGroupRefs reports the first $N in args above groups.
func checkGroupRefs(p *analyzer.Pass, d *parser.Directive, args []parser.Word, groups int, expr string) {
	for _, a := range args {
		for _, r := range splitVars(a.Value) {
			if len(r.name) != 1 || r.name[0] < '1' || r.name[0] > '9' || int(r.name[0]-'0') <= groups {
				continue
			}
			has := "no capture groups"
			if groups > 0 {
				has = fmt.Sprintf("only $1 to $%d", groups)
				if groups == 1 {
					has = "only $1"
				}
			}
			diag := p.Reportf(d.File, a.Range, "\"$%s\" refers to a group the regex %q does not have: it is always empty", r.name, expr)
			diag.Detail = "the regex has " + has + " (each match replaces the captures of the one before); " +
				"add the group or fix the number"
			return
		}
	}
}

// rewriteBefore reports whether a rewrite precedes d in the if block,
// whose regex would then have replaced the condition's captures.
func rewriteBefore(c *parser.Config, ifd, d *parser.Directive) bool {
	for _, s := range body(c, ifd) {
		if s == d {
			return false
		}
		if s.Is("rewrite") {
			return true
		}
	}
	return false
}
