//go:build linux

package verify_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/analyzer/optimize"
	"github.com/nginx-lint/nginx-lint/analyzer/optimize/verify"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

const mainPath = "/t/nginx.conf"

func plan(t *testing.T, src string) *optimize.Plan {
	t.Helper()
	p, err := optimize.Optimize(func(ov map[string][]byte) (*parser.Model, error) {
		files := map[string][]byte{mainPath: []byte(src)}
		for k, v := range ov {
			files[k] = v
		}
		c := (&parser.Loader{Kinds: analyzer.Kinds, FS: &parser.Overlay{Files: files}}).LoadSource(mainPath, files[mainPath], nil)
		return parser.BuildModel(c), nil
	}, optimize.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// run verifies a plan, skipping (failing under CI) where no private
// network namespace can be made.
func run(t *testing.T, p *optimize.Plan) *verify.Result {
	t.Helper()
	ngx := nginxtest.Require(t)
	res, err := verify.Run(context.Background(), p.BeforeRoutes, p.AfterRoutes, p.CatchAll, verify.Options{Nginx: ngx, Sample: 40})
	if err != nil && strings.Contains(err.Error(), "unshare failed") && os.Getenv("CI") != "true" {
		t.Skipf("skipping: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestVerifySeedLayouts: on generated seed layouts where every server
// answers with its own name, the rewritten configuration passes nginx -t,
// starts with fewer listening sockets, and the real nginx answers every
// sampled request (right Host, wrong Host, none; an unlisted address)
// with the same server as before, as the routing model predicts.
func TestVerifySeedLayouts(t *testing.T) {
	for _, name := range []string{"L2c", "L2a"} {
		t.Run(name, func(t *testing.T) {
			l, _ := layout.ParseName(name)
			src := string(layout.Generate(layout.Options{Layout: l, N: 300, Server: func(s *layout.Server) {
				s.Lines = append(s.Lines, fmt.Sprintf("return 200 \"server %d\\n\";", s.Index))
			}}))
			p := plan(t, src)
			if len(p.Fixed) == 0 {
				t.Fatal("nothing rewritten")
			}
			res := run(t, p)
			if !res.Before.TestOK || !res.After.TestOK {
				t.Fatalf("nginx -t: %v %v\n%s", res.Before.TestOK, res.After.TestOK, res.After.TestOutput)
			}
			if res.Before.Sockets != 300 || res.After.Sockets != 1 {
				t.Errorf("listening sockets %d → %d, want 300 → 1", res.Before.Sockets, res.After.Sockets)
			}
			if res.Before.Sockets != p.Before.Counts.SocketsStart || res.After.Sockets != p.After.Counts.SocketsStart {
				t.Errorf("measured sockets %d → %d, predicted %d → %d", res.Before.Sockets, res.After.Sockets, p.Before.Counts.SocketsStart, p.After.Counts.SocketsStart)
			}
			kinds := map[string]int{}
			for _, pr := range res.Probes {
				switch {
				case pr.Unlisted:
					kinds["unlisted"]++
				case pr.Request.NoHost:
					kinds["no Host"]++
				case strings.HasSuffix(pr.Request.Host, ".invalid"):
					kinds["wrong Host"]++
				default:
					kinds["right Host"]++
				}
				if !pr.Same(p.CatchAll) {
					t.Errorf("%s: server %d before, %d after", pr.Request, pr.Before, pr.After)
				}
				if !pr.ModelRight(p.CatchAll) {
					t.Errorf("%s: nginx %d → %d, the model predicted %d → %d", pr.Request, pr.Before, pr.After, pr.PredictedBefore, pr.PredictedAfter)
				}
				if !pr.Unlisted && pr.Before < 0 {
					t.Errorf("%s: not answered (%d)", pr.Request, pr.Before)
				}
			}
			wantNamed := 40
			if l.Naming == layout.NoName {
				wantNamed = 0
			}
			if kinds["right Host"] != wantNamed || kinds["wrong Host"] != 40 || kinds["no Host"] != 40 || kinds["unlisted"] != 2 {
				t.Errorf("probes %v", kinds)
			}
			t.Logf("nginx -t %.3f → %.3f s, start %.3f → %.3f s, reload %.3f → %.3f s; %d probes",
				res.Before.TestSeconds, res.After.TestSeconds, res.Before.StartSeconds, res.After.StartSeconds,
				res.Before.ReloadSeconds, res.After.ReloadSeconds, len(res.Probes))
		})
	}
}
