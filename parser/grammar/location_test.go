package grammar

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseLocation(t *testing.T) {
	tests := []struct {
		args []string
		want Location
		err  *Error
	}{
		{[]string{"/"}, Location{Modifier: ModNone, Path: "/"}, nil},
		{[]string{"/images/"}, Location{Modifier: ModNone, Path: "/images/"}, nil},
		{[]string{"= /", "x"}, Location{}, &Error{0, `invalid location modifier "= /"`}},
		{[]string{"=", "/favicon.ico"}, Location{Modifier: ModExact, Path: "/favicon.ico"}, nil},
		{[]string{"^~", "/static/"}, Location{Modifier: ModPrefixNoRegex, Path: "/static/"}, nil},
		{[]string{"~", `\.php$`}, Location{Modifier: ModRegex, Path: `\.php$`, IsRegex: true}, nil},
		{[]string{"~*", `\.(png|jpg)$`}, Location{Modifier: ModRegexCaseless, Path: `\.(png|jpg)$`, IsRegex: true, CaseInsensitive: true}, nil},
		{[]string{"@fallback"}, Location{Modifier: ModNamed, Path: "@fallback", Named: true}, nil},
		{[]string{"@"}, Location{Modifier: ModNamed, Path: "@", Named: true}, nil},
		// Glued forms accepted by ngx_http_core_location's one-argument branch.
		{[]string{"=/exact"}, Location{Modifier: ModExact, Path: "/exact", Glued: true}, nil},
		{[]string{"^~/prefix"}, Location{Modifier: ModPrefixNoRegex, Path: "/prefix", Glued: true}, nil},
		{[]string{`~\.php$`}, Location{Modifier: ModRegex, Path: `\.php$`, IsRegex: true, Glued: true}, nil},
		{[]string{`~*\.png$`}, Location{Modifier: ModRegexCaseless, Path: `\.png$`, IsRegex: true, CaseInsensitive: true, Glued: true}, nil},
		{[]string{"="}, Location{Modifier: ModExact, Path: "", Glued: true}, nil},
		{[]string{"~"}, Location{Modifier: ModRegex, Path: "", IsRegex: true, Glued: true}, nil},
		{[]string{"~*"}, Location{Modifier: ModRegexCaseless, Path: "", IsRegex: true, CaseInsensitive: true, Glued: true}, nil},
		{[]string{"^~"}, Location{Modifier: ModPrefixNoRegex, Path: "", Glued: true}, nil},
		// "^" alone is not "^~": nginx reads the terminating NUL and sees a
		// plain prefix.
		{[]string{"^"}, Location{Modifier: ModNone, Path: "^"}, nil},
		{[]string{"^/x"}, Location{Modifier: ModNone, Path: "^/x"}, nil},
		{[]string{""}, Location{Modifier: ModNone, Path: ""}, nil},
		// Two arguments: the name is never named or glued.
		{[]string{"=", "@x"}, Location{Modifier: ModExact, Path: "@x"}, nil},
		{[]string{"~", "*x"}, Location{Modifier: ModRegex, Path: "*x", IsRegex: true}, nil},
		{[]string{"=", ""}, Location{Modifier: ModExact, Path: ""}, nil},
		{[]string{"@", "name"}, Location{}, &Error{0, `invalid location modifier "@"`}},
		{[]string{"~~", "/x"}, Location{}, &Error{0, `invalid location modifier "~~"`}},
		{[]string{"*~", "/x"}, Location{}, &Error{0, `invalid location modifier "*~"`}},
		{[]string{"^", "/x"}, Location{}, &Error{0, `invalid location modifier "^"`}},
		{[]string{"/a", "/b"}, Location{}, &Error{0, `invalid location modifier "/a"`}},
		{[]string{"", "/x"}, Location{}, &Error{0, `invalid location modifier ""`}},
		{[]string{}, Location{}, &Error{-1, `invalid number of arguments in "location" directive`}},
		{[]string{"=", "/x", "y"}, Location{}, &Error{-1, `invalid number of arguments in "location" directive`}},
	}
	for _, tc := range tests {
		got, err := ParseLocation(tc.args)
		if tc.err != nil {
			e, ok := err.(*Error)
			if !ok {
				t.Errorf("ParseLocation(%q) error = %v, want %q", tc.args, err, tc.err.Msg)
				continue
			}
			if diff := cmp.Diff(tc.err, e); diff != "" {
				t.Errorf("ParseLocation(%q) error mismatch (-want +got):\n%s", tc.args, diff)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseLocation(%q) unexpected error %v", tc.args, err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ParseLocation(%q) mismatch (-want +got):\n%s", tc.args, diff)
		}
	}
}

func TestParseLocationAllocs(t *testing.T) {
	args := []string{"~*", `\.png$`}
	if n := testing.AllocsPerRun(100, func() { _, _ = ParseLocation(args) }); n != 0 {
		t.Errorf("ParseLocation allocates %v times, want 0", n)
	}
}
