package rules

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// DirectiveInheritance reports a nested block whose own proxy_set_header
// (fastcgi_param, limit_req, error_page, ...) list replaces the one of the
// enclosing level, silently dropping what that level set.
var DirectiveInheritance = &analyzer.Rule{
	Code: "NL3023", Name: "directive-inheritance", Title: "a list directive in a nested block drops the entries set outside it", Severity: parser.Warning,
	Fixable: true,
	Run:     runDirectiveInheritance,
	Doc: analyzer.Doc{
		Text: "Like `add_header` (see add-header-redefinition), the list directives `proxy_set_header`, " +
			"`grpc_set_header`, `fastcgi_param`, `uwsgi_param`, `scgi_param`, the `*_hide_header` " +
			"family, `limit_req`, `limit_conn` and `error_page` are inherited from the enclosing " +
			"level only by blocks that have none of their own. One `proxy_set_header` in a location " +
			"drops the `X-Forwarded-For` set for the whole server; one `limit_req` drops the " +
			"server's rate limit; one `error_page` drops the others. The fix repeats the outer " +
			"entries in the block (an `include` of a shared snippet keeps them in one place).",
		Bad: "server {\n    proxy_set_header X-Real-IP $remote_addr;\n    location / {\n" +
			"        proxy_set_header X-Request-Id $request_id;\n        proxy_pass http://backend;\n    }\n}\n",
		Good: "server {\n    proxy_set_header X-Real-IP $remote_addr;\n    location / {\n" +
			"        proxy_set_header X-Real-IP $remote_addr;\n        proxy_set_header X-Request-Id $request_id;\n" +
			"        proxy_pass http://backend;\n    }\n}\n",
		URL: "https://nginx.org/en/docs/http/ngx_http_proxy_module.html#proxy_set_header",
	},
}

// inheritedLists are the http directives whose entries form one list per
// level, inherited only when a level has none.
var inheritedLists = []string{
	"proxy_set_header", "grpc_set_header", "fastcgi_param", "uwsgi_param", "scgi_param",
	"proxy_hide_header", "fastcgi_hide_header", "uwsgi_hide_header", "scgi_hide_header", "grpc_hide_header",
	"limit_req", "limit_conn", "error_page",
}

// inheritanceLevels are the blocks with a list of their own.
var inheritanceLevels = map[string]bool{"http": true, "server": true, "location": true, "if": true}

