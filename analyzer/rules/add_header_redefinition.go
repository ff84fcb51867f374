package rules

import (
	"sort"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
)

// AddHeaderRedefinition reports add_header in a nested block that makes
// nginx drop every add_header of the enclosing levels.
var AddHeaderRedefinition = &analyzer.Rule{
	Code: "NL3006", Name: "add-header-redefinition", Title: "add_header in a nested block drops the headers set outside it", Severity: parser.Warning,
	Run: runAddHeaderRedefinition,
	Doc: analyzer.Doc{
		Text: "nginx inherits `add_header` directives from the enclosing level only when the current " +
			"level has none. One `add_header` in a location therefore silently removes every header " +
			"set in the server or http block, typically the security headers (`Strict-Transport-Security`, " +
			"`Content-Security-Policy`, `X-Frame-Options`). Repeat the outer headers in the block, " +
			"move them into an included snippet, or (nginx 1.29.3 and later) write " +
			"`add_header_inherit merge;`. A deliberate `add_header_inherit off;` is not reported. " +
			"`add_trailer` works the same way on its own list, with `add_trailer_inherit`.",
		Bad: "server {\n    add_header X-Frame-Options DENY always;\n    location / {\n" +
			"        add_header Cache-Control no-store;\n    }\n}\n",
		Good: "server {\n    add_header X-Frame-Options DENY always;\n    location / {\n" +
			"        add_header X-Frame-Options DENY always;\n        add_header Cache-Control no-store;\n    }\n}\n",
		URL: "https://nginx.org/en/docs/http/ngx_http_headers_module.html#add_header",
	},
}

// headerLevels are the blocks that have their own add_header list.
var headerLevels = map[string]bool{"http": true, "server": true, "location": true, "if": true}

// inheritedHeader is a header in force at some level and where it was set.
type inheritedHeader struct {
	name  string
	level string
}

func runAddHeaderRedefinition(p *analyzer.Pass) {
	// Headers and trailers are two separate lists with the same rule:
	// add_trailer in a block drops the outer add_trailer, never the
	// add_header, and add_trailer_inherit governs them.
	addHeaderRedefinition(p, "add_header", "add_header_inherit")
	addHeaderRedefinition(p, "add_trailer", "add_trailer_inherit")
}

func addHeaderRedefinition(p *analyzer.Pass, name, inherit string) {
	if len(p.Index().Named(name)) == 0 {
		return // nothing to drop: skip the walk (most configs set no trailers)
	}
	var visit func(dirs []*parser.Directive, level string, outer []inheritedHeader, mode string)
	visit = func(dirs []*parser.Directive, level string, outer []inheritedHeader, mode string) {
		var own []*parser.Directive
		for _, d := range dirs {
			switch {
			case d.Is(name) && len(d.Args()) >= 2:
				own = append(own, d)
			case d.Is(inherit) && len(d.Args()) == 1:
				mode = strings.ToLower(d.Args()[0].Value)
			}
		}
		current := outer
		if len(own) > 0 || mode == "off" {
			mine := make([]inheritedHeader, 0, len(own))
			names := map[string]bool{}
			for _, d := range own {
				n := strings.ToLower(d.Args()[0].Value)
				names[n] = true
				mine = append(mine, inheritedHeader{name: d.Args()[0].Value, level: level})
			}
			switch mode {
			case "merge":
				current = append(append([]inheritedHeader(nil), outer...), mine...)
			case "off":
				current = mine
			default:
				current = mine
				var lost []string
				seen := map[string]bool{}
				for _, h := range outer {
					if n := strings.ToLower(h.name); !names[n] && !seen[n] {
						seen[n] = true
						lost = append(lost, h.name)
					}
				}
				if len(lost) > 0 {
					reportDroppedHeaders(p, own[0], level, lost, outer, inherit)
				}
			}
		}
		for _, d := range dirs {
			if d.Block != nil && headerLevels[d.Name().Value] {
				visit(p.Body(d), d.Name().Value, current, mode)
			} else if d.Block != nil && !d.Is("map") && !d.Is("types") && !d.Is("upstream") {
				// limit_except and unknown blocks share their parent's list.
				visit(p.Body(d), level, current, mode)
			}
		}
	}
	root := "top level"
	if n := len(p.Config.Context); n > 0 {
		root = p.Config.Context[n-1]
	}
	visit(analyzer.ExpandIncludes(p.Config, p.Config.Main.Directives), root, nil, "on")
}

func reportDroppedHeaders(p *analyzer.Pass, first *parser.Directive, level string, lost []string, outer []inheritedHeader, inherit string) {
	where := map[string]string{}
	for _, h := range outer {
		where[strings.ToLower(h.name)] = h.level
	}
	sort.SliceStable(lost, func(i, j int) bool { return securityHeader(lost[i]) && !securityHeader(lost[j]) })
	quoted := make([]string, len(lost))
	for i, h := range lost {
		quoted[i] = "\"" + h + "\""
	}
	name := first.Name().Value
	diag := p.ReportDirective(first, "%q in this %s drops %s set in the enclosing %s", name, level,
		strings.Join(quoted, ", "), where[strings.ToLower(lost[0])])
	diag.Detail = "nginx inherits " + name + " only into blocks without any " + name + "; repeat the outer " +
		"entries here (an include helps) or add \"" + inherit + " merge;\" (nginx 1.29.3+)"
}

// securityHeader reports whether a header is one browsers enforce, whose
// loss weakens the site rather than just its caching or metadata.
func securityHeader(name string) bool {
	switch strings.ToLower(name) {
	case "strict-transport-security", "content-security-policy", "content-security-policy-report-only",
		"x-frame-options", "x-content-type-options", "x-xss-protection", "referrer-policy",
		"permissions-policy", "cross-origin-opener-policy", "cross-origin-embedder-policy",
		"cross-origin-resource-policy":
		return true
	}
	return false
}
