package rules

import (
	"context"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// TestRefererKeysNginx has the real nginx judge generated valid_referers
// lists (exact names in mixed case, ".x", "*.x" and "x.*" wildcards, URI
// parts, invalid wildcards, server_names beside the server's names, two
// directives in one block): nginx's "conflicting parameter" and
// "invalid hostname or wildcard" must be an error with its message, and
// an accepted list must get none.
func TestRefererKeysNginx(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nginx a few hundred times")
	}
	nginx := nginxtest.Require(t)
	reg, err := analyzer.NewRegistry(DuplicateDirective, InvalidParameter, SettingConflict)
	if err != nil {
		t.Fatal(err)
	}
	pool := []string{"a.com", "A.com", "a.COM", ".a.com", "*.a.com", "a.*", "A.*", "b.org", "*.b.org", ".B.org",
		"a.com/x", "a.com/y/", "*.a.com/p", "www.a.*", "a..com", "*.a.*", "a*b.com", "*", "none", "blocked",
		"server_names", "~\\.a\\.com", "c.net"}
	names := []string{"", "a.com", "*.b.org", "c.net www.a.*", "x.io ~^y"}
	rng := rand.New(rand.NewPCG(7, 22))
	type probe struct{ conf string }
	seen := map[string]bool{}
	var probes []probe
	for len(probes) < 400 {
		list := func() string {
			n := 1 + rng.IntN(3)
			ws := make([]string, n)
			for i := range ws {
				ws[i] = pool[rng.IntN(len(pool))]
			}
			return strings.Join(ws, " ")
		}
		body := "        valid_referers " + list() + ";\n"
		if rng.IntN(3) == 0 {
			body += "        valid_referers " + list() + ";\n"
		}
		if sn := names[rng.IntN(len(names))]; sn != "" {
			body = "        server_name " + sn + ";\n" + body
		}
		conf := "events {}\nhttp {\n    server {\n        listen 127.0.0.1:18936;\n" + body + "    }\n}\n"
		if seen[conf] {
			continue
		}
		seen[conf] = true
		probes = append(probes, probe{conf: conf})
	}
	var (
		wg                sync.WaitGroup
		mu                sync.Mutex
		refused, accepted int
		sem               = make(chan struct{}, 2)
	)
	for _, pr := range probes {
		f := parser.ParseFile("/t/nginx.conf", []byte(pr.conf), &parser.Options{Kinds: analyzer.Kinds})
		cfg := &parser.Config{Main: f, Files: []*parser.File{f}}
		var errs []string
		for _, d := range findings(cfg, reg, analyzer.Options{}) {
			if d.Severity == parser.Error {
				errs = append(errs, d.Message)
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			res, err := nginxtest.TestData(context.Background(), nginx, []byte(pr.conf), nginxtest.Quiet())
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			nerrs := res.Errors()
			if len(nerrs) == 0 {
				accepted++
				if len(errs) > 0 {
					t.Errorf("nginx accepts, the rules report %q:\n%s", errs, pr.conf)
				}
				return
			}
			refused++
			want := nerrs[0].Text
			found := false
			for _, e := range errs {
				found = found || e == want
			}
			if !found {
				t.Errorf("nginx says %q, the rules %q:\n%s", want, errs, pr.conf)
			}
		}()
	}
	wg.Wait()
	t.Logf("%d lists: nginx refuses %d, accepts %d", len(probes), refused, accepted)
	if refused < 100 || accepted < 50 {
		t.Errorf("too few of a kind (refused %d, accepted %d)", refused, accepted)
	}
}
