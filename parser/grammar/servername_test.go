package grammar

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseServerName(t *testing.T) {
	tests := []struct {
		in   string
		want ServerName
		err  string
	}{
		{"example.com", ServerName{Kind: NameExact, Raw: "example.com", Name: "example.com", Domain: "example.com"}, ""},
		{"WWW.Example.COM", ServerName{Kind: NameExact, Raw: "WWW.Example.COM", Name: "www.example.com", Domain: "www.example.com"}, ""},
		{"example.com.", ServerName{Kind: NameExact, Raw: "example.com.", Name: "example.com.", Domain: "example.com."}, ""},
		{"localhost", ServerName{Kind: NameExact, Raw: "localhost", Name: "localhost", Domain: "localhost"}, ""},
		{"*.example.com", ServerName{Kind: NameWildcardHead, Raw: "*.example.com", Name: "*.example.com", Domain: "example.com"}, ""},
		{"*.Example.com", ServerName{Kind: NameWildcardHead, Raw: "*.Example.com", Name: "*.example.com", Domain: "example.com"}, ""},
		{"www.example.*", ServerName{Kind: NameWildcardTail, Raw: "www.example.*", Name: "www.example.*", Domain: "www.example"}, ""},
		{"x.*", ServerName{Kind: NameWildcardTail, Raw: "x.*", Name: "x.*", Domain: "x"}, ""},
		{".example.com", ServerName{Kind: NameDotWildcard, Raw: ".example.com", Name: ".example.com", Domain: "example.com"}, ""},
		{`~^www\d+\.example\.com$`, ServerName{Kind: NameRegex, Raw: `~^www\d+\.example\.com$`, Name: `^www\d+\.example\.com$`}, ""},
		{`~^(?<sub>.+)\.Example\.com$`, ServerName{Kind: NameRegex, Raw: `~^(?<sub>.+)\.Example\.com$`, Name: `^(?<sub>.+)\.Example\.com$`, CaseInsensitive: true}, ""},
		{"~^a/b$", ServerName{Kind: NameRegex, Raw: "~^a/b$", Name: "^a/b$", Suspicious: true}, ""},
		{"~", ServerName{Kind: NameRegex, Raw: "~", Name: ""}, `empty regex in server name "~"`},
		{"", ServerName{Kind: NameEmpty}, ""},
		{"_", ServerName{Kind: NameExact, Raw: "_", Name: "_", Domain: "_", Placeholder: true}, ""},
		{"__", ServerName{Kind: NameExact, Raw: "__", Name: "__", Domain: "__", Placeholder: true}, ""},
		{"-", ServerName{Kind: NameExact, Raw: "-", Name: "-", Domain: "-", Placeholder: true}, ""},
		{"$hostname", ServerName{Kind: NameExact, Raw: "$hostname", Name: "$hostname", Domain: "$hostname", Hostname: true}, ""},
		{"$HOSTNAME", ServerName{Kind: NameExact, Raw: "$HOSTNAME", Name: "$hostname", Domain: "$hostname", Hostname: true}, ""},
		{"example.com/x", ServerName{Kind: NameExact, Raw: "example.com/x", Name: "example.com/x", Domain: "example.com/x", Suspicious: true}, ""},
		// Rejected by ngx_http_core_server_name.
		{"*", ServerName{Kind: NameExact, Raw: "*", Name: "*", Domain: "*"}, `server name "*" is invalid`},
		{"*.", ServerName{Kind: NameExact, Raw: "*.", Name: "*.", Domain: "*."}, `server name "*." is invalid`},
		{"*example.com", ServerName{Kind: NameExact, Raw: "*example.com", Name: "*example.com", Domain: "*example.com"}, `server name "*example.com" is invalid`},
		{".", ServerName{Kind: NameExact, Raw: ".", Name: ".", Domain: "."}, `server name "." is invalid`},
		// Rejected by ngx_hash_add_key.
		{"www.*.example.com", ServerName{Kind: NameExact, Raw: "www.*.example.com", Name: "www.*.example.com", Domain: "www.*.example.com"}, `invalid server name or wildcard "www.*.example.com"`},
		{"www.example*", ServerName{Kind: NameExact, Raw: "www.example*", Name: "www.example*", Domain: "www.example*"}, `invalid server name or wildcard "www.example*"`},
		{"*.example.*", ServerName{Kind: NameWildcardHead, Raw: "*.example.*", Name: "*.example.*", Domain: "example.*"}, `invalid server name or wildcard "*.example.*"`},
		{"example..com", ServerName{Kind: NameExact, Raw: "example..com", Name: "example..com", Domain: "example..com"}, `invalid server name or wildcard "example..com"`},
		{"..example.com", ServerName{Kind: NameDotWildcard, Raw: "..example.com", Name: "..example.com", Domain: ".example.com"}, `invalid server name or wildcard "..example.com"`},
		{"a\x00b", ServerName{Kind: NameExact, Raw: "a\x00b", Name: "a\x00b", Domain: "a\x00b"}, "invalid server name or wildcard \"a\x00b\""},
		// nginx accepts these odd ones, so we do too.
		{".*", ServerName{Kind: NameDotWildcard, Raw: ".*", Name: ".*", Domain: "*"}, ""},
		{".example.*", ServerName{Kind: NameDotWildcard, Raw: ".example.*", Name: ".example.*", Domain: "example.*"}, ""},
	}
	for _, tc := range tests {
		got := ParseServerName(tc.in)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ParseServerName(%q) mismatch (-want +got):\n%s", tc.in, diff)
		}
		err := got.Validate()
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("ParseServerName(%q).Validate() = %v, want nil", tc.in, err)
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("ParseServerName(%q).Validate() = %v, want %q", tc.in, err, tc.err)
		case err != nil:
			if e, ok := err.(*Error); !ok || e.Arg != 0 {
				t.Errorf("ParseServerName(%q).Validate() = %#v, want *Error with Arg 0", tc.in, err)
			}
		}
	}
}

func TestServerNameKindString(t *testing.T) {
	if got := NameWildcardTail.String(); got != "wildcard-tail" {
		t.Errorf("NameWildcardTail.String() = %q", got)
	}
	if got := ServerNameKind(0).String(); got != "invalid" {
		t.Errorf("ServerNameKind(0).String() = %q", got)
	}
}

func TestParseServerNameAllocs(t *testing.T) {
	for _, name := range []string{"www.example.com", "*.example.com", `~^www\d+$`, "_"} {
		if n := testing.AllocsPerRun(100, func() { _ = ParseServerName(name).Validate() }); n != 0 {
			t.Errorf("ParseServerName(%q) allocates %v times, want 0", name, n)
		}
	}
}

// serverNames returns n distinct realistic names of every kind.
func serverNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		switch i % 5 {
		case 0:
			names[i] = fmt.Sprintf("www%d.example.com", i)
		case 1:
			names[i] = fmt.Sprintf("*.site%d.example.org", i)
		case 2:
			names[i] = fmt.Sprintf(".site%d.example.net", i)
		case 3:
			names[i] = fmt.Sprintf(`~^app%d\d+\.example\.com$`, i)
		default:
			names[i] = fmt.Sprintf("Host%d.Example.COM", i)
		}
	}
	return names
}

// BenchmarkParseServerName20000 parses and validates 20,000 server names
// per iteration; the budget is well under 2 ms.
func BenchmarkParseServerName20000(b *testing.B) {
	names := serverNames(20000)
	b.ReportAllocs()
	for b.Loop() {
		for _, n := range names {
			if err := ParseServerName(n).Validate(); err != nil {
				b.Fatal(err)
			}
		}
	}
}
