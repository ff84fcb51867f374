package directives

import (
	"slices"
	"strings"
	"testing"
)

// row returns the row for (name, module), failing the test when absent.
func row(t *testing.T, name, module string) *Directive {
	t.Helper()
	for _, d := range Lookup(name) {
		if d.Module == module {
			return d
		}
	}
	t.Fatalf("no row for (%s, %s)", name, module)
	return nil
}

// The expectations below were read off the TSV files, not recalled.
func TestSpotChecks(t *testing.T) {
	tests := []struct {
		name, module string
		contexts     Context
		args         ArgRule
		block        bool
		thirdParty   bool
	}{
		{"listen", "ngx_http_core_module", Server, OneMore, false, false},
		{"listen", "ngx_stream_core_module", StreamServer, OneMore, false, false},
		{"listen", "ngx_mail_core_module", MailServer, OneMore, false, false},
		{"http", "ngx_http_core_module", Main, NoArgs, true, false},
		{"worker_processes", "ngx_core_module", Main, Take1, false, false},
		{"proxy_pass", "ngx_http_proxy_module", Location | IfInLocation | LimitExcept, Take1, false, false},
		{"proxy_pass", "ngx_stream_proxy_module", StreamServer, Take1, false, false},
		{"include", "ngx_core_module", Any, Take1, false, false},
		{"include", "ngx_http_map_module", Map, Take1, false, false},
		{"content_by_lua_block", "ngx_http_lua_module", Location | IfInLocation, NoArgs, true, true},
		{"more_set_headers", "ngx_http_headers_more_filter_module", HTTP | Server | Location | IfInLocation, OneMore, false, true},
		{"server_tokens", "ngx_http_core_module", HTTP | Server | Location, Take1, false, false},
		{"absolute_redirect", "ngx_http_core_module", HTTP | Server | Location, Flag, false, false},
		{"location", "ngx_http_core_module", Server | Location, Take12, true, false},
		{"stub_status", "ngx_http_stub_status_module", Server | Location, NoArgs | Take1, false, false},
		{"random", "ngx_http_upstream_module", Upstream, NoArgs | Take12, false, false},
		{"js_periodic", "ngx_http_js_module", Location, AnyArgs, false, false},
		{"add_header", "ngx_http_headers_module", HTTP | Server | Location | IfInLocation, Take23, false, false},
		{"error_log", "ngx_core_module", Main | HTTP | Server | Location | Stream | StreamServer | Mail | MailServer, OneMore, false, false},
		{"accept_terms_of_service", "ngx_http_acme_module", AcmeIssuer, NoArgs, false, false},
	}
	for _, tt := range tests {
		d := row(t, tt.name, tt.module)
		if d.Contexts != tt.contexts || d.Args != tt.args || !d.ArgsKnown || d.Block != tt.block || d.ThirdParty != tt.thirdParty {
			t.Errorf("%s/%s = contexts %v, args %v (known %v), block %v, third party %v; want %v, %v, %v, %v",
				tt.name, tt.module, d.Contexts, d.Args, d.ArgsKnown, d.Block, d.ThirdParty,
				tt.contexts, tt.args, tt.block, tt.thirdParty)
		}
	}

	if got := len(Lookup("listen")); got != 3 {
		t.Errorf("listen has %d rows, want 3", got)
	}
	if Lookup("server_tokens")[0].Args.IsFlag() {
		t.Error("server_tokens is TAKE1 (on, off, build or a string), not a flag")
	}
	if Lookup("Listen") != nil {
		t.Error("directive names are case-sensitive in nginx")
	}

	otel := row(t, "otel_exporter", "ngx_otel_module")
	if otel.ArgsKnown || otel.Args != 0 || !otel.Block || !otel.Args.Accepts(5) {
		t.Errorf("docs-only otel_exporter: %+v", *otel)
	}
	if v, ok := row(t, "ssl", "ngx_http_ssl_module").Tags.Value("removed-in"); !ok || v != "1.25.1" {
		t.Errorf("ssl removed-in = %q, %v", v, ok)
	}
}

func TestInContext(t *testing.T) {
	tests := []struct {
		name   string
		ctx    Context
		module string // "" for nil
	}{
		{"listen", Server, "ngx_http_core_module"},
		{"listen", StreamServer, "ngx_stream_core_module"},
		{"listen", MailServer, "ngx_mail_core_module"},
		{"listen", Location, ""},
		{"server", HTTP, "ngx_http_core_module"},
		{"server", Upstream, "ngx_http_upstream_module"},
		{"server", Stream, "ngx_stream_core_module"},
		{"server", StreamUpstream, "ngx_stream_upstream_module"},
		{"server", Mail, "ngx_mail_core_module"},
		{"proxy_pass", LimitExcept, "ngx_http_proxy_module"},
		{"proxy_pass", StreamServer, "ngx_stream_proxy_module"},
		{"proxy_pass", Server, ""},
		// include: Any everywhere, but the map/geo bodies have their own rows.
		{"include", Events, "ngx_core_module"},
		{"include", IfInLocation, "ngx_core_module"},
		{"include", Map, "ngx_http_map_module"},
		{"include", StreamGeo, "ngx_stream_geo_module"},
		{"hostnames", Map, "ngx_http_map_module"},
		{"hostnames", Geo, ""},
		// Two docs-only rows share server; the withdrawn status module loses.
		{"status_zone", Server, "ngx_http_api_module"},
		{"nonexistent_directive", HTTP, ""},
		{"listen", 0, ""},
	}
	for _, tt := range tests {
		d := InContext(tt.name, tt.ctx)
		switch {
		case d == nil && tt.module != "":
			t.Errorf("InContext(%s, %v) = nil, want %s", tt.name, tt.ctx, tt.module)
		case d != nil && d.Module != tt.module:
			t.Errorf("InContext(%s, %v) = %s, want %q", tt.name, tt.ctx, d.Module, tt.module)
		}
	}
}

