package rules_test

import (
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
)

// TestFindingsRecordTarget: a finding whose report, wording or fix
// depends on the target's version records the nginx it assumed
// (Diagnostic.Target, which the outputs show); one that holds for every
// version records nothing.
func TestFindingsRecordTarget(t *testing.T) {
	newest := "nginx " + directives.NginxVersion + " (newest; no target named)"
	old := &analyzer.Target{Version: "1.22.1"}
	for _, tc := range []struct {
		name   string
		target *analyzer.Target
		src    string
		rule   string
		want   string
	}{
		{"listen http2, newest", nil, "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8443 http2;\n    }\n}\n", "deprecated", newest},
		{"ssl on, deprecated for 1.22.1", old, "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8443;\n        ssl on;\n    }\n}\n", "deprecated", "nginx 1.22.1"},
		{"ssl on, removed from the newest", nil, "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8443;\n        ssl on;\n    }\n}\n", "unknown-directive", newest},
		{"directive newer than the target", old, "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        http2 on;\n    }\n}\n", "unknown-directive", "nginx 1.22.1"},
		{"typo renamed to a dated directive", nil, "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        htp2 on;\n    }\n}\n", "unknown-directive", newest},
		{"listen parameter newer than the target", old, "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8443 quic;\n    }\n}\n", "invalid-parameter", "nginx 1.22.1"},
		{"variable newer than the target", old, "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        return 200 $proxy_protocol_tlv_alpn;\n    }\n}\n", "unknown-variable", "nginx 1.22.1"},
		{"only weak protocols, newest", nil, "events {}\nhttp {\n    ssl_protocols TLSv1;\n}\n", "weak-ssl-tls", newest},
		{"only weak protocols, before TLSv1.3", &analyzer.Target{Version: "1.12.2"}, "events {}\nhttp {\n    ssl_protocols TLSv1;\n}\n", "weak-ssl-tls", "nginx 1.12.2"},
		// Not version-dependent: nothing recorded.
		{"weak protocol beside a strong one", nil, "events {}\nhttp {\n    ssl_protocols TLSv1 TLSv1.2;\n}\n", "weak-ssl-tls", ""},
		{"typo of an undated directive", nil, "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        locaton / {}\n    }\n}\n", "unknown-directive", ""},
		{"duplicate root", old, "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        root /a;\n        root /b;\n    }\n}\n", "duplicate-directive", ""},
	} {
		found := false
		for _, d := range lintTextWith(t, tc.src, analyzer.Options{Target: tc.target}) {
			if d.Name != tc.rule {
				continue
			}
			found = true
			if d.Target != tc.want {
				t.Errorf("%s: %s %q records target %q, want %q", tc.name, d.Name, d.Message, d.Target, tc.want)
			}
		}
		if !found {
			t.Errorf("%s: no %s finding", tc.name, tc.rule)
		}
	}
}
