package directives

import "strings"

// FirstSince returns the earliest version any row of a directive appeared
// in ("1.3.0,1.2.1" lists a backport), or "" when some row does not say
// (it may be older than the docs' records).
func FirstSince(rows []*Directive) string {
	best := ""
	for _, r := range rows {
		if r.Since == "" || r.ThirdParty {
			return ""
		}
		for _, v := range strings.Split(r.Since, ",") {
			if best == "" || CompareVersions(v, best) < 0 {
				best = v
			}
		}
	}
	return best
}
