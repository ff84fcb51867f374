package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/regex"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/analyzer/routing/routepass"
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
			"reached by `/x%0A` beside `location = /x`), over the URIs that start with `/`, or over " +
			"any when a rewrite or `try_files` of the server can make one without (`try_files $uri " +
			"index.php`). A regex that cannot be compared that way " +
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
	// each layout is decided once, and only then are its server's
	// locations read as the request model arranges them. The answers are
	// indexes into the locations in the order written. What is kept
	// between servers is reused: a server costs no allocation when its
	// layout was seen.
	var (
		results      = map[string][]shadowAt{}
		sets, anyURI *routing.Sets
		w            locationWalk
		key          []byte
	)
	for _, server := range routepass.ServersWith(p, "location") {
		w.locs = w.locs[:0]
		w.c = p.Config
		if server == nil {
			w.walk(p.Config.Main.Directives, 0, -1)
		} else if server.Block != nil {
			w.walk(server.Block.Directives, 0, -1)
		}
		locs := w.locs
		// A rewrite or try_files to "index.php" gives the location
		// search URIs that do not start with "/".
		relative := routing.RelativeURIs(p.Config, server, p.Config.Main.Directives)
		key = append(key[:0], byte('0'+b2i(relative)))
		hasRegex := false
		for _, l := range locs {
			hasRegex = hasRegex || l.spec.IsRegex
			key = strconv.AppendInt(append(key, '\n'), int64(l.depth), 10)
			key = append(append(append(key, ' '), l.spec.Modifier.String()...), ' ', byte('0'+b2i(l.autoRedirect)), ' ')
			key = append(strconv.AppendInt(key, int64(len(l.spec.Path)), 10), ':')
			key = append(key, l.spec.Path...)
		}
		if !hasRegex {
			continue
		}
		shadows, ok := results[string(key)]
		if !ok {
			if sets == nil {
				sets, anyURI = routing.NewSets(), routing.NewSets()
				anyURI.AnyURI = true
			}
			s := sets
			if relative {
				s = anyURI
			}
			shadows = unreachableIn(s, routepass.ReadServer(p, server), locs)
			if len(results) >= regex.MemoMax {
				clear(results)
			}
			results[string(key)] = shadows
		}
		for _, sh := range shadows {
			reportShadow(p, locs, sh)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// writtenLocation is a location directive of a server, in the order
// written, with what the location search depends on.
type writtenLocation struct {
	d            *parser.Directive
	spec         grammar.Location
	depth        int
	parent       int // index of the enclosing location, -1 for none
	autoRedirect bool
}

// locationWalk lists the locations of a server, nested ones after their
// parent, includes followed, into locs (reused from server to server).
type locationWalk struct {
	c    *parser.Config
	locs []writtenLocation
}

func (w *locationWalk) walk(dirs []*parser.Directive, depth, parent int) {
	for _, d := range dirs {
		switch {
		case d.Name().Value == "include":
			for _, f := range w.c.Included(d) {
				w.walk(f.Directives, depth, parent)
			}
		case d.Name().Value == "location" && d.Block != nil:
			spec, ok := parseLocation(d)
			if !ok {
				continue
			}
			l := writtenLocation{d: d, spec: spec, depth: depth, parent: parent}
			if !spec.IsRegex && !spec.Named && spec.Modifier != grammar.ModExact && strings.HasSuffix(spec.Path, "/") {
				l.autoRedirect = passes(w.c, d.Block.Directives)
			}
			w.locs = append(w.locs, l)
			w.walk(d.Block.Directives, depth+1, len(w.locs)-1)
		}
	}
}

// parseLocation parses a location's arguments without allocating.
func parseLocation(d *parser.Directive) (grammar.Location, bool) {
	var buf [2]string
	if len(d.Args()) == 0 || len(d.Args()) > len(buf) {
		return grammar.Location{}, false
	}
	vals := buf[:len(d.Args())]
	for i, a := range d.Args() {
		vals[i] = a.Value
	}
	spec, err := grammar.ParseLocation(vals)
	return spec, err == nil
}

// passes says a block has one of the *_pass directives that make nginx
// redirect a prefix location's path without its final slash
// (clcf->auto_redirect).
func passes(c *parser.Config, dirs []*parser.Directive) bool {
	for _, d := range dirs {
		switch d.Name().Value {
		case "proxy_pass", "fastcgi_pass", "uwsgi_pass", "scgi_pass", "grpc_pass", "memcached_pass":
			return true
		case "include":
			for _, f := range c.Included(d) {
				if passes(c, f.Directives) {
					return true
				}
			}
		}
	}
	return false
}

// shadowAt is a routing.Shadow by the locations' indexes in the order
// written.
type shadowAt struct {
	loc            int
	regexes, stops []int
}

func unreachableIn(sets *routing.Sets, root *routing.Location, locs []writtenLocation) []shadowAt {
	at := make(map[*parser.Directive]int, len(locs))
	for i, l := range locs {
		at[l.d] = i
	}
	var out []shadowAt
	root.Walk(func(lv *routing.Location) {
		if len(lv.Regexes()) == 0 {
			return
		}
		for _, sh := range sets.Unreachable(lv) {
			i, ok := at[sh.Location.Directive]
			if !ok {
				continue
			}
			s := shadowAt{loc: i}
			for _, r := range sh.Regexes {
				s.regexes = append(s.regexes, at[r.Directive])
			}
			for _, q := range sh.Stops {
				s.stops = append(s.stops, at[q.Directive])
			}
			out = append(out, s)
		}
	})
	return out
}

func reportShadow(p *analyzer.Pass, all []writtenLocation, sh shadowAt) {
	l := all[sh.loc]
	var related []parser.Related
	rel := func(i int, msg string) {
		d := all[i].d
		related = append(related, parser.Related{File: d.File, Range: d.Name().Range, Message: msg})
	}
	name := func(i int) string { return specRef(all[i].spec) }
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
		if !l.spec.IsRegex {
			return // a prefix outside its location's, which nginx refuses
		}
		if l.parent < 0 {
			diag = p.ReportDirective(l.d, "location %s %q is never chosen: it matches no URI (URIs start with \"/\")", l.spec.Modifier, l.spec.Path)
			diag.Detail = "the location search tries a regex on the URI, which starts with \"/\", without the query string"
			break
		}
		diag = p.ReportDirective(l.d, "location %s %q is never chosen: it matches none of the URIs of the enclosing location %s",
			l.spec.Modifier, l.spec.Path, specRef(all[l.parent].spec))
		diag.Detail = "a nested location is searched only with the URIs its enclosing location takes"
		rel(l.parent, "enclosing location")
	case !l.spec.IsRegex:
		which := "the regex location " + names(sh.regexes) + " matches"
		if len(sh.regexes) > 1 {
			which = "the regex locations " + names(sh.regexes) + " together match"
		}
		diag = p.ReportDirective(l.d, "location %q is never chosen: %s every URI it would take, and regexes are tried after the longest prefix",
			l.spec.Path, which)
		diag.Detail = fmt.Sprintf("make it \"location ^~ %s\" to keep these URIs from the regexes, or narrow the regex", l.spec.Path)
		for _, i := range sh.regexes {
			rel(i, "takes these URIs")
		}
	case len(sh.stops) == 0 && len(sh.regexes) == 1:
		diag = p.ReportDirective(l.d, "location %s %q is never chosen: the earlier location %s matches every URI it matches",
			l.spec.Modifier, l.spec.Path, name(sh.regexes[0]))
		diag.Detail = "nginx takes the first regex location that matches; put the more specific one first"
		rel(sh.regexes[0], "matches first")
	case len(sh.stops) == 0:
		diag = p.ReportDirective(l.d, "location %s %q is never chosen: the earlier locations %s together match every URI it matches",
			l.spec.Modifier, l.spec.Path, names(sh.regexes))
		diag.Detail = "nginx takes the first regex location that matches; put the more specific one first"
		for _, i := range sh.regexes {
			rel(i, "matches first")
		}
	case len(sh.stops) == 1 && len(sh.regexes) == 0 && all[sh.stops[0]].spec.Modifier == grammar.ModPrefixNoRegex:
		q := all[sh.stops[0]]
		diag = p.ReportDirective(l.d, "location %s %q is never chosen: every URI it matches starts with %q, and \"^~\" stops the regex search",
			l.spec.Modifier, l.spec.Path, q.spec.Path)
		diag.Detail = "drop the \"^~\" or move the regex into that location"
		rel(sh.stops[0], "takes these URIs first")
	default:
		taken := names(append(slices.Clone(sh.stops), sh.regexes...))
		diag = p.ReportDirective(l.d, "location %s %q is never chosen: every URI it matches is taken first by %s",
			l.spec.Modifier, l.spec.Path, taken)
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
func locationRef(l *routing.Location) string { return specRef(l.Spec) }

func specRef(spec grammar.Location) string {
	if m := spec.Modifier.String(); m != "" && !spec.Named {
		return fmt.Sprintf("%s %q", m, spec.Path)
	}
	return fmt.Sprintf("%q", spec.Path)
}
