package analyzer

import (
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
)

// requiredVersion is the newest "since" among the nginx directives a
// configuration uses: the oldest nginx that can load it, as far as its
// directives tell.
var requiredVersion = &Result[struct{}, string]{
	Name: "required nginx version",
	Compute: func(p *Pass, _ struct{}) string {
		ix := p.Index()
		need := ""
		for _, name := range ix.Names() {
			rows := directives.Lookup(name)
			if len(rows) == 0 {
				continue
			}
			if s := directives.FirstSince(rows); s != "" && (need == "" || directives.CompareVersions(s, need) > 0) {
				need = s
			}
		}
		return need
	},
}

// AssumeTarget records in d the nginx its verdict or fix assumed, for a
// finding whose report, wording or fix depends on the target's version:
// the output says which nginx that was (issue 21: the target is "said in
// the output when a version-dependent finding or fix depends on it").
func (p *Pass) AssumeTarget(d *parser.Diagnostic) {
	if d != nil {
		d.Target = p.Target.Label()
	}
}

// FixAllowed reports whether the fix of d, whose result needs nginx
// version ("" for any), may be applied: the target accepts it. With a
// named build that is its version; with none (the newest nginx assumed),
// the fix may not need a newer nginx than the configuration already does,
// so that --fix never breaks a server running an older nginx than the
// newest. A fix that needs a version records the target in d.
func (p *Pass) FixAllowed(d *parser.Diagnostic, version string) bool {
	if version == "" {
		return true
	}
	p.AssumeTarget(d)
	if p.Target.Known() {
		return p.Target.AtLeast(version)
	}
	need := requiredVersion.Get(p, struct{}{})
	return need != "" && directives.CompareVersions(need, version) >= 0
}
