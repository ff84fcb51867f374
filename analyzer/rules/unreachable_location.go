package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// UnreachableLocation reports locations that the location search never
// chooses: a regex whose every URI an earlier regex, or an exact or "^~"
// location, takes first, and a prefix location whose every URI a regex
// of its level takes.
var UnreachableLocation = &analyzer.Rule{
	Code: "NL2052", Name: "unreachable-location", Title: "location that no request can reach", Severity: parser.Warning,
	Run: runUnreachableLocation,
	Doc: analyzer.Doc{
		Text: "nginx chooses a location in two steps (`ngx_http_core_find_location`): the exact " +
			"location equal to the URI or else the longest prefix, then, unless that is an exact " +
			"match or a `^~` prefix, the regex locations of the level in the order written, the first " +
			"that matches winning. A location that this search can never end at is dead code, and " +
			"usually a mistake:\n\n" +
			"- a regex whose every URI an earlier regex also matches: `location ~ /api` before " +
			"`location ~ /api/v1` sends `/api/v1/...` to the first, and `~ \\.css$` and `~ \\.js$` " +
			"together take everything `~ \\.(css|js)$` would;\n" +
			"- a regex whose every URI starts with the path of a `^~` location (or is an exact " +
			"location's), when no longer prefix location could be chosen instead: the search stops " +
			"before any regex is tried;\n" +
			"- a prefix location (without nested locations) whose every URI a regex of its level " +
			"matches: `location /api/v1/` beside `location ~ ^/api` never answers, because regexes " +
			"are tried after the longest prefix, whatever the order. Make it `^~ /api/v1/` or " +
			"narrow the regex.\n\n" +
			"Regexes are compared as languages, not as text, by automata built from the regex as " +
			"PCRE reads it (PCRE's `$` also matches before a final newline, so `location ~ ^/x$` is " +
			"reached by `/x%0A` beside `location = /x`). A regex that cannot be compared that way " +
			"(`\\s`, `\\b`, backreferences, lookaround) is never reported, nor is a prefix location " +
			"that nginx answers with a redirect when its path is asked without the final slash " +
			"(`proxy_pass` and the other `*_pass`).",
		Bad:  "location ~ /api {\n    proxy_pass http://127.0.0.1:8080;\n}\nlocation ~ /api/v1 {\n    proxy_pass http://127.0.0.1:8081;\n}\n",
		Good: "location ~ /api/v1 {\n    proxy_pass http://127.0.0.1:8081;\n}\nlocation ~ /api {\n    proxy_pass http://127.0.0.1:8080;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_core_module.html#location",
	},
}

func runUnreachableLocation(p *analyzer.Pass) {
	// Servers of a big configuration repeat a few layouts of locations:
	// each layout is decided once (the answers are indexes into the
	// locations in Walk order).
	var results memo[string, []shadowAt]
	sets := routing.NewSets()
	for _, server := range serversWith(p, "location") {
		root := ServerLocations.Get(p, server)
		var all []*routing.Location
		root.Walk(func(l *routing.Location) { all = append(all, l) })
		if !hasRegex(all) {
			continue
		}
		shadows := results.get(layoutKey(all), func(string) []shadowAt { return unreachableIn(sets, all) })
		for _, sh := range shadows {
			reportShadow(p, all, sh)
		}
	}
}

func hasRegex(all []*routing.Location) bool {
	for _, l := range all {
		if l.Regex() != nil {
			return true
		}
	}
	return false
}

// shadowAt is a routing.Shadow by the locations' indexes in Walk order.
type shadowAt struct {
	loc            int
	regexes, stops []int
}

func unreachableIn(sets *routing.Sets, all []*routing.Location) []shadowAt {
	at := make(map[*routing.Location]int, len(all))
	for i, l := range all {
		at[l] = i
	}
	var out []shadowAt
	for _, lv := range all {
		if len(lv.Regexes()) == 0 {
			continue
		}
		for _, sh := range sets.Unreachable(lv) {
			s := shadowAt{loc: at[sh.Location]}
			for _, r := range sh.Regexes {
				s.regexes = append(s.regexes, at[r])
			}
			for _, q := range sh.Stops {
				s.stops = append(s.stops, at[q])
			}
			out = append(out, s)
		}
	}
	return out
}

// layoutKey is what the search of a server's locations depends on: each
// location's modifier, path and depth, and whether its path without the
// final slash is redirected.
func layoutKey(all []*routing.Location) string {
	var b strings.Builder
	for _, l := range all[1:] {
		d := 0
		for x := l.Parent; x != nil; x = x.Parent {
			d++
		}
		fmt.Fprintf(&b, "%d %s %t %d:%s\n", d, l.Spec.Modifier, l.AutoRedirect(), len(l.Spec.Path), l.Spec.Path)
	}
	return b.String()
}

