package advisories

// Pattern is an advisory a configuration pattern reaches (Features gives
// it ByPattern): the rule cve-config-pattern finds the pattern.
type Pattern struct {
	CVE string
	// Reached says, in words, what configuration reaches it.
	Reached string
}

// Patterns are the advisories cve-config-pattern checks, with what
// reaches each.
var Patterns = []Pattern{
	{"CVE-2026-42945", "a rewrite whose replacement holds \"?\", then a set or rewrite reading $1..$9 in the same block"},
	{"CVE-2026-9256", "a redirecting rewrite whose replacement holds both \"?\" and $1..$9"},
	{"CVE-2026-42533", "a string expression reading a capture before a variable of an http map whose regex has captures, or reading a capture and a volatile map's variable"},
	{"CVE-2026-93479", "the same as CVE-2026-42533 in root or log_format"},
	{"CVE-2026-60005", "unnamed captures ($1..$9) read with slice or a background cache update"},
	{"CVE-2026-15176", "alias with a rewrite whose replacement reads $request_filename"},
	{"CVE-2026-125283", "alias with try_files reading a variable of a map whose regex has captures"},
}

// PatternOf returns what configuration reaches advisory cve, "" when no
// pattern does.
func PatternOf(cve string) string {
	for _, c := range Patterns {
		if c.CVE == cve {
			return c.Reached
		}
	}
	return ""
}

// Affects reports whether nginx version v has advisory cve (false for
// an id the table lacks).
func Affects(cve, v string) bool {
	a := Lookup(cve)
	return a != nil && a.Affects(v)
}

// PatternAdvisory is a known nginx vulnerability that a configuration
// pattern triggers, as nginx-lint build-info lists it.
type PatternAdvisory struct {
	ID string `json:"id"`
	// Fixed names the releases that fix it.
	Fixed string `json:"fixed"`
	// Pattern says which configuration reaches it.
	Pattern string `json:"pattern"`
}

// ByPatternIn lists the vulnerabilities of open-source nginx version
// whose trigger is a configuration pattern, for an audit of a build
// whatever its configuration.
func ByPatternIn(version string) []PatternAdvisory {
	if version == "" {
		return nil
	}
	var out []PatternAdvisory
	for _, c := range Patterns {
		if Affects(c.CVE, version) {
			out = append(out, PatternAdvisory{ID: c.CVE, Fixed: Lookup(c.CVE).FixedIn(), Pattern: c.Reached})
		}
	}
	return out
}
