package rules

import (
	"fmt"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/rules/internal/pcre"
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
			"add the group that was meant. Groups are counted as PCRE2 does (look-behind, possessive " +
			"quantifiers and the like included); a regex that does not compile is `regex-syntax`'s.",
		Bad:  "location /old/ {\n    rewrite ^/old/(.*)$ /new/$1/$2 permanent;\n}\n",
		Good: "location /old/ {\n    rewrite ^/old/(.*)/(.*)$ /new/$1/$2 permanent;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_rewrite_module.html#rewrite",
	},
}

func runInvalidRegex(p *analyzer.Pass) {
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		switch {
		case d.Is("rewrite") && len(d.Args) >= 2:
			if groups, ok := pcreGroups(d.Args[0].Value); ok {
				checkGroupRefs(p, d, d.Args[1:2], groups, d.Args[0].Value)
			}
		case (d.Is("set") || d.Is("return")) && len(stack) > 0:
			ifd := stack[len(stack)-1]
			_, op, expr, ok := ifMatch(ifd)
			if !ok || op[0] == '!' || rewriteBefore(p.Config, ifd, d) {
				return
			}
			groups, ok := pcreGroups(expr)
			if !ok {
				return
			}
			args := d.Args
			if d.Is("set") && len(args) == 2 {
				args = args[1:]
			}
			checkGroupRefs(p, d, args, groups, expr)
		}
	}, "rewrite", "set", "return")
}

// pcreGroups counts the capture groups of a regex PCRE2 compiles; a
// branch reset group (?|...) numbers its alternatives alike, which the
// count does not follow, so such regexes are not judged.
func pcreGroups(expr string) (int, bool) {
	if pcre.Check(expr) != nil || strings.Contains(expr, "(?|") {
		return 0, false
	}
	return pcre.Groups(expr), true
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
