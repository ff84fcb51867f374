package rules

import "github.com/nginx-lint/nginx-lint/analyzer"

// targetVersion returns the nginx version the run lints for (from
// --nginx-build or --nginx), or "" when no build is given: then the target
// is the newest open-source nginx, and findings that depend on the version
// say from which one they hold.
func targetVersion(p *analyzer.Pass) string { return p.Target.Version }

// lacks reports whether the target nginx predates a feature added in
// release since; with no target (the newest nginx) nothing is lacking.
func lacks(target, since string) bool {
	return target != "" && since != "" && analyzer.CompareVersions(target, since) < 0
}
