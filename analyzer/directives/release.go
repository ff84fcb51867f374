package directives

import "strings"

// Release is an nginx release the tables know after their source
// (changes.xml): its version and date ("" when the sources read do not
// give it).
type Release struct {
	Version, Date string
}

// Releases returns the releases after the tables' source, newest first.
func Releases() []Release { return append([]Release(nil), releaseTable[:]...) }

// branch is a version's major.minor.
func branch(v string) string {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return v
	}
	return parts[0] + "." + parts[1]
}

// NewestKnown returns the newest release the tables know of each branch
// that had a release after their source, newest branch first
// ("1.31.9", "1.30.7"); NginxVersion alone when none did.
func NewestKnown() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range releaseTable {
		b := branch(r.Version)
		if seen[b] {
			continue
		}
		seen[b] = true
		out = append(out, r.Version)
	}
	if len(out) == 0 {
		return []string{NginxVersion}
	}
	return out
}

// NewerThanKnown reports whether v is a release the tables cannot know:
// newer than NginxVersion, or on a branch with releases after the source
// and newer than that branch's newest (1.30.8 when 1.30.7 is the newest
// known 1.30).
func NewerThanKnown(v string) bool {
	if CompareVersions(v, NginxVersion) > 0 {
		return true
	}
	for _, n := range NewestKnown() {
		if branch(n) == branch(v) {
			return CompareVersions(v, n) > 0
		}
	}
	return false
}