func TestChildContext(t *testing.T) {
	tests := []struct {
		name   string
		parent Context
		want   Context // 0 for not ok
	}{
		{"events", Main, Events},
		{"http", Main, HTTP},
		{"server", HTTP, Server},
		{"location", Server, Location},
		{"location", Location, Location},
		{"if", Server, IfInServer},
		{"if", Location, IfInLocation},
		{"if", IfInLocation, 0},
		{"limit_except", Location, LimitExcept},
		{"upstream", HTTP, Upstream},
		{"stream", Main, Stream},
		{"server", Stream, StreamServer},
		{"upstream", Stream, StreamUpstream},
		{"mail", Main, Mail},
		{"server", Mail, MailServer},
		{"map", HTTP, Map},
		{"geo", Stream, StreamGeo},
		{"acme_issuer", HTTP, AcmeIssuer},
		{"server", Upstream, 0}, // the upstream server directive is not a block
		{"types", HTTP, 0},
		{"otel_exporter", HTTP, 0},
		{"http", HTTP, 0},
	}
	for _, tt := range tests {
		got, ok := ChildContext(tt.name, tt.parent)
		if ok != (tt.want != 0) || got != tt.want {
			t.Errorf("ChildContext(%s, %v) = %v, %v; want %v", tt.name, tt.parent, got, ok, tt.want)
		}
	}
}

// TestBlocksCovered makes sure every block directive in the data is
// either described by ChildContext, free-form, or known to be neither,
// so that a new block in the data gets a decision instead of a silent
// gap.
func TestBlocksCovered(t *testing.T) {
	undescribed := map[string]bool{"otel_exporter": true}
	for _, d := range All() {
		if !d.Block {
			continue
		}
		_, described := childContexts[blockKey{d.Name, d.Module}]
		described = described || d.Name == "if"
		if !described && !FreeFormBlock(d.Name) && !undescribed[d.Name] {
			t.Errorf("block %s/%s: neither ChildContext nor FreeFormBlock covers it", d.Name, d.Module)
		}
	}
	for key := range childContexts {
		if d := row(t, key.name, key.module); !d.Block {
			t.Errorf("childContexts lists %s/%s, which is not a block", key.name, key.module)
		}
	}
	for _, name := range freeFormNames {
		rows := Lookup(name)
		if len(rows) == 0 {
			t.Errorf("free-form block %s has no row", name)
		}
		for _, d := range rows {
			if !d.Block {
				t.Errorf("free-form block %s/%s is not a block", name, d.Module)
			}
		}
	}
}

func TestFreeFormBlock(t *testing.T) {
	for _, name := range []string{"types", "map", "geo", "split_clients", "charset_map", "match", "num_map", "content_by_lua_block", "set_by_lua_block"} {
		if !FreeFormBlock(name) {
			t.Errorf("FreeFormBlock(%s) = false", name)
		}
	}
	for _, name := range []string{"server", "location", "http", "upstream", "content_by_lua", "unknown"} {
		if FreeFormBlock(name) {
			t.Errorf("FreeFormBlock(%s) = true", name)
		}
	}
}

func TestNamesAndAll(t *testing.T) {
	names := Names()
	if !slices.IsSorted(names) {
		t.Error("Names is not sorted")
	}
	if len(slices.Compact(slices.Clone(names))) != len(names) {
		t.Error("Names has duplicates")
	}
	n := 0
	for _, name := range names {
		n += len(Lookup(name))
	}
	if n != len(All()) {
		t.Errorf("Lookup over Names finds %d rows, All has %d", n, len(All()))
	}
	// The answers are copies; changing them must not change the tables.
	names[0] = "changed"
	if Names()[0] == "changed" {
		t.Error("Names shares its slice")
	}
	if len(Sources()) == 0 || !strings.Contains(strings.Join(Sources(), "\n"), SourceVersion) {
		t.Errorf("Sources() = %q", Sources())
	}
}

func TestTags(t *testing.T) {
	tags := Tags{"docs-only", "obsolete-since=1.15.0", "removed-in=1.25.1"}
	if !tags.Has("docs-only") || !tags.Has("removed-in") || tags.Has("removed") || tags.Has("commercial") {
		t.Error("Tags.Has")
	}
	if v, ok := tags.Value("obsolete-since"); !ok || v != "1.15.0" {
		t.Errorf("Value(obsolete-since) = %q, %v", v, ok)
	}
	if _, ok := tags.Value("docs-only"); ok {
		t.Error("Value of a plain tag")
	}
	if tags.Origin() != "docs-only" || Tags(nil).Origin() != "" {
		t.Error("Origin")
	}
}

func TestPassDirectives(t *testing.T) {
	for _, name := range PassDirectives() {
		if !IsPass(name) || len(Lookup(name)) == 0 {
			t.Errorf("%s: IsPass %v, known %v", name, IsPass(name), len(Lookup(name)) > 0)
		}
	}
	for _, name := range []string{"proxy_set_header", "pass", "grpc_pass_header", "proxy_pass_header"} {
		if IsPass(name) {
			t.Errorf("IsPass(%q)", name)
		}
	}
	// A caller's copy cannot change the list.
	PassDirectives()[0] = "x"
	if PassDirectives()[0] != "proxy_pass" {
		t.Error("PassDirectives shares its slice")
	}
}
