package rules

import "github.com/nginx-lint/nginx-lint/analyzer"

// targetVersion returns the nginx version the run lints for (the rule's
// "version" option, which --nginx-build and --nginx set from nginx -V),
// or "" when no build is given: then the target is the newest open-source
// nginx, and findings that depend on the version say from which one they
// hold.
func targetVersion(p *analyzer.Pass) string {
	v, _ := p.Options["version"].(string)
	return v
}

// lacks reports whether the target nginx predates a feature added in
// release since; with no target (the newest nginx) nothing is lacking.
func lacks(target, since string) bool {
	return target != "" && since != "" && compareVersions(target, since) < 0
}

// VersionedRules are the rules that take the target nginx version as their
// "version" option; the command line and the tests hand it to each.
var VersionedRules = []*analyzer.Rule{InvalidParameter, InvalidURL, InvalidEntry, Deprecated}
