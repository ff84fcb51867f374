package directives

import (
	"slices"
	"testing"

	"github.com/nginx-lint/nginx-lint/internal/didyoumean"
)

func TestSuggest(t *testing.T) {
	tests := []struct {
		typo string
		want string
	}{
		{"proxy_passs", "proxy_pass"},
		{"lisen", "listen"},
		{"lsiten", "listen"}, // transposition
		{"Listen", "listen"}, // case only
		{"server_nmae", "server_name"},
		{"proxy_set_headr", "proxy_set_header"},
		{"worker_process", "worker_processes"},
		{"gzip_type", "gzip_types"},
	}
	for _, tt := range tests {
		got := Suggest(tt.typo)
		if !slices.Contains(got, tt.want) {
			t.Errorf("Suggest(%q) = %q, want it to contain %q", tt.typo, got, tt.want)
		}
		if len(got) > maxSuggestions {
			t.Errorf("Suggest(%q) returned %d names", tt.typo, len(got))
		}
	}

	if got := Suggest("listen"); slices.Contains(got, "listen") {
		t.Errorf("Suggest(listen) = %q; a known name must not suggest itself", got)
	}
	for _, far := range []string{"", "x", "completely_unrelated_words", "zzzzzzzz"} {
		if got := Suggest(far); got != nil {
			t.Errorf("Suggest(%q) = %q, want nothing", far, got)
		}
	}
	// proxy_buffer is one edit away, proxy_buffers two: both useful.
	if got := Suggest("proxy_bufer"); !slices.Equal(got, []string{"proxy_buffer", "proxy_buffers"}) {
		t.Errorf("Suggest(proxy_bufer) = %q; want the closest first", got)
	}
	// proxy_ssl is three edits from proxy_passs, far behind proxy_pass.
	if got := Suggest("proxy_passs"); !slices.Equal(got, []string{"proxy_pass"}) {
		t.Errorf("Suggest(proxy_passs) = %q, want only proxy_pass", got)
	}
}

// TestSuggestMatchesBruteForce checks the pruned search against a plain
// scan of every name, for a spread of inputs.
func TestSuggestMatchesBruteForce(t *testing.T) {
	inputs := []string{"lisen", "proxy_passs", "sever", "root", "gzip", "ssl_cert", "client_max_body", "if", "map", "resolvr", "ssl_protocol", "aaaa"}
	buf := make([]int, 3*128)
	for _, in := range inputs {
		limit := didyoumean.MaxEdits(len(in))
		type cand struct {
			name string
			d    int
		}
		var all []cand
		for _, n := range Names() {
			if n == in {
				continue
			}
			if d := didyoumean.Distance(in, n, 100, buf); d <= limit {
				all = append(all, cand{n, d})
			}
		}
		slices.SortFunc(all, func(a, b cand) int {
			if a.d != b.d {
				return a.d - b.d
			}
			if a.name < b.name {
				return -1
			}
			return 1
		})
		var want []string
		for i := 0; i < len(all) && i < maxSuggestions && all[i].d <= all[0].d+1; i++ {
			want = append(want, all[i].name)
		}
		if got := Suggest(in); !slices.Equal(got, want) {
			t.Errorf("Suggest(%q) = %q, brute force gives %q", in, got, want)
		}
	}
}

var (
	directiveSink []*Directive
	rowSink       *Directive
	stringsSink   []string
	variableSink  *Variable
)

func BenchmarkLookup(b *testing.B) {
	names := []string{"listen", "proxy_pass", "server", "nonexistent_directive", "content_by_lua_block"}
	for i := 0; b.Loop(); i++ {
		directiveSink = Lookup(names[i%len(names)])
	}
}

func BenchmarkInContext(b *testing.B) {
	for b.Loop() {
		rowSink = InContext("server", Stream)
	}
}

func BenchmarkSuggest(b *testing.B) {
	typos := []string{"proxy_passs", "lisen", "sever_name", "completely_unrelated_words", "gzp"}
	for i := 0; b.Loop(); i++ {
		stringsSink = Suggest(typos[i%len(typos)])
	}
}

func BenchmarkLookupVariable(b *testing.B) {
	names := []string{"$host", "$http_user_agent", "$arg_foo", "$upstream_http_x", "$nope"}
	for i := 0; b.Loop(); i++ {
		variableSink, _ = LookupVariable(names[i%len(names)])
	}
}
