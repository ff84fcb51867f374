package optimize_test

import (
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/optimize"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
)

// FuzzOptimize: any text is optimized without a panic, and whatever is
// applied routes every request that was served to the same server (the
// catch-all's connections aside).
func FuzzOptimize(f *testing.F) {
	for _, s := range []string{
		"events {}\nhttp { server { listen 127.0.0.1:80 backlog=10; } server { listen 127.0.0.2:80 backlog=10; } }\n",
		"http { server { listen 80; listen 127.0.0.1:80 bind; server_name a *.b ~c; } server { listen [::1]:80; listen [::2]:80; } }",
		"http { server { listen 1-3; listen 127.0.0.1:2; } server { listen unix:/x; listen unix:/x; } server_names_hash_max_size 1; }",
		"events { worker_connections 1; } http { server { listen 127.0.0.1:1 ssl default; } server { listen 127.0.0.2:1 default_server; server_name \"\"; }",
		"stream { server { listen 127.0.0.3:80; } } http { server { listen 127.0.0.1:80 reuseport; } server { listen 127.0.0.2:80 reuseport; } }",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, src string, assume bool) {
		if len(src) > 4096 {
			return
		}
		p, err := optimize.Optimize(memLoader(src), optimize.Options{AssumeHost: assume, Wildcard: true})
		if err != nil {
			return
		}
		if assume || len(p.Fixed) == 0 {
			return
		}
		for _, d := range routing.Compare(p.BeforeRoutes, p.AfterRoutes, 0) {
			if d.Kind == routing.NowAccepted && d.Other && d.After == p.CatchAll {
				continue
			}
			t.Fatalf("applied a rewrite that routes apart: %s\n%s\n---\n%s", d.Describe(p.BeforeRoutes, p.AfterRoutes), src, p.Fixed[mainPath])
		}
	})
}
