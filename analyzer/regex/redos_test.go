package regex

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// redosCases are regexes with the growth the analysis must find: "exp",
// "poly" or "" (none). TestReDoSMeasured checks each against PCRE2.
var redosCases = []struct{ expr, want string }{
	{`^/(.|x)+/path$`, "exp"},
	{`^(a+)+$`, "exp"},
	{`^(\w+\s?)+bot$`, "exp"},
	{`^(a+)+\.example\.com$`, "exp"},
	{`^/x/(.*)*$`, "exp"},
	{`^/(([a-z]+)*)$`, "exp"},
	{`^((ab)*c?)+$`, "exp"},
	{`^([a-z]{1,8})+$`, "exp"},
	{`^/(a|a)+$`, "exp"},
	{`^/([a-z]|[aeiou])*\.html$`, "exp"},
	// Overlapping alternatives under a repeat are exponential when the
	// overlap lets one text split two ways: "aa" is a+a or aa, "ab" is
	// ab or a+b, "foobar" is foobar or foo+bar.
	{`^/(a|aa)+$`, "exp"},
	{`^/(ab|a|b)+$`, "exp"},
	{`^/(foo|foobar|bar)+$`, "exp"},
	{`^/(\w+|\d+)+$`, "exp"},
	{`^/(?:[a-z]+|[a-z0-9]+)*\.php$`, "exp"},
	{`^/.*.*end$`, "poly"},
	{`^/\w*\w*a$`, "poly"},
	{`^/[a-z]+-?[a-z]+z$`, "poly"},
	{`^/\d+\d+x$`, ""},          // PCRE makes the second \d+ possessive: it gives nothing back
	{`^/[a-z]*[a-z0-9]*/$`, ""}, // likewise
	{`^/(a|ab)+$`, ""},          // a and ab read a string one way only: linear in PCRE too
	{`^/(ab|a)+x$`, ""},         // likewise, whichever comes first
	{`^/(foo|foobar)+$`, ""},    // "bar" starts no alternative: one way only
	{`^/(\w+/)*$`, ""},
	{`^(/[a-z]+)*$`, ""},
	{`^/([a-z]{1,8}-?){1,4}$`, ""},
	{`^/api/v[0-9]+/users/[0-9]+$`, ""},
	{`\.php$`, ""},
	{`^/(?:images|css|js)/.*\.(?:png|jpg|css|js)$`, ""},
	{`(a+)+`, ""}, // matches whatever follows an "a": PCRE stops at once
	{`^/[a-z]+/[0-9]+`, ""},
	{`^/(?:[a-z]+-)*[a-z]+$`, ""},
}

// TestReDoSAnalysis checks the growth class the analysis gives each case.
func TestReDoSAnalysis(t *testing.T) {
	for _, tc := range redosCases {
		b := AnalyzeBacktracking(Unfactored(tc.expr, false), Matcher(tc.expr, false))
		if got := growth(b); got != tc.want {
			t.Errorf("%s: %q, want %q (%+v)", tc.expr, got, tc.want, b)
		}
	}
}

func growth(b *Backtracking) string {
	switch {
	case b == nil:
		return ""
	case b.Exponential:
		return "exp"
	}
	return "poly"
}

// TestReDoSMeasured runs PCRE2 (pcre2test from Debian's pcre2-utils, the
// library nginx links) on the subjects the analysis gives, and measures
// the backtracking: PCRE2's "minimum match limit" (find_limits), the
// number of times its matcher is entered. An exponential finding must
// grow by at least 2^k/4 when the subject gets k more repetitions; a
// polynomial one by 3 to 6 times when the subject doubles (quadratic: 4);
// a regex with no finding stays under 2.5 times on doubled subjects made
// of its characters.
func TestReDoSMeasured(t *testing.T) {
	pcre2test, err := exec.LookPath("pcre2test")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true: pcre2test is required (apt-get install pcre2-utils)")
		}
		t.Skip("pcre2test not installed (apt-get install pcre2-utils): backtracking is not measured")
	}
	limit := func(expr, subject string) int {
		t.Helper()
		script := "/" + strings.ReplaceAll(expr, "/", `\/`) + "/\n" + pcreSubject(subject) + `\=find_limits` + "\n"
		f, err := os.CreateTemp(t.TempDir(), "re")
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(script)
		f.Close()
		out, err := exec.Command(pcre2test, f.Name()).CombinedOutput()
		if err != nil {
			t.Fatalf("pcre2test: %v\n%s\n%s", err, script, out)
		}
		m := regexp.MustCompile(`Minimum match limit = (\d+)`).FindSubmatch(out)
		if m == nil {
			t.Fatalf("pcre2test gave no match limit:\n%s\n%s", script, out)
		}
		n, _ := strconv.Atoi(string(m[1]))
		return n
	}
	for _, tc := range redosCases {
		b := AnalyzeBacktracking(Unfactored(tc.expr, false), Matcher(tc.expr, false))
		switch growth(b) {
		case "exp":
			small, large := limit(tc.expr, b.Attack(3)), limit(tc.expr, b.Attack(8))
			t.Logf("%s: exponential, %q: %d → %d", tc.expr, b.Attack(2), small, large)
			if large < small*(1<<5)/4 {
				t.Errorf("%s: the attack %q grows from %d to %d steps from 3 to 8 repetitions, not exponentially", tc.expr, b.Attack(2), small, large)
			}
		case "poly":
			small, large := limit(tc.expr, b.Attack(100)), limit(tc.expr, b.Attack(200))
			ratio := float64(large) / float64(small)
			t.Logf("%s: polynomial, %q: %d → %d (%.1f×)", tc.expr, b.Attack(2), small, large, ratio)
			if ratio < 3 || ratio > 6 {
				t.Errorf("%s: the attack grows %.1f× when it doubles, not quadratically", tc.expr, ratio)
			}
		default:
			// The regex's own characters, repeated, then a failing end.
			chars := regexp.MustCompile(`[a-z0-9/.-]`).FindAllString(tc.expr, -1)
			unit := strings.Join(chars, "")
			for _, end := range []string{"!", "\n", ""} {
				small := limit(tc.expr, strings.Repeat(unit, 20)+end)
				large := limit(tc.expr, strings.Repeat(unit, 40)+end)
				if ratio := float64(large) / float64(max(small, 1)); ratio > 2.5 {
					t.Errorf("%s: no finding, but %q×n%q grows %.1f× when doubled", tc.expr, unit, end, ratio)
				}
			}
		}
	}
}

// pcreSubject writes a subject line for pcre2test: printable ASCII as is
// (a backslash escaped), other bytes as \x{hh}.
func pcreSubject(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			b.WriteString(`\\`)
		case c > ' ' && c < 127:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, `\x{%02x}`, c)
		}
	}
	return b.String()
}
