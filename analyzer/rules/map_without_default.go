package rules

import (
	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/fix"
	"github.com/nginx-lint/nginx-lint/parser"
)

// MapWithoutDefault reports map and geo blocks with no default entry.
var MapWithoutDefault = &analyzer.Rule{
	Code: "NL2009", Name: "map-without-default", Title: "map or geo without a default value", Severity: parser.Info,
	Fixable: true,
	Run:     runMapWithoutDefault,
	Doc: analyzer.Doc{
		Text: "A `map` or `geo` whose entries match nothing yields an empty string. That is sometimes " +
			"intended, but a variable used as an upstream name, a limit key or a flag usually needs a " +
			"deliberate value for unknown input, and an empty one fails quietly (an empty " +
			"`limit_req` key, for example, is not limited at all). Write `default` explicitly, even " +
			"when it is `\"\"`, so that readers see the fallback is on purpose. Entries in files " +
			"included into the block count. A map with a single entry is taken as a flag (its value " +
			"or empty) and not reported; a geo with one entry is, since the value it gives every " +
			"other client address is worth writing out.",
		Bad:  "events {}\nhttp {\n    map $host $pool {\n        api.example.com    api;\n        static.example.com static;\n    }\n}\n",
		Good: "events {}\nhttp {\n    map $host $pool {\n        default            web;\n        api.example.com    api;\n        static.example.com static;\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_map_module.html#map",
	},
}

func runMapWithoutDefault(p *analyzer.Pass) {
	// open holds the map and geo blocks being walked and whether a
	// default was seen in each; blocks nest only through the walk order,
	// so a block is done once the walk leaves it (a later sibling or the
	// end of the config).
	type block struct {
		d          *parser.Directive
		hasDefault bool
		entries    int
	}
	var blocks []*block
	byDir := map[*parser.Directive]*block{}
	p.WalkContext(func(d *parser.Directive, ctx directives.Context, stack []*parser.Directive) {
		if d.Block != nil && (d.Name().Value == "map" || d.Name().Value == "geo") &&
			ctx&(directives.HTTP|directives.Stream) != 0 {
			b := &block{d: d}
			blocks = append(blocks, b)
			byDir[d] = b
			return
		}
		if len(stack) == 0 {
			return
		}
		if b := byDir[stack[len(stack)-1]]; b != nil {
			switch d.Name().Value {
			case "default":
				b.hasDefault = true
			case "hostnames", "volatile", "include", "ranges", "delete", "proxy", "proxy_recursive":
				// keywords, not entries
			default:
				b.entries++
			}
		}
	})
	for _, b := range blocks {
		// A map with a single entry and no default is a flag: its value
		// or empty, which is what such a map is for (an empty limit_req
		// key, say). A geo sorts clients by address, and its fallback for
		// the rest of the internet is written out even then.
		if !b.hasDefault && (b.entries != 1 || b.d.Name().Value == "geo") {
			diag := p.ReportDirective(b.d, "%s without a default value", b.d.Name().Value)
			diag.Detail = "input that no entry matches gives an empty value; add a \"default\" entry"
			// The fix writes out the empty value nginx uses anyway, so
			// behaviour is unchanged and the choice becomes visible.
			if e, ok := fix.InsertFirstChild(b.d, `default "";`); ok {
				diag.Edits = []parser.Edit{e}
			}
		}
	}
}
