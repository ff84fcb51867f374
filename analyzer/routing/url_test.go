package routing_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/routing"
)

// TestParseURLRefuses: what names no request is an error that quotes
// the URL, never a request to somewhere else.
func TestParseURLRefuses(t *testing.T) {
	for _, raw := range []string{"", "a.example/", "ftp://a/", "http://", "http:///", "http://a:0/", "http://a:65536/",
		"http://a:x/", "http://[::1", "http://[::1:80/", "http://::1/", "http://[a.example]/", "http://[127.0.0.1]/",
		"http://a/b c", "http://a/\x00", "http://user:pass@a/"} {
		if r, err := routing.ParseURL(raw); err == nil {
			t.Errorf("%q: %+v, want an error", raw, r)
		} else if !strings.Contains(err.Error(), strconv.Quote(raw)) {
			t.Errorf("%q: %v does not quote the URL", raw, err)
		}
	}
	for raw, want := range map[string]string{"http://[::1]/": "[::1] 80 /", "https://[::1]:8443?q": "[::1]:8443 8443 /?q",
		"http://a.example#frag": "a.example 80 /", "http://a.example:8080/x/../y?z#f": "a.example:8080 8080 /x/../y?z"} {
		r, err := routing.ParseURL(raw)
		if err != nil {
			t.Errorf("%q: %v", raw, err)
			continue
		}
		if got := r.Host + " " + strconv.Itoa(r.Port) + " " + r.Target; got != want {
			t.Errorf("%q: %s, want %s", raw, got, want)
		}
	}
}

// FuzzParseURL: any string is a request or an error; a request has a
// host, a port and a target that starts with "/" and holds no byte a
// client would percent-encode. go test runs the seeds.
func FuzzParseURL(f *testing.F) {
	for _, s := range []string{"http://a.example/", "https://[::1]:8443/x?y#z", "http://[::1", "http://a:99999/",
		"http://a/%zz", "http://" + strings.Repeat("a", 1000) + "/", "http://a/" + strings.Repeat("/..", 100), "http://[fe80::1%25eth0]:80/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		r, err := routing.ParseURL(raw)
		if err != nil {
			return
		}
		if r.Host == "" || r.Port < 1 || r.Port > 65535 || !strings.HasPrefix(r.Target, "/") {
			t.Fatalf("%q: %+v", raw, r)
		}
		for i := 0; i < len(r.Target); i++ {
			if c := r.Target[i]; c <= ' ' || c == 0x7f || c == '#' {
				t.Fatalf("%q: target %q holds %#02x", raw, r.Target, c)
			}
		}
	})
}
