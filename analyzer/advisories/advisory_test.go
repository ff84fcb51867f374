package advisories

import "testing"

// A regenerated advisory table must not add an advisory nobody decided
// the configuration pattern of, and every feature is a condition, the
// core or a pattern cve-config-pattern checks.
func TestAdvisoriesHaveFeature(t *testing.T) {
	for _, a := range Table {
		f, ok := Features[a.CVE]
		if !ok {
			t.Errorf("%s (%s): add it to Features", a.CVE, a.Title)
			continue
		}
		if _, cond := Conditions[f]; !cond && f != Core && f != ByPattern {
			t.Errorf("%s: feature %q is no condition, %q or %q", a.CVE, f, Core, ByPattern)
		}
		if f == ByPattern && PatternOf(a.CVE) == "" {
			t.Errorf("%s: checked by pattern, but Patterns does not say which", a.CVE)
		}
	}
	for _, c := range Patterns {
		if Lookup(c.CVE) == nil || Features[c.CVE] != ByPattern {
			t.Errorf("%s: a pattern, but not in the table as one (feature %q)", c.CVE, Features[c.CVE])
		}
	}
}

func TestAdvisoryAffects(t *testing.T) {
	resolver := Advisory{Good: []string{"1.21.0+", "1.20.1+"}, Vulnerable: []string{"0.6.18-1.20.0"}}
	for v, want := range map[string]bool{
		"0.6.17": false, "0.6.18": true, "1.18.0": true, "1.20.0": true,
		"1.20.1": false, "1.21.0": false, "1.22.1": false,
	} {
		if got := resolver.Affects(v); got != want {
			t.Errorf("CVE-2021-23017 in %s = %v, want %v", v, got, want)
		}
	}
	mp4 := Advisory{Good: []string{"1.29.7+", "1.28.3+"}, Vulnerable: []string{"1.1.19-1.29.6"}}
	for v, want := range map[string]bool{
		"1.28.2": true, "1.28.3": false, "1.29.6": true, "1.29.7": false, "1.30.0": false, "1.26.9": true,
	} {
		if got := mp4.Affects(v); got != want {
			t.Errorf("CVE-2026-27784 in %s = %v, want %v", v, got, want)
		}
	}
}

// TestByPatternIn: the audit of a build lists the pattern advisories its
// version has, with the releases that fix them.
func TestByPatternIn(t *testing.T) {
	got := ByPatternIn("1.30.5")
	ids := map[string]string{}
	for _, a := range got {
		ids[a.ID] = a.Fixed
	}
	// CVE-2026-15176 affects 0.1.29-1.31.6, fixed in 1.31.7 and 1.30.6.
	if ids["CVE-2026-15176"] != "1.31.7 or 1.30.6" {
		t.Errorf("1.30.5: %+v", got)
	}
	// CVE-2026-42533 is fixed in 1.30.4.
	if _, ok := ids["CVE-2026-42533"]; ok {
		t.Errorf("1.30.5 is fixed for CVE-2026-42533: %+v", got)
	}
	if ByPatternIn("") != nil {
		t.Error("no version, yet advisories")
	}
}
