package regex

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// pcre2Answers runs pcre2test (Debian's pcre2-utils, the PCRE2 nginx
// links, in its default tables, as nginx runs it) on a pattern and
// subjects: for each subject the whole match as pcre2test prints it,
// "" for no match; ok is false when PCRE2 refuses the pattern.
func pcre2Answers(t *testing.T, pcre2test, pattern string, caseless bool, subjects []string) (out []string, ok bool) {
	t.Helper()
	var script strings.Builder
	script.WriteString("/" + strings.ReplaceAll(pattern, "/", `\/`) + "/")
	if caseless {
		script.WriteString("i")
	}
	script.WriteString("\n")
	for _, s := range subjects {
		script.WriteString("  " + pcreSubject(s) + "\n")
	}
	f, err := os.CreateTemp(t.TempDir(), "re")
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(script.String())
	f.Close()
	res, _ := exec.Command(pcre2test, "-q", f.Name()).CombinedOutput()
	lines := strings.Split(string(res), "\n")
	if len(lines) < 2 || strings.HasPrefix(lines[1], "Failed") {
		return nil, false
	}
	i := 1
	for range subjects {
		i++ // the subject, echoed
		if i >= len(lines) || lines[i-1] != "  "+pcreSubject(subjects[len(out)]) {
			t.Fatalf("pcre2test: short answer to %q:\n%s", script.String(), res)
		}
		if lines[i] == "No match" {
			out = append(out, "")
			i++
			continue
		}
		if !strings.HasPrefix(lines[i], " 0: ") {
			t.Fatalf("pcre2test: unexpected %q for %q:\n%s", lines[i], script.String(), res)
		}
		out = append(out, "="+strings.TrimPrefix(lines[i], " 0: "))
		i++
		for i < len(lines) && groupLine.MatchString(lines[i]) {
			i++
		}
	}
	return out, true
}

var groupLine = regexp.MustCompile(`^ ?\d+: |^ ?\d+: ?<unset>$|^ ?\d+: $`)

// pcrePrinted writes a match as pcre2test prints it: printable ASCII
// as is, other bytes as \xhh.
func pcrePrinted(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= ' ' && c < 0x7f {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, `\x%02x`, c)
		}
	}
	return b.String()
}

// randomCaseless draws a regex over letters, bytes above 0x7f (raw and
// escaped), classes that name them, general categories and inline
// flags: the patterns whose caseless reading PCRE and Go's (?i) differ
// on.
func randomCaseless(r *rand.Rand, depth int) string {
	atoms := []string{"a", "K", "s", "\xc3", `\xe3`, `\x{c9}`, `\xe9`, "\xb5", ".", `\w`, `[\xc0-\xde]`,
		`[^\xc3a]`, `[\x41-\xe0]`, `[a-z\xe0-\xff]`, `\p{L}`, `\PL`, `\p{Nd}`, `[\p{L}0]`, `[^\p{Ll}]`,
		`\p{Lu}`, `[[:alpha:]\xff]`, `\x4b`, "/", `\Q` + "\xe9." + `\E`}
	if depth <= 0 {
		return atoms[r.IntN(len(atoms))]
	}
	switch r.IntN(9) {
	case 0, 1:
		return randomCaseless(r, depth-1) + randomCaseless(r, depth-1)
	case 2:
		return "(" + randomCaseless(r, depth-1) + "|" + randomCaseless(r, depth-1) + ")"
	case 3:
		return "(?:" + randomCaseless(r, depth-1) + ")+"
	case 4:
		return "(?i)" + randomCaseless(r, depth-1)
	case 5:
		return "(?i:" + randomCaseless(r, depth-1) + ")" + randomCaseless(r, depth-1)
	case 6:
		return "(?-i:" + randomCaseless(r, depth-1) + ")"
	case 7:
		return "^" + randomCaseless(r, depth-1)
	}
	return randomCaseless(r, depth-1) + "$"
}

// TestCaselessAgainstPCRE2 draws regexes that name bytes above 0x7f,
// general categories and inline flags, ~ and ~*, and subjects over the
// bytes they tell apart: where Match answers, it answers as PCRE2 does
// (pcre2test), and the automaton of the regex (unreachable-location,
// diff's request set) accepts exactly the subjects Match matches.
// Unsure is allowed only for \p{Lu}, \p{Ll} and \p{Lt} in a regex that
// may be caseless (PCRE2 10.45 reads them as \p{L&}).
func TestCaselessAgainstPCRE2(t *testing.T) {
	pcre2test, err := exec.LookPath("pcre2test")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true: pcre2test is required (apt-get install pcre2-utils)")
		}
		t.Skip("pcre2test not installed (apt-get install pcre2-utils)")
	}
	r := rand.New(rand.NewPCG(29, 497))
	alphabet := []string{"a", "A", "k", "K", "s", "S", "0", "/", ".", "\n", "\xc3", "\xe3", "\xc9", "\xe9", "\xb5", "\xff", "\xd7"}
	var compared, unsure, autos, refused int
	for range 300 {
		pattern := randomCaseless(r, 3)
		caseless := r.IntN(2) == 0
		var subjects []string
		for range 16 {
			var b strings.Builder
			// pcre2test ends the subjects at an empty line.
			for range 1 + r.IntN(4) {
				b.WriteString(alphabet[r.IntN(len(alphabet))])
			}
			subjects = append(subjects, b.String())
		}
		want, ok := pcre2Answers(t, pcre2test, pattern, caseless, subjects)
		if !ok {
			refused++
			continue
		}
		re := Compile(pattern, caseless)
		auto, why := re.Automaton()
		hasCase := strings.Contains(pattern, `\p{Lu}`) || strings.Contains(pattern, `\p{Ll}`)
		if auto == nil {
			if !hasCase {
				t.Errorf("%q (caseless %v): no automaton (%s)", pattern, caseless, why)
			}
		} else {
			autos++
		}
		for i, s := range subjects {
			if auto != nil && accepts(auto, s) != (want[i] != "") {
				t.Errorf("%q (caseless %v) on %q: the automaton accepts %v, PCRE2 %q", pattern, caseless, s, accepts(auto, s), want[i])
			}
			caps, ok, why := re.Match(s)
			if why != "" {
				unsure++
				if !hasCase && !strings.HasSuffix(s, "\n") {
					t.Errorf("%q (caseless %v) on %q: unsure (%s)", pattern, caseless, s, why)
				}
				continue
			}
			compared++
			got := ""
			if ok {
				got = "=" + pcrePrinted(caps.Values[0])
			}
			if got != want[i] {
				t.Errorf("%q (caseless %v) on %q: %q, PCRE2 %q", pattern, caseless, s, got, want[i])
			}
		}
	}
	t.Logf("%d answers compared with PCRE2, %d unsure, %d automata, %d patterns PCRE2 refused", compared, unsure, autos, refused)
	if compared < 2000 || autos < 100 {
		t.Errorf("too few compared: %d answers, %d automata", compared, autos)
	}
}