func reportShadow(p *analyzer.Pass, all []*routing.Location, sh shadowAt) {
	l := all[sh.loc]
	var related []parser.Related
	rel := func(i int, msg string) {
		d := all[i].Directive
		related = append(related, parser.Related{File: d.File, Range: d.Name.Range, Message: msg})
	}
	name := func(i int) string { return locationRef(all[i]) }
	names := func(is []int) string {
		var out []string
		for _, i := range is {
			out = append(out, name(i))
		}
		switch len(out) {
		case 1:
			return out[0]
		case 2:
			return out[0] + " and " + out[1]
		}
		return strings.Join(out[:len(out)-1], ", ") + " and " + out[len(out)-1]
	}
	var diag *parser.Diagnostic
	switch {
	case len(sh.regexes) == 0 && len(sh.stops) == 0:
		// Nothing takes its URIs: there are none.
		if l.Regex() == nil {
			return // a prefix outside its location's, which nginx refuses
		}
		if l.Parent == nil {
			diag = p.ReportDirective(l.Directive, "location %s %q is never chosen: it matches no URI (URIs start with \"/\")", l.Spec.Modifier, l.Spec.Path)
			diag.Detail = "the location search tries a regex on the URI, which starts with \"/\", without the query string"
			break
		}
		diag = p.ReportDirective(l.Directive, "location %s %q is never chosen: it matches none of the URIs of the enclosing location %s",
			l.Spec.Modifier, l.Spec.Path, locationRef(l.Parent))
		diag.Detail = "a nested location is searched only with the URIs its enclosing location takes"
		related = append(related, parser.Related{File: l.Parent.Directive.File, Range: l.Parent.Directive.Name.Range, Message: "enclosing location"})
	case l.Regex() == nil:
		which := "the regex location " + names(sh.regexes) + " matches"
		if len(sh.regexes) > 1 {
			which = "the regex locations " + names(sh.regexes) + " together match"
		}
		diag = p.ReportDirective(l.Directive, "location %q is never chosen: %s every URI it would take, and regexes are tried after the longest prefix",
			l.Spec.Path, which)
		diag.Detail = fmt.Sprintf("make it \"location ^~ %s\" to keep these URIs from the regexes, or narrow the regex", l.Spec.Path)
		for _, i := range sh.regexes {
			rel(i, "takes these URIs")
		}
	case len(sh.stops) == 0 && len(sh.regexes) == 1:
		diag = p.ReportDirective(l.Directive, "location %s %q is never chosen: the earlier location %s matches every URI it matches",
			l.Spec.Modifier, l.Spec.Path, name(sh.regexes[0]))
		diag.Detail = "nginx takes the first regex location that matches; put the more specific one first"
		rel(sh.regexes[0], "matches first")
	case len(sh.stops) == 0:
		diag = p.ReportDirective(l.Directive, "location %s %q is never chosen: the earlier locations %s together match every URI it matches",
			l.Spec.Modifier, l.Spec.Path, names(sh.regexes))
		diag.Detail = "nginx takes the first regex location that matches; put the more specific one first"
		for _, i := range sh.regexes {
			rel(i, "matches first")
		}
	case len(sh.stops) == 1 && len(sh.regexes) == 0 && all[sh.stops[0]].Spec.Modifier == grammar.ModPrefixNoRegex:
		q := all[sh.stops[0]]
		diag = p.ReportDirective(l.Directive, "location %s %q is never chosen: every URI it matches starts with %q, and \"^~\" stops the regex search",
			l.Spec.Modifier, l.Spec.Path, q.Spec.Path)
		diag.Detail = "drop the \"^~\" or move the regex into that location"
		rel(sh.stops[0], "takes these URIs first")
	default:
		taken := names(append(slices.Clone(sh.stops), sh.regexes...))
		diag = p.ReportDirective(l.Directive, "location %s %q is never chosen: every URI it matches is taken first by %s",
			l.Spec.Modifier, l.Spec.Path, taken)
		diag.Detail = "exact and \"^~\" locations end the search before the regexes, which are tried in the order written"
		for _, i := range sh.stops {
			rel(i, "takes these URIs first")
		}
		for _, i := range sh.regexes {
			rel(i, "matches first")
		}
	}
	diag.Related = related
}

// locationRef names a location in a message: its modifier and quoted
// path.
func locationRef(l *routing.Location) string {
	if m := l.Spec.Modifier.String(); m != "" && !l.Spec.Named {
		return fmt.Sprintf("%s %q", m, l.Spec.Path)
	}
	return fmt.Sprintf("%q", l.Spec.Path)
}
