package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/access"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// AccessListLogic reports allow/deny lists that do not do what they seem
// to: a deny after "allow all", a "deny 0.0.0.0/0" that leaves IPv6 open,
// and "satisfy any" with "allow all", which lets every client past the
// authentication.
var AccessListLogic = &analyzer.Rule{
	Code: "NL3028", Name: "access-list-logic", Title: "allow/deny list that lets in more than it seems to", Severity: parser.Warning,
	Run: runAccessListLogic,
	Doc: analyzer.Doc{
		Text: "nginx checks `allow` and `deny` in order and stops at the first that matches the " +
			"client. After `allow all` (or `allow 0.0.0.0/0` for IPv4, `allow ::/0` for IPv6) no " +
			"later `deny` of that family is ever reached. `0.0.0.0/0` is every IPv4 address but no " +
			"IPv6 one: `deny 0.0.0.0/0` without `deny ::/0` or `deny all` lets every IPv6 client " +
			"in. With `satisfy any` a client passes when either the address list or the " +
			"authentication (`auth_basic`, `auth_request`, ...) lets it, so `allow all` in force " +
			"there makes the authentication decorative. Put the denies first, use `all`, and keep " +
			"`allow all` out of `satisfy any` blocks.",
		Bad:  "location /admin/ {\n    allow all;\n    deny 203.0.113.0/24;\n}\n",
		Good: "location /admin/ {\n    deny 203.0.113.0/24;\n    allow all;\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_access_module.html",
	},
}

// addressFamilies says which families an allow/deny argument covers
// completely: "all" both, "0.0.0.0/0" IPv4, "::/0" IPv6.
func addressFamilies(arg string) (v4, v6 bool) {
	switch strings.ToLower(arg) {
	case "all":
		return true, true
	case "0.0.0.0/0":
		return true, false
	case "::/0", "0::/0", "::0/0":
		return false, true
	}
	return false, false
}

// ipv6Arg reports whether an allow/deny argument is an IPv6 address or
// network.
func ipv6Arg(arg string) bool { return strings.Contains(arg, ":") }

func runAccessListLogic(p *analyzer.Pass) {
	// Per block, the families an earlier "allow" already let in
	// completely, and whether that block's dead deny was reported.
	type listState struct {
		allowed  [2]*parser.Directive // [IPv4, IPv6]
		reported bool
	}
	lists := map[*parser.Directive]*listState{}
	blocks := analyzer.NewPerBlock(p, access.ReadLevel)
	p.WalkNamed(func(d *parser.Directive, _ directives.Context, stack []*parser.Directive) {
		if len(stack) == 0 {
			return
		}
		if d.Is("satisfy") {
			checkSatisfyAny(p, blocks, d, stack)
			return
		}
		if len(d.Args()) != 1 {
			return
		}
		parent := stack[len(stack)-1]
		st := lists[parent]
		if st == nil {
			st = &listState{}
			lists[parent] = st
		}
		arg := d.Args()[0].Value
		v4, v6 := addressFamilies(arg)
		if d.Is("allow") {
			if v4 && st.allowed[0] == nil {
				st.allowed[0] = d
			}
			if v6 && st.allowed[1] == nil {
				st.allowed[1] = d
			}
			return
		}
		// A deny: dead when an earlier allow covers its family.
		var a *parser.Directive
		switch {
		case strings.EqualFold(arg, "all"):
			// Dead only when both families were let in already.
			if st.allowed[0] != nil && st.allowed[1] != nil {
				a = st.allowed[0]
				if st.allowed[1] != a {
					a = st.allowed[1]
				}
			}
		case ipv6Arg(arg):
			a = st.allowed[1]
		default:
			a = st.allowed[0]
		}
		if a != nil && !st.reported {
			st.reported = true
			diag := p.ReportDirective(d, "%q %q is never reached: %q %q before it already lets every client in", "deny", arg, "allow", a.Args()[0].Value)
			diag.Detail = "nginx stops at the first allow or deny that matches; put the denies before the allow"
			return
		}
		if v4 && !v6 && !denyLater(p, parent, d) {
			diag := p.Reportf(d.File, d.Args()[0].Range, "%q %q denies IPv4 clients only: every IPv6 client passes", "deny", arg)
			diag.Detail = "use \"deny all\" to deny everyone, or add \"deny ::/0\""
		}
	}, "allow", "deny", "satisfy")
}

// denyLater reports whether the list of block after d has a deny covering
// IPv6 (deny all, deny ::/0).
func denyLater(p *analyzer.Pass, block, d *parser.Directive) bool {
	after := false
	for _, s := range p.Body(block) {
		if s == d {
			after = true
			continue
		}
		if after && s.Is("deny") && len(s.Args()) == 1 {
			if _, v6 := addressFamilies(s.Args()[0].Value); v6 {
				return true
			}
		}
	}
	return false
}

// checkSatisfyAny reports "satisfy any" where the access list in force
// lets every client in: the access module answers OK to everyone, which
// ends the access phase before any authentication.
func checkSatisfyAny(p *analyzer.Pass, blocks *analyzer.PerBlock[access.Level], d *parser.Directive, stack []*parser.Directive) {
	if len(d.Args()) != 1 || !strings.EqualFold(d.Args()[0].Value, "any") {
		return
	}
	a := access.At(blocks, stack)
	if !a.AllowsEveryone() {
		return
	}
	diag := p.ReportDirective(d, "%q %q with %q %q in force: every client gets in, whatever the authentication says", "satisfy", "any", "allow", "all")
	diag.Detail = "satisfy any passes a client that either the address list or the authentication accepts; list the trusted networks instead of all, then deny all"
}
