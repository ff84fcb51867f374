package advisories

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/directives"
)

// Advisory is one of nginx's security advisories (Table).
type Advisory struct {
	Title    string
	Severity string // "major", "medium", "low", "minor", "none"
	CVE      string
	// Good and Vulnerable are the versions as nginx.org writes them:
	// "1.16.1+" (the 1.16 branch from 1.16.1), "0.6.18-1.20.0", "all".
	Good, Vulnerable []string
	// URL is the F5 article ("" when unknown), Source where the entry
	// was read ("nginx.org" for its page).
	URL, Source string
}

// Lookup returns the advisory of Table with that CVE id, nil when there
// is none.
func Lookup(cve string) *Advisory {
	for i := range Table {
		if Table[i].CVE == cve {
			return &Table[i]
		}
	}
	return nil
}

// Affects reports whether version (the target's, or one a test names) is
// among the advisory's vulnerable versions and not among its fixed ones:
// "1.16.1+" fixes the 1.16 branch from 1.16.1, and the highest fixed
// version fixes everything after it.
func (a *Advisory) Affects(version string) bool {
	in := false
	for _, r := range a.Vulnerable {
		if r == "all" {
			in = true
			break
		}
		lo, hi, ok := strings.Cut(r, "-")
		if !ok {
			hi = lo
		}
		if directives.CompareVersions(version, lo) >= 0 && directives.CompareVersions(version, hi) <= 0 {
			in = true
		}
	}
	if !in {
		return false
	}
	top := ""
	for _, g := range a.Good {
		g = strings.TrimSuffix(g, "+")
		if top == "" || directives.CompareVersions(g, top) > 0 {
			top = g
		}
	}
	for _, g := range a.Good {
		g = strings.TrimSuffix(g, "+")
		if directives.CompareVersions(version, g) >= 0 && (g == top || branch(version) == branch(g)) {
			return false
		}
	}
	return true
}

// branch is a version's major.minor.
func branch(v string) string {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return v
	}
	return parts[0] + "." + parts[1]
}

// FixedIn says which releases fix the advisory ("1.21.0 or 1.20.1").
func (a *Advisory) FixedIn() string {
	var out []string
	for _, g := range a.Good {
		out = append(out, strings.TrimSuffix(g, "+"))
	}
	return strings.Join(out, " or ")
}

// Link is where to read the advisory: its F5 article, else nginx.org's
// page.
func (a *Advisory) Link() string {
	if a.URL != "" {
		return a.URL
	}
	return "https://nginx.org/en/security_advisories.html"
}

// UnknownRelease returns what to say, once, about a target version newer
// than every release nginx-lint knows ("" when it knows the version's
// branch up to it): its advisories and directives are not in the tables.
func UnknownRelease(version string) string {
	if version == "" || !directives.NewerThanKnown(version) {
		return ""
	}
	return "nginx " + version + ": nginx-lint knows releases up to " + strings.Join(directives.NewestKnown(), " and ") +
		"; advisories after " + Through + " are not checked"
}
