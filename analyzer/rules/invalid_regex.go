package rules

import (
	"fmt"
	"regexp/syntax"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/regex"
	"github.com/nginx-lint/nginx-lint/analyzer/script"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
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
			"add the group that was meant. Elsewhere (`add_header`, `proxy_pass`, `try_files`, a " +
			"`set` outside such an `if`, ...) `$N` holds whatever regex last matched: it is " +
			"reported when no regex of the server (locations, ifs, rewrites, server names) nor any " +
			"map regex has that many groups, since an internal redirect may come from any of them. " +
			"A map's regex entry is judged by its own key, `proxy_redirect` and `proxy_cookie_*` " +
			"with a regex by that regex. Groups are counted as PCRE2 does (look-behind, possessive " +
			"quantifiers and the like included); a regex that does not compile is `regex-syntax`'s.",
		Bad:  "location /old/ {\n    rewrite ^/old/(.*)$ /new/$1/$2 permanent;\n}\n",
		Good: "location /old/ {\n    rewrite ^/old/(.*)/(.*)$ /new/$1/$2 permanent;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_rewrite_module.html#rewrite",
	},
}

func runInvalidRegex(p *analyzer.Pass) {
	// The scopes are collected on the first $N that needs them: most
	// configurations have none.
	var scopes *captureScope
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		switch {
		case d.Is("map"):
			checkMapValues(p, d)
			return
		case d.Is("rewrite") && len(d.Args()) >= 2:
			if groups, ok := pcreGroups(d.Args()[0].Value); ok {
				checkGroupRefs(p, d, d.Args()[1:2], groups, d.Args()[0].Value)
			}
			return
		case (d.Is("set") || d.Is("return")) && len(stack) > 0:
			ifd := stack[len(stack)-1]
			if _, op, expr, ok := symbols.IfMatch(ifd); ok && op[0] != '!' {
				// A matching if's own regex sets the captures.
				if rewriteBefore(p, ifd, d) {
					return
				}
				if groups, ok := pcreGroups(expr); ok {
					args := d.Args()
					if d.Is("set") && len(args) == 2 {
						args = args[1:]
					}
					checkGroupRefs(p, d, args, groups, expr)
				}
				return
			}
		}
		if d.Is("map") || d.Is("if") || !hasCaptureRef(d) {
			return
		}
		if scopes == nil {
			scopes = captureScopes(p)
		}
		checkScopeRefs(p, d, stack, scopes)
	}, captureUsers...)
}

// captureUsers are the directives whose values may read $1..$9: the
// rewrite module's, and those whose values nginx evaluates per request.
var captureUsers = []string{
	"map", "rewrite", "set", "return", "if",
	"add_header", "add_trailer", "more_set_headers", "expires",
	"proxy_pass", "fastcgi_pass", "grpc_pass", "uwsgi_pass", "scgi_pass", "memcached_pass",
	"proxy_set_header", "grpc_set_header", "fastcgi_param", "uwsgi_param", "scgi_param",
	"proxy_redirect", "proxy_cookie_path", "proxy_cookie_domain", "proxy_cache_key",
	"try_files", "root", "alias", "index", "error_page", "auth_request_set", "sub_filter",
}

// captureScope is the most capture groups any regex of a server (or, for
// directives outside servers, of the http block) may leave in $1..$9.
// Internal redirects (try_files, error_page, rewrite ... last) can carry a
// request from one location to any other of its server, so every regex of
// the server counts; map regexes run whenever their variable is read, so
// every map regex counts too.
type captureScope struct {
	server map[*parser.Directive]int // by server block
	outer  map[*parser.Directive]int // by http/stream block, every regex inside
	maps   int
}

const anyCaptures = 9

// captureScopes collects the capture counts per server from the index: the
// regexes of locations, ifs, rewrites, server names and maps.
func captureScopes(p *analyzer.Pass) *captureScope {
	sc := &captureScope{server: map[*parser.Directive]int{}, outer: map[*parser.Directive]int{}}
	var groups regex.VerdictMemo[int]
	regexGroups := func(expr string, caseless bool) int { return groups.Get(expr, caseless, regexGroupCount) }
	add := func(stack []*parser.Directive, n int) {
		if s := analyzer.Innermost(stack, "server"); s != nil {
			sc.server[s] = max(sc.server[s], n)
		}
		if len(stack) > 0 {
			sc.outer[stack[0]] = max(sc.outer[stack[0]], n)
		}
	}
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		switch {
		case d.Is("location"):
			if l, err := parser.LocationSpec(d); err == nil && l.IsRegex {
				add(stack, regexGroups(l.Path, l.CaseInsensitive))
			}
		case d.Is("if"):
			if _, _, expr, ok := symbols.IfMatch(d); ok {
				add(stack, regexGroups(expr, false))
			}
		case d.Is("rewrite"):
			if len(d.Args()) > 0 {
				add(stack, regexGroups(d.Args()[0].Value, false))
			}
		case d.Is("server_name"):
			for _, a := range d.Args() {
				if strings.HasPrefix(a.Value, "~") {
					add(stack, regexGroups(a.Value[1:], true))
				}
			}
		case d.Is("map"):
			for _, e := range p.Body(d) {
				if expr, ci, ok := mapRegexKey(e); ok {
					n := regexGroups(expr, ci)
					sc.maps = max(sc.maps, n)
					add(stack, n)
				}
			}
		}
	}, "location", "if", "rewrite", "server_name", "map")
	return sc
}

