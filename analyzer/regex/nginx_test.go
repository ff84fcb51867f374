package regex

import (
	"context"
	"math/rand"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// curated are patterns for each error PCRE2 reports and for the valid
// syntax nearest to it.
var curated = []string{
	`^/a/(.*)$`, `^/([a-z]`, `a)`, `(a))`, `*a`, `a|*`, `a**`, `a*+`, `a*?`, `a{2}{3}`, `a{2}+`, `a{3,2}`,
	`a{99999}`, `a{65535}`, `a{1,99999}`, `a{,3}`, `a{x}`, `{2}`, `x{2,}`, `[a-z`, `[]a]`, `[^]a]`, `[]`, `[^]`,
	`[z-a]`, `[\d-z]`, `[a-\d]`, `[\w-]`, `[-a]`, `[a-]`, `[[:alpha:]]`, `[[:foo:]]`, `[[:^digit:]]`, `[[.a.]]`,
	`[[=a=]]`, `[:alpha:]`, `[[:alpha:]-z]`, `\`, `a\`, `\c`, `\cA`, `\i`, `\j`, `\m`, `\q`, `\y`, `\T`, `\M`,
	`\O`, `\I`, `\J`, `\Y`, `\F`, `\L`, `\l`, `\U`, `\u`, `\N{name}`, `\N`, `\N{3}`, `\x{100}`, `\x{ff}`,
	`\x{}`, `\x{zz}`, `\xzz`, `\o{400}`, `\o{17}`, `\o{8}`, `\o`, `\400`, `\377`, `\1`, `(a)\1`, `(a)\2`,
	`\8`, `(a)\10`, `\k<n>`, `(?<n>a)\k<n>`, `(?<n>a)\k{n}`, `(?<n>a)\k'n'`, `\k`, `\g1`, `(a)\g1`,
	`(a)\g{-1}`, `\g{-1}`, `\g{0}`, `\g0`, `(a)\g<1>`, `\g<n>`, `\g`, `(?<n>a)(?<n>b)`, `(?<1n>a)`,
	`(?<n a)`, `(?<>a)`, `(?P<n>a)(?P=n)`, `(?P=n)`, `(?P>n)`, `(?Pn)`, `(?&n)`, `(?<n>a)(?&n)`, `(?R)`,
	`(?R`, `(?1)`, `(a)(?1)`, `(a)(?-1)`, `(?-1)`, `(?+1)(a)`, `(?+0)`, `(?0)`, `(?i)a`, `(?i:a)`, `(?z)`,
	`(?i-s)`, `(?i--s)`, `(?^i)`, `(?x) a b # c`, `(?#comment)a`, `(?#comment`, `(?=a)`, `(?!a)`, `(?<=a)`,
	`(?<!ab)`, `(?<=a|bc)`, `(?<=a+)`, `(?<=a*)`, `(?<=(a|bc))`, `(?<=a{2})`, `(?<=a{2,3})`, `(?<=\d\w)`,
	`(?<=x\R)`, `(?<=\1)(a)`, `(?>a+)`, `(?|(a)|(b))`, `(?(1)a|b)(c)`, `(?(1)a|b|c)`, `(?(2)a)`, `(?(<n>)a)`,
	`(?(n)a)(?<n>b)`, `(?(R)a)`, `(?(DEFINE)(?<d>\d))`, `(?(?=a)a|b)`, `(?(`, `(?()a)`, `(?C)`, `(?C1)`,
	`(?C256)`, `(?C"x")`, `(?C"x`, `(*FAIL)`, `(*F)`, `(*ACCEPT)`, `(*COMMIT)`, `(*MARK:x)`, `(*MARK)`,
	`(*PRUNE)`, `(*SKIP)`, `(*THEN)`, `(*FOO)`, `(*:m)a`, `(*:m`, `(*UTF)a`, `(*UCP)a`, `(*CR)a`, `(*LIMIT_MATCH=10)a`,
	`(*pla:a)`, `(*nla:a)`, `(*plb:a)`, `(*plb:a+)`, `(*atomic:a)`, `(*foo:a)`, `(*)`, `(*`, `(?`, `(?P`,
	`\Qa(b\E)`, `\Qa(b`, `\Qa\E*`, `\E`, `\Q\E*`, `\p{L}`, `\p{Lu}`, `\pL`, `\p{Foo}`, `\p`, `\p{`, `\p{^L}`,
	`\pZ`, `\pQ`, `\X`, `\R`, `\h\H\v\V`, `\K`, `(?=\K)`, `a\Kb`, `^*`, `$*`, `\b*`, `\B+`, `\A?`, `\z*`,
	`\G*`, `(?=a)*`, `(?i)*`, `\K*`, `.{2,3}?`, `a{2,3}+`, `[\b]`, `[\B]`, `[\R]`, `[\X]`, `[\N]`, `[\i]`,
	`[\8]`, `[\Q]\E]`, `[\x{100}]`, `[\o{400}]`, `[a-\x{ff}]`, `[\x41-\x40]`, `[\cA]`, `[\c`, `[\`, `[\k]`,
	`[\g]`, `[\A]`, `[\z]`, `[\p{L}-z]`, `[a-z-0]`, `[%--]`, `[--0]`, `~`, `^/api/v[0-9]+/(?<rest>.*)$`,
	`\.(?:jpg|jpeg|png)$`, `^/(?!admin)`, `[[:alpha:]`, `[[:alpha:`, `()`, `(|)`, `a||b`, `(?:)`, `(?<n>)`,
	`x{2`, `x{2,`, `x{2,3`, `(?x)[ ]`, `(?x)a #)`, `(?x:a )b`, `(?xx)[ a]`, `a(?#x)*`, `\0`, `\01`, `\012`,
	`\0123`, `[\0-\7]`, `\8\9`, `(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\10`, `\11`, `[\11-\1]`,
}

// fragments build random patterns, valid and broken, for the
// differential test.
var fragments = []string{
	"a", "b", "/", ".", `\d`, `\w`, `\s`, `\.`, "[a-z]", "[z-a]", "[", "]", "(", ")", "(?:", "(?<n>", "(?<m>",
	"(?<=", "(?<!", "(?=", "(?!", "|", "*", "+", "?", "{2}", "{2,1}", "{2,}", "{,3}", "^", "$", `\`, `\1`,
	`\2`, `\k<n>`, "(?P<n>", "(?i)", "(?z)", "[[:alpha:]]", "[[:foo:]]", `\x{100}`, `\Q`, `\E`, `\p{L}`,
	`\i`, "(?#", `\K`, "++", "*?", "(?|", "(?>", "(?R)", "(?1)", "(?-1)", "(?(1)", `\b`, "[^]", "[]a]",
	`[\d-z]`, "{", "}", "-", ":", "(*FAIL)", "(*", `\c`, `\g{-1}`, "(?x)", " ", "#",
	`\d{2,4}`, "[^/]+", "(?i:", `\x41`, `[\w.-]`, `(?<year>\d{4})`, `\s*`, ".*?", "{0}", `[\]]`, `[a\-z]`, `\/`, `\-`,
	"(?=.*", `\x{41}`, `[\x00-\x7f]`, `\R`, `\X`, `\h+`, "[[:^space:]]", `\p{Lu}`, `\P{L}`, `\pN`, `(?<=\d)`, `(?<!\w\w)`,
	"(?s)", "(?m)", "(?-i)", "(?J)", "(?U)", `\Q.*\E`, `\k{year}`, "(?&year)", "(?P>year)", "(?1)", "{,}", "{1,2", "x{2}+",
}

// generated returns n patterns from fragments, deterministically.
func generated(n int) []string {
	r := rand.New(rand.NewSource(8))
	out := make([]string, 0, n)
	seen := map[string]bool{}
	for len(out) < n {
		k := 1 + r.Intn(6)
		var b strings.Builder
		for i := 0; i < k; i++ {
			b.WriteString(fragments[r.Intn(len(fragments))])
		}
		if s := b.String(); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

var nginxPCRE = regexp.MustCompile(`^pcre2_compile\(\) failed: (.*) in "(.*?)"(?: at "(.*)")?$`)

// TestNginxDifferential compiles each pattern with the real nginx
// (location ~ "pattern") and requires Check to agree: an error exactly
// when nginx reports one, with PCRE2's message, and the same "at" part
// (the offset) in at least 95% of the errors.
func TestNginxDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nginx once per pattern")
	}
	nginx := nginxtest.Require(t)
	patterns := append(append([]string{}, curated...), generated(1200)...)
	type outcome struct {
		ok       bool
		msg, at  string
		hasAt    bool
		skip     bool
		rawError string
	}
	results := make([]outcome, len(patterns))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, pat := range patterns {
		conf := "events {}\nhttp {\n    server {\n        listen 127.0.0.1:18931;\n        location ~ \"" +
			strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(pat) + "\" {}\n    }\n}\n"
		// The config must carry the pattern to nginx unchanged.
		f := parser.ParseFile("t.conf", []byte(conf), nil)
		if got := f.Directives[1].Block.Directives[0].Block.Directives[1].Args()[1].Value; got != pat {
			t.Fatalf("pattern %q encoded as %q", pat, got)
		}
		wg.Add(1)
		go func(i int, conf string) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			res, err := nginxtest.TestData(context.Background(), nginx, []byte(conf), nginxtest.Quiet())
			if err != nil {
				t.Error(err)
				return
			}
			if res.OK {
				results[i] = outcome{ok: true}
				return
			}
			errs := res.Errors()
			if len(errs) == 0 {
				results[i] = outcome{skip: true, rawError: res.Stderr}
				return
			}
			m := nginxPCRE.FindStringSubmatch(errs[0].Text)
			if m == nil {
				results[i] = outcome{skip: true, rawError: errs[0].Text}
				return
			}
			results[i] = outcome{msg: m[1], at: m[3], hasAt: strings.Contains(errs[0].Text, `" at "`)}
		}(i, conf)
	}
	wg.Wait()
	var valid, invalid, atSame, skipped int
	for i, pat := range patterns {
		want := results[i]
		if want.skip {
			// nginx failed for another reason (a "{" in the pattern can
			// make the location's argument count wrong, say).
			skipped++
			t.Logf("%q: nginx: %s", pat, want.rawError)
			continue
		}
		got := Check(pat)
		switch {
		case want.ok && got != nil:
			t.Errorf("%q: nginx accepts it, we say %q at %d", pat, got.Msg, got.Offset)
		case !want.ok && got == nil:
			t.Errorf("%q: nginx says %q, we accept it", pat, want.msg)
		case !want.ok && got.Msg != want.msg:
			t.Errorf("%q: nginx says %q, we say %q", pat, want.msg, got.Msg)
		case want.ok:
			valid++
		default:
			invalid++
			gotAt, gotHasAt := "", got.Offset < len(pat)
			if gotHasAt {
				gotAt = pat[got.Offset:]
			}
			if gotHasAt == want.hasAt && gotAt == want.at {
				atSame++
			} else {
				t.Logf("%q: %q: nginx at %q, we at %q", pat, want.msg, want.at, gotAt)
			}
		}
	}
	t.Logf("%d patterns: %d valid and %d invalid agree with nginx (%d with the same offset), %d skipped", len(patterns), valid, invalid, atSame, skipped)
	if invalid > 0 && atSame*100 < invalid*95 {
		t.Errorf("only %d of %d errors at nginx's offset", atSame, invalid)
	}
	if valid < 200 || invalid < 200 {
		t.Errorf("too few cases of a kind: %d valid, %d invalid", valid, invalid)
	}
}
