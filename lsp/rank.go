package lsp

import (
	"fmt"
	"path"
	"sort"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/buildinfo"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// This file ranks directive completion: the directives the editor
// offers are those of the nginx linted for (the target build, when one is
// named, and its version), and their sortText puts first what a person
// most likely types: the directives the configuration already uses, then
// those of the modules every nginx has and of the modules it loads, then
// nginx's optional modules, and last third-party and commercial modules
// the configuration does not load (so "r" offers root before rds_json).

// Tiers of directive completion, best first.
const (
	tierUsed      = iota // used elsewhere in the configuration
	tierStandard         // a module of every build, or one the configuration has
	tierOptional         // an optional module of nginx's source
	tierElsewhere        // third-party, commercial, or a shared object nothing loads
)

// ranking is what ranks the directives offered in one document.
type ranking struct {
	// target is the nginx linted for (nil: the newest, every module).
	target *analyzer.Target
	// used are the names of the directives of the configuration.
	used map[string]bool
	// loaded are the objects the load_module lines load (base names,
	// without ".so").
	loaded map[string]bool
}

// rankingOf reads the ranking of a view's document: the configuration is
// the one it is read in (the nginx.conf that includes it, when there is
// one), where the load_module lines are.
func rankingOf(v *view) ranking {
	rk := ranking{used: map[string]bool{}, loaded: map[string]bool{}}
	c := v.config
	if v.unit != nil && v.unit.Config != nil {
		c = v.unit.Config
		rk.target = v.unit.Options.Target
	}
	for _, f := range c.Files {
		eachDirective(f.Directives, func(d *parser.Directive) { rk.used[d.Name().Value] = true })
	}
	if len(c.Context) == 0 && c.Main != nil {
		loadedModules(c, c.Main.Directives, rk.loaded)
	}
	return rk
}

// loadedModules adds the objects that the main context's load_module
// lines load (through its includes: modules-enabled/*.conf).
func loadedModules(c *parser.Config, dirs []*parser.Directive, into map[string]bool) {
	for _, d := range dirs {
		switch {
		case d.Name().Value == "load_module" && len(d.Args()) == 1:
			into[strings.TrimSuffix(path.Base(d.Args()[0].Value), ".so")] = true
		case d.Name().Value == "include":
			for _, f := range c.Included(d) {
				loadedModules(c, f.Directives, into)
			}
		}
	}
}

// isLoaded reports whether a load_module loads module's object.
func (rk ranking) isLoaded(module string) bool {
	obj := module
	if t := rk.target; t != nil && t.Dynamic[module] != "" {
		obj = t.Dynamic[module]
	}
	for _, n := range buildinfo.ObjectNames(obj) {
		if rk.loaded[n] {
			return true
		}
	}
	return false
}

// tier places a row, or says it is not offered at all: a build named
// without its module, or a version before it.
func (rk ranking) tier(row *directives.Directive) (tier int, why string, ok bool) {
	t := rk.target
	if !row.ThirdParty && t.Lacks(firstSince(row)) {
		return 0, "", false
	}
	built := t != nil && t.Modules != nil
	has, dynamic, standard := false, false, false
	for _, m := range row.SourceModules {
		if built && t.Modules[m] {
			has = true
			dynamic = dynamic || t.Dynamic[m] != ""
		}
		standard = standard || buildinfo.InDefaultBuild(m)
	}
	loaded := false
	for _, m := range row.SourceModules {
		loaded = loaded || rk.isLoaded(m)
	}
	switch {
	case built && !has && !(row.ThirdParty && loaded):
		return 0, "", false
	case dynamic && !loaded:
		return tierElsewhere, row.Module + " is a shared object: it needs a load_module", true
	case rk.used[row.Name]:
		return tierUsed, "", true
	case loaded || has && !dynamic || standard && !row.ThirdParty:
		return tierStandard, "", true
	case row.ThirdParty:
		return tierElsewhere, row.Module + " is a third-party module", true
	case len(row.SourceModules) == 0:
		// Only in the docs: NGINX Plus's and removed ones.
		return tierElsewhere, "", true
	}
	return tierOptional, "", true
}

// firstSince is the earliest nginx version in a row's since list.
func firstSince(row *directives.Directive) string {
	best := ""
	for _, v := range strings.Split(row.Since, ",") {
		if v = strings.TrimSpace(v); v != "" && (best == "" || directives.CompareVersions(v, best) < 0) {
			best = v
		}
	}
	return best
}

// directiveItems lists the directives allowed in ctx that the target
// has, ranked by rk (sortText), each replacing edit.
func directiveItems(ctx directives.Context, edit protocol.Range, rk ranking) []protocol.CompletionItem {
	kind := protocol.CompletionItemKindKeyword
	best := map[string]int{} // name -> index in out
	var out []protocol.CompletionItem
	tiers := map[string]int{}
	for _, row := range directives.All() {
		if !row.AllowedIn(ctx) || row.Removed() {
			continue
		}
		tier, why, ok := rk.tier(row)
		if !ok {
			continue
		}
		if i, seen := best[row.Name]; seen {
			// Another module's row of the same name: the better tier.
			if tier < tiers[row.Name] {
				tiers[row.Name] = tier
				out[i].SortText = sortText(tier, row.Name)
			}
			continue
		}
		detail := row.Syntax
		if why != "" {
			detail = strings.TrimSpace(detail + " (" + why + ")")
		}
		st := sortText(tier, row.Name)
		item := protocol.CompletionItem{Label: row.Name, Kind: &kind, Detail: &detail, SortText: st,
			TextEdit: protocol.TextEdit{Range: edit, NewText: row.Name}}
		if row.URL != "" {
			item.Documentation = protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: "[Documentation](" + row.URL + ")"}
		}
		best[row.Name] = len(out)
		tiers[row.Name] = tier
		out = append(out, item)
	}
	sort.Slice(out, func(i, j int) bool { return *out[i].SortText < *out[j].SortText })
	return out
}

// sortText orders by tier, then by name.
func sortText(tier int, name string) *string {
	s := fmt.Sprintf("%d%s", tier, name)
	return &s
}
