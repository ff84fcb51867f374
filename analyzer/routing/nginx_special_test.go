//go:build unix

package routing_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// TestSpecialStatusAgainstNginx compares nginx's own codes 494 to 499
// given by a configuration (return, try_files =code, error_page ... =code)
// and the error_page that takes them: ngx_http_special_response_handler
// looks up the error_page of the code itself, and without one answers
// 494 to 497 as 400 (its body names the cause), 498 as 404's page.
func TestSpecialStatusAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	port := freePort(t)
	var b strings.Builder
	b.WriteString(head(""))
	fmt.Fprintf(&b, "server {\n    listen 127.0.0.1:%d;\n    server_name s.example;\n", port)
	b.WriteString(`    location = /target { return 200 "target $uri"; }
    location @named { return 200 "named $uri"; }
    location /r/ {
        location = /r/494 { return 494; }
        location = /r/495 { return 495; }
        location = /r/496 { return 496; }
        location = /r/497 { return 497; }
        location = /r/497t { return 497 "text"; }
        location = /r/498 { return 498; }
        location = /r/400 { return 400; }
    }
    location = /e/497 { error_page 497 /target; return 497; }
    location = /e/497eq { error_page 497 = /target; return 497; }
    location = /e/497c { error_page 497 =200 /target; return 497; }
    location = /e/497n { error_page 497 @named; return 497; }
    location = /e/497u { error_page 497 http://x.example/; return 497; }
    location = /e/497r { error_page 497 =301 http://x.example/; return 497; }
    location = /e/495 { error_page 494 495 496 /target; return 495; }
    location = /e/400 { error_page 400 /target; return 497; }
    location = /e/404to497 { error_page 404 = /r/497; return 404; }
    location = /e/rec { recursive_error_pages on; error_page 404 /e/497; return 404; }
    location = /e/norec { error_page 404 /e/497; return 404; }
    location = /t/497 { try_files /nonexistent =497; }
    location = /t/497e { error_page 497 /target; try_files /nonexistent =497; }
}
`)
	b.WriteString("}\n")
	var probes []string
	for _, p := range []string{"/r/494", "/r/495", "/r/496", "/r/497", "/r/497t", "/r/498", "/r/400",
		"/e/497", "/e/497eq", "/e/497c", "/e/497n", "/e/497u", "/e/497r", "/e/495", "/e/400", "/e/404to497",
		"/e/rec", "/e/norec", "/t/497", "/t/497e"} {
		probes = append(probes, p, p+"?a=1")
	}
	n := runCase(t, ngx, routeCase{conf: b.String(), hosts: []string{"s.example"}, probes: probes, methods: []string{"GET", "HEAD"}}, port)
	if n != 2*len(probes) {
		t.Errorf("%d of %d probes compared", n, 2*len(probes))
	}
	t.Logf("%d probes agree with nginx", n)
}
