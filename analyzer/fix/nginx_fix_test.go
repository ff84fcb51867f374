package fix_test

import (
	"os/exec"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/buildinfo"
	"github.com/nginx-lint/nginx-lint/analyzer/fix"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// fixCases exercise every fix a rule offers (grep "Edits" in
// analyzer/rules), each in a whole configuration. rule is the rule whose
// fix the case is about.
var fixCases = []struct {
	rule, conf string
	noFix      bool // no target here may take the fix: it must not be applied
}{
	{"alias-slash-mismatch", "events {}\nhttp {\n    server {\n        listen 8101;\n        location /img/ {\n            alias /srv/img;\n        }\n    }\n}\n", false},
	// "http2 on" needs 1.25.1: not for this nginx, nor with no target
	// when nothing else in the configuration needs 1.25.1.
	{"deprecated", "events {}\nhttp {\n    server {\n        listen 8102 ssl http2;\n        ssl_certificate a.pem;\n        ssl_certificate_key a.key;\n    }\n}\n", true},
	{"deprecated", "events {}\nhttp {\n    server {\n        listen 8103;\n        ssl on;\n        ssl_certificate a.pem;\n        ssl_certificate_key a.key;\n    }\n}\n", false},
	{"directive-inheritance", "events {}\nhttp {\n    server {\n        listen 8104;\n        proxy_set_header Host $host;\n        location / {\n            proxy_set_header X-Real-IP $remote_addr;\n            proxy_pass http://127.0.0.1:9;\n        }\n    }\n}\n", false},
	{"duplicate-directive", "events {}\nhttp {\n    server {\n        listen 8105;\n        root /srv/a;\n        root /srv/b;\n    }\n}\n", false},
	{"host-spoofing", "events {}\nhttp {\n    server {\n        listen 8106;\n        location / {\n            proxy_set_header Host $http_host;\n            proxy_pass http://127.0.0.1:9;\n        }\n    }\n}\n", false},
	{"hsts", "events {}\nhttp {\n    server {\n        listen 8107;\n        add_header Strict-Transport-Security \"max-age=63072000\";\n    }\n}\n", false},
	{"map-without-default", "events {}\nhttp {\n    map $host $backend {\n        api.example.com api;\n        static.example.com static;\n    }\n    server {\n        listen 8108;\n        return 200 $backend;\n    }\n}\n", false},
	{"server-names-hash", "events {}\nhttp {\n    server {\n        listen 8109;\n        server_name short.example;\n    }\n    server {\n        listen 8109;\n        server_name a-very-long-name-a-very-long-name-a-very-long-name-a-very-long-name-example.com;\n    }\n}\n", false},
	{"unknown-directive", "events {}\nhttp {\n    server {\n        listen 8110;\n        locaton / {\n            return 204;\n        }\n    }\n}\n", false},
	{"unknown-directive", "events {}\nhttp {\n    server {\n        listen 8111;\n        ssl on;\n        ssl_certificate a.pem;\n        ssl_certificate_key a.key;\n    }\n}\n", false},
	{"version-disclosure", "events {}\nhttp {\n    server_tokens on;\n    server {\n        listen 8112;\n    }\n}\n", false},
	{"weak-ssl-tls", "events {}\nhttp {\n    server {\n        listen 8113 ssl;\n        ssl_protocols TLSv1 TLSv1.2;\n        ssl_ciphers RC4:HIGH;\n        ssl_certificate a.pem;\n        ssl_certificate_key a.key;\n    }\n}\n", false},
	{"worker-connections", "events {\n    worker_connections 2;\n}\nhttp {\n    server {\n        listen 8114;\n    }\n    server {\n        listen 8115;\n    }\n}\n", false},
}

// TestFixesKeepNginxWorking applies the fixes of every case for two
// targets, the local nginx's build (its nginx -V) and none (the newest
// nginx assumed, with fixes held to what the configuration already
// needs), and runs the real nginx on the result: it must accept it
// whenever it accepted the input, and whenever the fixed finding was the
// reason it did not.
func TestFixesKeepNginxWorking(t *testing.T) {
	nginx := nginxtest.Require(t)
	out, err := exec.Command(nginx, "-V").CombinedOutput()
	if err != nil {
		t.Fatalf("nginx -V: %v: %s", err, out)
	}
	info, err := buildinfo.Parse(string(out))
	if err != nil {
		t.Fatal(err)
	}
	targets := map[string]*analyzer.Target{"this nginx": analyzer.BuildTarget(info), "no target": nil}
	applied, checked := 0, 0
	for _, tc := range fixCases {
		fixedOnce := false
		before, err := nginxTest(t, nginx, []byte(tc.conf))
		if err != nil {
			t.Fatalf("%s: %v", tc.rule, err)
		}
		for name, target := range targets {
			files := map[string]string{"/t/nginx.conf": tc.conf}
			opts := analyzer.Options{Target: target}
			if !reports(memLinterFor(files, opts), tc.rule) {
				// The finding depends on the target (ssl on is
				// deprecated for 1.22, gone from the newest).
				t.Logf("%s (%s): not reported for this target", tc.rule, name)
				continue
			}
			res, err := fix.Run(memLinterFor(files, opts))
			if err != nil {
				t.Fatal(err)
			}
			fixed, ok := res.Fixed["/t/nginx.conf"]
			if !ok {
				t.Logf("%s (%s): nothing fixed (nginx -t on the input: %v)", tc.rule, name, before.OK)
				continue
			}
			applied++
			fixedOnce = true
			after, err := nginxTest(t, nginx, fixed)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			if !after.OK {
				t.Errorf("%s (%s): nginx -t refuses the fixed configuration (the input: accepted %v): %v\n%s",
					tc.rule, name, before.OK, after.Errors(), fixed)
			}
		}
		if fixedOnce == tc.noFix {
			t.Errorf("%s: fixed %v, want %v\n%s", tc.rule, fixedOnce, !tc.noFix, tc.conf)
		}
	}
	t.Logf("%d fixes applied, %d checked with nginx -t", applied, checked)
	if applied < len(fixCases)-1 {
		t.Errorf("only %d fixes applied for %d cases", applied, len(fixCases))
	}
}