// regexGroupCount counts the groups of an nginx regex; one Go cannot
// read (atomic groups, possessive quantifiers) may have any number.
func regexGroupCount(re *syntax.Regexp) int {
	if re == nil {
		return anyCaptures
	}
	return re.MaxCap()
}

// mapRegexKey returns the regex of a map entry "~re value" or "~*re value".
func mapRegexKey(e *parser.Directive) (expr string, caseless, ok bool) {
	k := e.Name().Value
	if !strings.HasPrefix(k, "~") || len(e.Args()) != 1 {
		return "", false, false
	}
	if strings.HasPrefix(k, "~*") {
		return k[2:], true, true
	}
	return k[1:], false, true
}

// checkMapValues checks $N in the value of each regex entry against its
// own key. Static and default entries run no regex; their $N read whatever
// matched last and are not judged.
func checkMapValues(p *analyzer.Pass, m *parser.Directive) {
	for _, e := range p.Body(m) {
		expr, ci, ok := mapRegexKey(e)
		if !ok {
			continue
		}
		if re := regex.Parse(expr, ci); re != nil {
			checkGroupRefs(p, e, e.Args(), re.MaxCap(), e.Name().Value)
		}
	}
}

// checkScopeRefs reports a $N (d has one, see hasCaptureRef) that no regex of the directive's server (or
// of its http block, outside servers) can have set.
func checkScopeRefs(p *analyzer.Pass, d *parser.Directive, stack []*parser.Directive, sc *captureScope) {
	switch d.Name().Value {
	case "proxy_redirect", "proxy_cookie_path", "proxy_cookie_domain":
		// "~regex replacement": the replacement reads the directive's own
		// regex, matched against the upstream's header.
		if len(d.Args()) == 2 && strings.HasPrefix(d.Args()[0].Value, "~") {
			expr, ci := d.Args()[0].Value[1:], false
			if strings.HasPrefix(expr, "*") {
				expr, ci = expr[1:], true
			}
			if re := regex.Parse(expr, ci); re != nil {
				checkGroupRefs(p, d, d.Args()[1:], re.MaxCap(), d.Args()[0].Value)
			}
			return
		}
	}
	groups := sc.maps
	if s := analyzer.Innermost(stack, "server"); s != nil {
		groups = max(groups, sc.server[s])
	} else if len(stack) > 0 && (stack[0].Is("http") || stack[0].Is("stream")) {
		groups = max(groups, sc.outer[stack[0]])
	} else {
		return // a snippet outside any server: the server's regexes are unknown
	}
	if groups >= anyCaptures {
		return
	}
	for _, a := range d.Args() {
		for _, r := range script.Split(a.Value) {
			if len(r.Name) != 1 || r.Name[0] < '1' || r.Name[0] > '9' || int(r.Name[0]-'0') <= groups {
				continue
			}
			var diag *parser.Diagnostic
			if groups == 0 {
				diag = p.Reportf(d.File, a.Range, "\"$%s\" refers to a capture, but no regex here captures anything: it is always empty", r.Name)
			} else {
				diag = p.Reportf(d.File, a.Range, "\"$%s\" refers to a capture that no regex here has (at most $%d): it is always empty", r.Name, groups)
			}
			diag.Detail = "$1..$9 hold the groups of the last regex matched (a regex location, if, rewrite, server_name or map); " +
				"use a regex location with the group, or a named capture"
			return
		}
	}
}

// hasCaptureRef reports quickly whether an argument of d mentions $1..$9.
func hasCaptureRef(d *parser.Directive) bool {
	for _, a := range d.Args() {
		s := a.Value
		for i := strings.IndexByte(s, '$'); i >= 0 && i+1 < len(s); {
			c := s[i+1]
			if c >= '1' && c <= '9' || c == '{' && i+2 < len(s) && s[i+2] >= '1' && s[i+2] <= '9' {
				return true
			}
			j := strings.IndexByte(s[i+1:], '$')
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	return false
}

// pcreGroups counts the capture groups of a regex PCRE2 compiles; a
// branch reset group (?|...) numbers its alternatives alike, which the
// count does not follow, so such regexes are not judged.
func pcreGroups(expr string) (int, bool) {
	if regex.Check(expr) != nil || strings.Contains(expr, "(?|") {
		return 0, false
	}
	return regex.Groups(expr), true
}

// checkGroupRefs reports the first $N in args above groups.
func checkGroupRefs(p *analyzer.Pass, d *parser.Directive, args []parser.Word, groups int, expr string) {
	for _, a := range args {
		for _, r := range script.Split(a.Value) {
			if len(r.Name) != 1 || r.Name[0] < '1' || r.Name[0] > '9' || int(r.Name[0]-'0') <= groups {
				continue
			}
			has := "no capture groups"
			if groups > 0 {
				has = fmt.Sprintf("only $1 to $%d", groups)
				if groups == 1 {
					has = "only $1"
				}
			}
			diag := p.Reportf(d.File, a.Range, "\"$%s\" refers to a group the regex %q does not have: it is always empty", r.Name, expr)
			diag.Detail = "the regex has " + has + " (each match replaces the captures of the one before); " +
				"add the group or fix the number"
			return
		}
	}
}

// rewriteBefore reports whether a rewrite precedes d in the if block,
// whose regex would then have replaced the condition's captures.
func rewriteBefore(p *analyzer.Pass, ifd, d *parser.Directive) bool {
	for _, s := range p.Body(ifd) {
		if s == d {
			return false
		}
		if s.Is("rewrite") {
			return true
		}
	}
	return false
}
