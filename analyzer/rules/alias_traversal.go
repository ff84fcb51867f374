package rules

import (
	"path"
	"regexp/syntax"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/regex"
	"github.com/nginx-lint/nginx-lint/analyzer/script"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// AliasTraversal reports alias in a location whose match can end in the
// middle of a path segment ("off-by-slash").
var AliasTraversal = &analyzer.Rule{
	Code: "NL3005", Name: "alias-traversal", Title: "alias reachable with a partial path segment (off-by-slash)", Severity: parser.Error,
	Run: runAliasTraversal,
	Doc: analyzer.Doc{
		Text: "`alias` replaces the part of the URI the location matched. When the location is " +
			"`/files` (no trailing slash) and the alias `/srv/files/`, a request for `/files../secret` " +
			"matches too and is served from `/srv/files/../secret`: any file in the parent directory. " +
			"The same happens with a regex location whose capture can start with `..` and is not " +
			"preceded by a `/`. End the location with a slash (`location /files/`), or capture " +
			"only after a slash (`~ ^/files/(.*)$`).",
		Bad:  "location /files {\n    alias /srv/files/;\n}\n",
		Good: "location /files/ {\n    alias /srv/files/;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_core_module.html#alias",
	},
}

func runAliasTraversal(p *analyzer.Pass) {
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, stack []*parser.Directive) {
		if !d.Is("alias") || len(d.Args()) != 1 {
			return
		}
		loc := analyzer.Innermost(stack, "location")
		if loc == nil {
			return
		}
		l, err := parser.LocationSpec(loc)
		if err != nil || l.Named || l.Modifier == grammar.ModExact {
			return
		}
		alias := d.Args()[0].Value
		if l.IsRegex {
			if re := regex.Parse(l.Path, l.CaseInsensitive); re != nil && regexAliasTraversal(re, alias) {
				diag := p.Reportf(d.File, d.Args()[0].Range, "%q %q takes a capture of location %q that can start with \"..\": path traversal", "alias", alias, l.Path)
				diag.Detail = "the capture is not preceded by a \"/\" in the regex (or in the alias), so it can " +
					"begin a path segment with \"..\" or extend the directory name; capture after a slash, e.g. ~ ^/images/(.*)$"
			}
			return
		}
		if strings.HasSuffix(l.Path, "/") || script.HasVars(alias) {
			return
		}
		if !strings.HasSuffix(alias, "/") && strings.Contains(path.Base(alias), ".") {
			return // a single file: "location /robots.txt { alias /srv/robots.txt; }"
		}
		if strings.HasSuffix(alias, "/") {
			diag := p.Reportf(d.File, d.Args()[0].Range, "%q %q in location %q without a trailing slash: %q reaches the parent directory", "alias", alias, l.Path, l.Path+"../")
			diag.Detail = "the location also matches \"" + l.Path + "../x\", which nginx maps to \"" + alias +
				"../x\"; end the location with \"/\""
			return
		}
		// Without slashes on either side the match can still run on into
		// a sibling: "/files-old/x" is served from "/srv/files-old/x".
		diag := p.Reportf(d.File, d.Args()[0].Range, "%q %q in location %q without a trailing slash: %q reaches sibling directories", "alias", alias, l.Path, l.Path+"-x/")
		diag.Severity = parser.Warning
		diag.Detail = "the location also matches \"" + l.Path + "-x/y\", which nginx maps to \"" + alias +
			"-x/y\"; end both the location and the alias with \"/\""
	}, "alias")
}

// regexAliasTraversal reports whether the first capture the alias uses
// can start a path segment with "..": it may hold dots, may start with
// something other than "/", and is not placed right after a slash both
// in the regex and in the alias.
func regexAliasTraversal(re *syntax.Regexp, alias string) bool {
	parts := script.Split(alias)
	for i, r := range parts {
		if r.Name == "" {
			continue
		}
		n := 0
		if len(r.Name) == 1 && r.Name[0] >= '1' && r.Name[0] <= '9' {
			n = int(r.Name[0] - '0')
		}
		g := regex.Group(re, n, r.Name)
		if g == nil {
			return false
		}
		if !regex.MayContain(g, regex.RuneSet{Rune: '.'}) {
			return false
		}
		if other, _ := regex.MayStart(g, regex.RuneSet{Rune: '/', Other: true}); !other {
			return false
		}
		aliasSlash := i > 0 && strings.HasSuffix(parts[i-1].Text, "/")
		prev := regex.BeforeGroup(re, g.Cap)
		regexSlash := prev != nil && prev.Op == syntax.OpLiteral && len(prev.Rune) > 0 && prev.Rune[len(prev.Rune)-1] == '/'
		if first := firstConsuming(re); first == g {
			// A group that opens the regex matches from the start of the
			// URI, which is normalized and begins with "/": ".." cannot
			// lead it. (Unanchored too: if a match exists at all, one
			// starts at the first character.)
			if slash, _ := regex.MayStart(g, regex.RuneSet{Rune: '/'}); slash {
				regexSlash = true
			}
		}
		return !aliasSlash || !regexSlash
	}
	return false
}

// firstConsuming returns the first node of re that consumes input,
// looking through groups and start anchors, or nil.
func firstConsuming(re *syntax.Regexp) *syntax.Regexp {
	switch re.Op {
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			switch sub.Op {
			case syntax.OpBeginText, syntax.OpBeginLine, syntax.OpEmptyMatch:
				continue
			}
			return sub
		}
	case syntax.OpCapture:
		return re
	}
	return nil
}
