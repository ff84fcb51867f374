//go:build linux

package verify_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

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
	}, optimize.Options{Wildcard: true}) // the private namespace has no other address
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

// TestRandomRewrites is the optimizer's property test against the real
// nginx: random small configurations (addresses, ports, socket options,
// default_server, exact, wildcard and regex names); whatever the
// optimizer rewrites, nginx -t accepts, and every probe is answered as
// before and as the routing model predicts.
func TestRandomRewrites(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("OPTIMIZE_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (OPTIMIZE_SEED repeats it)", seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	names := []string{"a.example", "b.example", "*.example", ".c.example", "www.*", "~^d[0-9]\\.example$"}
	opts := []string{"", "", "backlog=64", "bind", "reuseport", "default_server"}
	rewritten := 0
	for round := 0; round < 6; round++ {
		var b strings.Builder
		b.WriteString("worker_processes 2;\npid nginx.pid;\nerror_log error.log;\nevents {}\nhttp {\n    access_log off;\n")
		seenDefault, seenAddr := map[string]bool{}, map[string]bool{}
		shared := opts[rng.IntN(len(opts)-1)] // one option for most addresses, so that ports qualify
		for i := range 2 + rng.IntN(5) {
			addr := fmt.Sprintf("127.0.0.%d:%d", 1+rng.IntN(4), 31000+rng.IntN(2))
			o := shared
			if rng.IntN(4) == 0 {
				o = opts[rng.IntN(len(opts))]
			}
			switch {
			case o == "default_server" && seenDefault[addr]:
				o = ""
			case o == "default_server":
				seenDefault[addr] = true
			case seenAddr[addr]:
				// nginx takes socket options once per address.
				o = ""
			}
			seenAddr[addr] = true
			fmt.Fprintf(&b, "    server { listen %s %s;", addr, o)
			if n := rng.IntN(3); n > 0 {
				b.WriteString(" server_name")
				for range n {
					b.WriteString(" " + names[rng.IntN(len(names))])
				}
				b.WriteString(";")
			}
			fmt.Fprintf(&b, " return 200 \"server %d\\n\"; }\n", i)
		}
		b.WriteString("}\n")
		src := b.String()
		p := plan(t, src)
		if len(p.Fixed) == 0 {
			continue
		}
		rewritten++
		res := run(t, p)
		if !res.After.TestOK {
			t.Fatalf("nginx -t refuses the rewrite:\n%s\n%s", res.After.TestOutput, p.Fixed[mainPath])
		}
		for _, pr := range res.Probes {
			if !pr.Same(p.CatchAll) || !pr.ModelRight(p.CatchAll) {
				t.Errorf("%s: nginx %d → %d, model %d → %d\nbefore:\n%s\nafter:\n%s", pr.Request, pr.Before, pr.After,
					pr.PredictedBefore, pr.PredictedAfter, src, p.Fixed[mainPath])
			}
		}
		if res.After.Sockets >= res.Before.Sockets || res.After.Sockets != p.After.Counts.SocketsStart {
			t.Errorf("sockets %d → %d, predicted %d → %d\n%s", res.Before.Sockets, res.After.Sockets,
				p.Before.Counts.SocketsStart, p.After.Counts.SocketsStart, p.Fixed[mainPath])
		}
	}
	t.Logf("%d of 6 configurations rewritten and verified", rewritten)
}

// TestVerifyOtherAddresses: addresses outside loopback (the benchmark's
// 192.168.0.x, here 10.9.0.x) are added to the private namespace's
// loopback, so a production-like layout verifies without touching the
// machine's interfaces.
func TestVerifyOtherAddresses(t *testing.T) {
	src := string(layout.Generate(layout.Options{Layout: layout.Layout{Listen: layout.IPPerServer, Naming: layout.UniqueNames}, N: 100}))
	src = strings.ReplaceAll(src, "listen 127.0.", "listen 10.9.")
	p := plan(t, src)
	res := run(t, p)
	if res.Before.Sockets != 100 || res.After.Sockets != 1 {
		t.Errorf("listening sockets %d → %d, want 100 → 1", res.Before.Sockets, res.After.Sockets)
	}
	answered := 0
	for _, pr := range res.Probes {
		if !pr.Same(p.CatchAll) || !pr.ModelRight(p.CatchAll) {
			t.Errorf("%s: nginx %d → %d, model %d → %d", pr.Request, pr.Before, pr.After, pr.PredictedBefore, pr.PredictedAfter)
		}
		if pr.Before >= 0 {
			answered++
		}
	}
	if answered != 120 {
		t.Errorf("%d requests answered before, want the 120 to the 40 sampled servers", answered)
	}
}