func runDirectiveInheritance(p *analyzer.Pass) {
	ix := p.Index()
	levelOf := func(i int32) int32 {
		for p := ix.Entries[i].Parent; p >= 0; p = ix.Entries[p].Parent {
			if inheritanceLevels[ix.Entries[p].Directive.Name().Value] {
				return p
			}
		}
		return -1
	}
	// One name at a time, each directive as (its level, its entry),
	// sorted by level: a level's own list is then a run of the slice, in
	// reading order, and the list of an enclosing level is found by
	// binary search. (A map of groups held an object per level and list:
	// most of a run's transient memory on a big configuration.)
	type rec struct{ level, entry int32 }
	var recs []rec
	groupAt := func(level int32) []rec {
		lo, found := slices.BinarySearchFunc(recs, level, func(r rec, l int32) int { return cmp.Compare(r.level, l) })
		if !found {
			return nil
		}
		hi := lo + 1
		for hi < len(recs) && recs[hi].level == level {
			hi++
		}
		return recs[lo:hi]
	}
	own, seen := map[string]bool{}, map[string]bool{}
	for _, name := range inheritedLists {
		recs = recs[:0]
		for _, i := range ix.Named(name) {
			if ix.Entries[i].Context()&(directives.HTTP|directives.Server|directives.Location|directives.IfInLocation|directives.IfInServer) == 0 {
				continue // stream's limit_conn, map entries, unknown blocks
			}
			recs = append(recs, rec{levelOf(i), i})
		}
		slices.SortStableFunc(recs, func(a, b rec) int { return cmp.Compare(a.level, b.level) })
		for lo := 0; lo < len(recs); {
			g := groupAt(recs[lo].level)
			lo += len(g)
			if g[0].level < 0 {
				continue
			}
			// The list in force outside: that of the nearest enclosing
			// level with its own (levels without one inherit it unchanged).
			var outer []rec
			for l := levelOf(g[0].level); ; l = levelOf(l) {
				if o := groupAt(l); o != nil {
					outer = o
					break
				}
				if l < 0 {
					break
				}
			}
			if outer == nil {
				continue
			}
			clear(own)
			for _, r := range g {
				for _, k := range listKeys(ix.Entries[r.entry].Directive) {
					own[k] = true
				}
			}
			var lost []*parser.Directive
			var names []string
			clear(seen)
			for _, r := range outer {
				d := ix.Entries[r.entry].Directive
				dropped := false
				for _, k := range listKeys(d) {
					if !own[k] && !seen[k] {
						seen[k] = true
						names = append(names, k)
						dropped = true
					}
				}
				if dropped {
					lost = append(lost, d)
				}
			}
			if len(lost) == 0 {
				continue
			}
			first := ix.Entries[g[0].entry].Directive
			level := ix.Entries[g[0].level].Directive.Name().Value
			outerLevel := "top level"
			if outer[0].level >= 0 {
				outerLevel = ix.Entries[outer[0].level].Directive.Name().Value
			}
			sort.Strings(names)
			for i, n := range names {
				names[i] = `"` + n + `"`
			}
			diag := p.ReportDirective(first, "%q in this %s drops %s set in the enclosing %s", name, level, strings.Join(names, ", "), outerLevel)
			diag.Detail = "a level with its own " + name + " inherits none from outside; repeat the outer ones here"
			diag.Related = []parser.Related{{File: lost[0].File, Range: lost[0].Name().Range, Message: "set here"}}
			diag.Edits = repeatEdits(first, lost)
		}
	}
}

// listKeys names what a list directive sets, so that an inner level that
// sets the same again is seen to keep it: the header or parameter name,
// the zone of a limit, each status code of error_page.
func listKeys(d *parser.Directive) []string {
	if len(d.Args()) == 0 {
		return nil
	}
	name := d.Name().Value
	switch {
	case strings.HasSuffix(name, "_set_header") || strings.HasSuffix(name, "_hide_header"):
		return []string{strings.ToLower(d.Args()[0].Value)}
	case name == "limit_req":
		for _, a := range d.Args() {
			if z, ok := strings.CutPrefix(a.Value, "zone="); ok {
				return []string{"zone=" + z}
			}
		}
	case name == "error_page":
		var codes []string
		for _, a := range d.Args()[:len(d.Args())-1] {
			if !strings.HasPrefix(a.Value, "=") {
				codes = append(codes, a.Value)
			}
		}
		return codes
	}
	return []string{d.Args()[0].Value}
}

// repeatEdits copies the outer directives' text in front of the block's
// first own one, each on its own line with that line's indentation.
func repeatEdits(first *parser.Directive, outer []*parser.Directive) []parser.Edit {
	src := first.File.Src
	start := first.Name().Range.Start
	lineStart := start
	for lineStart > 0 && src[lineStart-1] != '\n' {
		lineStart--
	}
	indent := src[lineStart:start]
	if strings.Trim(indent, " \t") != "" {
		return nil // something precedes it on its line: no clean place
	}
	var b strings.Builder
	for _, d := range outer {
		r := d.Range()
		if d.Block != nil || d.Semicolon() < 0 || int(r.End) > len(d.File.Src) {
			return nil
		}
		b.WriteString(indent)
		b.WriteString(d.File.Src[r.Start:r.End])
		b.WriteString("\n")
	}
	return []parser.Edit{{File: first.File, Range: parser.Range{Start: lineStart, End: lineStart}, NewText: b.String()}}
}
