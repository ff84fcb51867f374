// Package advisories is what nginx's security advisories say, as
// nginx-lint checks them: the table of every advisory (its CVE, title,
// severity, the versions it affects and those that fix it, where it was
// read), generated from nginx.org's security_advisories.xml and
// nginx-lint's record of the advisories published after it
// (advisories_gen.go, by internal/gen); which versions each affects
// (Advisory.Affects); and what a configuration must use to be reached by
// each (Features: nginx's core, which no configuration avoids, a
// configuration pattern, or a Condition that finds the directive that
// reaches it). The rules nginx-advisory and cve-config-pattern read it,
// and nginx-lint build-info's audit (ByPatternIn).
//
// Regenerating the table needs a checkout or a bare clone of
// github.com/nginx/nginx.org beside the repository (docs/security.md).
package advisories

//go:generate go run ./internal/gen -nginx-org ../../../nginx.org -newer internal/gen/security_advisories.xml -changes ../directives/changes.xml -out advisories_gen.go
