package rules

import "testing"

// A regenerated advisory table must not add an advisory nobody decided
// the configuration pattern of.
func TestAdvisoriesHaveFeature(t *testing.T) {
	for _, a := range advisoryTable {
		if _, ok := advisoryFeature[a.cve]; !ok {
			t.Errorf("%s (%s): add it to advisoryFeature", a.cve, a.title)
		}
	}
}

func TestAdvisoryVulnerableIn(t *testing.T) {
	resolver := advisory{good: []string{"1.21.0+", "1.20.1+"}, vulnerable: []string{"0.6.18-1.20.0"}}
	for v, want := range map[string]bool{
		"0.6.17": false, "0.6.18": true, "1.18.0": true, "1.20.0": true,
		"1.20.1": false, "1.21.0": false, "1.22.1": false,
	} {
		if got := resolver.vulnerableIn(v); got != want {
			t.Errorf("CVE-2021-23017 in %s = %v, want %v", v, got, want)
		}
	}
	mp4 := advisory{good: []string{"1.29.7+", "1.28.3+"}, vulnerable: []string{"1.1.19-1.29.6"}}
	for v, want := range map[string]bool{
		"1.28.2": true, "1.28.3": false, "1.29.6": true, "1.29.7": false, "1.30.0": false, "1.26.9": true,
	} {
		if got := mp4.vulnerableIn(v); got != want {
			t.Errorf("CVE-2026-27784 in %s = %v, want %v", v, got, want)
		}
	}
}
