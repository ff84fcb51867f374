package tablegen

import (
	"encoding/xml"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// ChangesFile is nginx-lint's record of the nginx releases after the
// source the tables come from, beside the handlers file: nginx's change
// log in its own shape (docs/xml/nginx/changes.xml), each release with its
// date and where it was read.
const ChangesFile = "changes.xml"

// Release is one nginx release of the changes file.
type Release struct {
	Version, Date, Source string
	// Directives and Variables are those a feature of the release names
	// ("the "X" directive", "the $x variable").
	Directives, Variables []string
}

type changeLog struct {
	Changes []struct {
		Ver    string `xml:"ver,attr"`
		Date   string `xml:"date,attr"`
		Source string `xml:"source,attr"`
		Change []struct {
			Type string `xml:"type,attr"`
			Para []struct {
				Lang string `xml:"lang,attr"`
				Text string `xml:",chardata"`
			} `xml:"para"`
		} `xml:"change"`
	} `xml:"changes"`
}

var (
	quotedName = regexp.MustCompile(`"([a-z][a-z0-9_]*)"`)
	varName    = regexp.MustCompile(`\$([a-z][a-z0-9_]*)`)
	releaseRE  = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`)
	// nginx's words for new directives and variables.
	newDirectives = regexp.MustCompile(`^the ("[a-z][a-z0-9_]*"(, | and |, and ))*"[a-z][a-z0-9_]*" directives?\.$`)
	newVariables  = regexp.MustCompile(`^the (\$[a-z][a-z0-9_]*(, | and |, and ))*\$[a-z][a-z0-9_]*(\*)? variables?\.$`)
	dateRE        = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)
)

// ReadChanges reads a changes file: its releases in file order (newest
// first, as nginx writes them).
func ReadChanges(path string) ([]Release, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cl changeLog
	if err := xml.Unmarshal(b, &cl); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	var out []Release
	seen := map[string]bool{}
	for _, c := range cl.Changes {
		if !releaseRE.MatchString(c.Ver) {
			return nil, fmt.Errorf("%s: release %q is not a version such as 1.31.9", path, c.Ver)
		}
		if c.Date != "" && !dateRE.MatchString(c.Date) {
			return nil, fmt.Errorf("%s: release %s: date %q is not YYYY-MM-DD", path, c.Ver, c.Date)
		}
		if c.Source == "" {
			return nil, fmt.Errorf("%s: release %s says not where it was read (source)", path, c.Ver)
		}
		if seen[c.Ver] {
			return nil, fmt.Errorf("%s: release %s twice", path, c.Ver)
		}
		seen[c.Ver] = true
		r := Release{Version: c.Ver, Date: c.Date, Source: c.Source}
		for _, ch := range c.Change {
			if ch.Type != "feature" {
				continue
			}
			for _, p := range ch.Para {
				if p.Lang != "en" {
					continue
				}
				// Only a feature that is the new names ("the "a" and
				// "b" directives."), not one that changes an old
				// directive ("the "x" directive now supports ...").
				text := strings.Join(strings.Fields(p.Text), " ")
				if newDirectives.MatchString(text) {
					for _, m := range quotedName.FindAllStringSubmatch(text, -1) {
						r.Directives = append(r.Directives, m[1])
					}
				}
				if newVariables.MatchString(text) {
					for _, m := range varName.FindAllStringSubmatch(text, -1) {
						r.Variables = append(r.Variables, m[1])
					}
				}
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// SinceFromChanges maps each directive a release of rs names to the
// oldest such release.
func SinceFromChanges(rs []Release) map[string]string {
	since := map[string]string{}
	for _, r := range rs {
		for _, d := range r.Directives {
			if s, ok := since[d]; !ok || compareVersions(r.Version, s) < 0 {
				since[d] = r.Version
			}
		}
	}
	return since
}

// compareVersions compares dotted numeric versions; the generator may not
// import the directives package (see the package comment).
func compareVersions(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(as), len(bs)); i++ {
		var x, y int
		if i < len(as) {
			fmt.Sscan(as[i], &x)
		}
		if i < len(bs) {
			fmt.Sscan(bs[i], &y)
		}
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
	}
	return 0
}
