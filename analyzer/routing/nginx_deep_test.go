//go:build unix

package routing_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// TestDeepLocationsAgainstNginx: in 2,000 locations nested in one
// another, each with an exact location of its own, the model answers
// what nginx answers for the exact locations at the top, the middle and
// the bottom of the chain, and for the innermost location.
func TestDeepLocationsAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	const depth = 2000
	port := freePort(t)
	var b strings.Builder
	b.WriteString(head("") + fmt.Sprintf("server {\n    listen 127.0.0.1:%d;\n    server_name d.example;\n", port))
	for i := 1; i <= depth; i++ {
		fmt.Fprintf(&b, "location / {\nlocation = /l%d { return 200 E%d; }\n", i, i)
	}
	b.WriteString("return 200 deepest;\n" + strings.Repeat("}\n", depth) + "}\n}\n")
	probes := []string{"/", "/x", "/l1", "/l2", "/l999", "/l1000", "/l1999", "/l2000", "/l2001"}
	if n := runCase(t, ngx, routeCase{conf: b.String(), hosts: []string{"d.example"}, probes: probes}, port); n != len(probes) {
		t.Errorf("%d probes compared, want %d", n, len(probes))
	}
}
