package directives

import (
	"strconv"
	"strings"
	"testing"
)

// TestValueSpecs checks the typed rows against facts read by hand from
// nginx's source, and the shape of every spec.
func TestValueSpecs(t *testing.T) {
	for _, tt := range []struct {
		name string
		ctx  Context
		want string // kind, then the words or bounds
	}{
		{"server_tokens", HTTP, "enum off,on,build"},
		{"gzip_comp_level", HTTP, "num 1..9"},
		{"client_max_body_size", HTTP, "off"},
		{"client_body_buffer_size", HTTP, "size"},
		{"send_timeout", HTTP, "msec"},
		{"ssl_session_timeout", HTTP, "sec"},
		{"proxy_buffers", HTTP, "bufs"},
		{"proxy_temp_path", HTTP, "path"},
		{"proxy_store_access", HTTP, "access"},
		{"proxy_next_upstream", HTTP, "bitmask error,timeout,invalid_header,non_idempotent,http_500,http_502,http_503,http_504,http_403,http_404,http_429,updating,off"},
		{"limit_req_status", HTTP, "num 400..599"},
		{"gzip", HTTP, "flag"},
		{"default_type", HTTP, "str"},
		{"js_fetch_timeout", HTTP, "msec"},
		{"lua_socket_buffer_size", HTTP, "size"},
		{"ssl_protocols", Stream, "bitmask SSLv2,SSLv3,TLSv1,TLSv1.1,TLSv1.2,TLSv1.3"},
		// Directive-specific handlers have no spec.
		{"listen", Server, ""},
		{"keepalive_timeout", HTTP, ""},
		{"error_log", Main, ""},
	} {
		d := InContext(tt.name, tt.ctx)
		if d == nil {
			t.Errorf("%s: no row in %s", tt.name, tt.ctx)
			continue
		}
		got := ""
		if s := d.Value; s != nil {
			got = s.Kind.String()
			if len(s.Values) > 0 {
				got += " " + strings.Join(s.Values, ",")
			}
			if s.Bounded {
				got += " " + strconv.FormatInt(s.Low, 10) + ".." + strconv.FormatInt(s.High, 10)
			}
		}
		if got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}

	// proxy_limit_rate took variables in 1.27.0; before, it was a size.
	rate := InContext("proxy_limit_rate", Location).Value
	for _, tt := range []struct{ version, want string }{{"", "custom"}, {"1.27.0", "custom"}, {"1.22.1", "size"}, {"1.7.7", "size"}, {"1.6.0", "nil"}} {
		got := "nil"
		if s := rate.For(tt.version); s != nil {
			got = s.Kind.String()
		}
		if got != tt.want {
			t.Errorf("proxy_limit_rate for %q: %s, want %s", tt.version, got, tt.want)
		}
	}
	if since, ok := InContext("proxy_http_version", Location).Value.ValueSince("2"); !ok || since != "1.29.4" {
		t.Errorf(`proxy_http_version "2": since %q, %v; want 1.29.4`, since, ok)
	}
	if _, ok := InContext("server_tokens", HTTP).Value.ValueSince("BUILD"); !ok {
		t.Error("ValueSince is not case-insensitive")
	}
	if _, ok := InContext("server_tokens", HTTP).Value.ValueSince("maybe"); ok {
		t.Error(`ValueSince accepts "maybe"`)
	}

	typed := 0
	for _, d := range All() {
		s := d.Value
		if s == nil {
			continue
		}
		typed++
		hasWords := s.Kind == ValueEnum || s.Kind == ValueBitmask
		if hasWords != (len(s.Values) > 0) {
			t.Errorf("%s (%s): kind %s with %d words", d.Name, d.Module, s.Kind, len(s.Values))
		}
		if s.ValuesSince != nil && len(s.ValuesSince) != len(s.Values) {
			t.Errorf("%s (%s): %d words, %d versions", d.Name, d.Module, len(s.Values), len(s.ValuesSince))
		}
		if s.Bounded && s.Kind != ValueNum {
			t.Errorf("%s (%s): bounds on a %s", d.Name, d.Module, s.Kind)
		}
		if s.Kind == ValueCustom && (s.Older == nil || s.Since == "") {
			t.Errorf("%s (%s): a custom spec without an older generic handler", d.Name, d.Module)
		}
		for o := s.Older; o != nil; o = o.Older {
			if o.Kind == ValueCustom {
				t.Errorf("%s (%s): an older handler of kind custom", d.Name, d.Module)
			}
		}
		if !d.ArgsKnown {
			t.Errorf("%s (%s): typed but its argument rule is unknown", d.Name, d.Module)
		}
	}
	if typed < 500 {
		t.Errorf("only %d typed rows", typed)
	}
}
