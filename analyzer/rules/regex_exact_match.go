package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/regex"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// RegexExactMatch reports a regex location that matches one URI, which
// an exact location does without running a regex.
var RegexExactMatch = &analyzer.Rule{
	Code: "NL4011", Name: "regex-exact-match", Title: "regex location that matches a single URI", Severity: parser.Info,
	Run: runRegexExactMatch,
	Doc: analyzer.Doc{
		Text: "`location ~ ^/health$` matches one URI, `/health`. nginx tries regex locations one after " +
			"another, in order, for every request that no `=` or `^~` location took, running PCRE each " +
			"time; `location = /health` is found by a string comparison before any regex runs, and " +
			"ends the search. Reported when the regex is `^`, literal text and `$` (escapes such as " +
			"`\\.` allowed) and the change keeps every request where it goes: no earlier regex " +
			"location and no `^~` location of the same block matches the URI, and `~*` only when the " +
			"text has no letters.",
		Bad:  "location ~ ^/health$ {\n    return 200;\n}\n",
		Good: "location = /health {\n    return 200;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_core_module.html#location",
	},
}

func runRegexExactMatch(p *analyzer.Pass) {
	ix := p.Index()
	// Only the blocks that hold a candidate ("~ ^...$") are grouped: on a
	// big configuration nearly none does.
	var parents map[int32]bool
	for _, i := range ix.Named("location") {
		if d := ix.Entries[i].Directive; len(d.Args()) == 2 && (d.Args()[0].Value == "~" || d.Args()[0].Value == "~*") {
			if v := d.Args()[1].Value; strings.HasPrefix(v, "^") && strings.HasSuffix(v, "$") {
				if parents == nil {
					parents = map[int32]bool{}
				}
				parents[ix.Entries[i].Parent] = true
			}
		}
	}
	if parents == nil {
		return
	}
	// Sibling locations by parent, in order: a location's siblings decide
	// whether "=" keeps its requests where they go.
	siblings := map[int32][]int32{}
	for _, i := range ix.Named("location") {
		if parent := ix.Entries[i].Parent; parents[parent] {
			siblings[parent] = append(siblings[parent], i)
		}
	}
	for _, group := range siblings {
		regexExactIn(p, ix, group)
	}
}

// maxGeneralRegexes bounds the regexes a block's candidates are matched
// against: past it the block is skipped rather than made quadratic.
const maxGeneralRegexes = 64

// regexExactIn checks one block's locations. Each location is parsed
// once; an earlier regex that is itself "^text$" matches a candidate only
// when their texts are equal (a map), the others are compiled once.
func regexExactIn(p *analyzer.Pass, ix *analyzer.Index, group []int32) {
	type loc struct {
		d     *parser.Directive
		l     grammar.Location
		uri   string // for "^text$" regexes
		exact bool
	}
	locs := make([]loc, 0, len(group))
	taken := map[string]bool{} // exact locations' URIs
	var noRegex []string       // ^~ prefixes
	general := 0
	for _, i := range group {
		d := ix.Entries[i].Directive
		l, err := parser.LocationSpec(d)
		if err != nil {
			continue
		}
		lc := loc{d: d, l: l}
		switch {
		case l.Modifier == grammar.ModExact:
			taken[l.Path] = true
		case l.Modifier == grammar.ModPrefixNoRegex:
			noRegex = append(noRegex, l.Path)
		case l.IsRegex:
			lc.uri, lc.exact = exactRegexURI(l.Path)
			if !lc.exact {
				general++
			}
		}
		locs = append(locs, lc)
	}
	if general > maxGeneralRegexes {
		return
	}
	var earlier []*regex.Regex // general regexes so far
	seen := map[string]bool{}  // "^text$" regexes so far
	for _, lc := range locs {
		if !lc.l.IsRegex {
			continue
		}
		if !lc.exact {
			earlier = append(earlier, regex.Compile(lc.l.Path, lc.l.CaseInsensitive))
			continue
		}
		uri := lc.uri
		ok := !lc.l.CaseInsensitive || strings.ToLower(uri) == strings.ToUpper(uri)
		ok = ok && !taken[uri] && !seen[strings.ToLower(uri)]
		for _, pre := range noRegex {
			ok = ok && !strings.HasPrefix(uri, pre)
		}
		for _, re := range earlier {
			// A regex that cannot tell as PCRE would counts as matching.
			_, m, why := re.Match(uri)
			ok = ok && !m && why == ""
		}
		seen[strings.ToLower(uri)] = true
		if !ok {
			continue
		}
		w := lc.d.Args()[len(lc.d.Args())-1]
		diag := p.Reportf(lc.d.File, w.Range, "this regex matches only %q: location = %s finds it without running a regex", uri, uri)
		diag.Detail = "regex locations are tried in order for every request no exact or ^~ location took; an exact location is a string comparison made first"
	}
}

// exactRegexURI returns the one URI a regex "^text$" matches, with its
// escapes resolved, and false when the regex can match anything else.
func exactRegexURI(re string) (string, bool) {
	if len(re) < 3 || re[0] != '^' || re[len(re)-1] != '$' || strings.HasSuffix(re, `\$`) {
		return "", false
	}
	body := re[1 : len(re)-1]
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '\\':
			if i+1 == len(body) {
				return "", false
			}
			i++
			// Only an escaped punctuation character is itself; \d, \w
			// and the like are classes.
			if e := body[i]; strings.IndexByte(`./-_~$^*+?()[]{}|\`, e) >= 0 {
				b.WriteByte(e)
				continue
			}
			return "", false
		case strings.IndexByte(`.^$*+?()[]{}|`, c) >= 0:
			return "", false
		}
		b.WriteByte(c)
	}
	uri := b.String()
	return uri, strings.HasPrefix(uri, "/")
}
