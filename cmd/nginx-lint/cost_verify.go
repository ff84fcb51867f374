package main

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/optimize"
	"github.com/nginx-lint/nginx-lint/analyzer/optimize/verify"
	"github.com/nginx-lint/nginx-lint/internal/nginxrun"
)

// verify runs the real nginx before and after the plan's rewrite and
// prints measured against predicted. Exit 1 when an answer differs.
func (cmd *costCmd) verify(e *env, plan *optimize.Plan) (int, error) {
	ngx := cmd.Nginx
	if ngx == "" {
		var err error
		if ngx, err = nginxrun.Find(); err != nil {
			return exitError, fmt.Errorf("--verify: %w (--nginx PATH names one)", err)
		}
	}
	res, err := verify.Run(context.Background(), plan.BeforeRoutes, plan.AfterRoutes, plan.CatchAll, verify.Options{Nginx: ngx, Runs: cmd.Runs})
	if err != nil {
		return exitError, fmt.Errorf("--verify: %w", err)
	}
	w := e.stdout
	each := "one run each"
	if cmd.Runs > 1 {
		each = fmt.Sprintf("median of %d runs each", cmd.Runs)
	}
	fmt.Fprintf(w, "\nverified with %s in a private network namespace (wall time, %s):\n", ngx, each)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\tbefore\tpredicted\tafter\tpredicted\t")
	b, a := plan.Before, plan.After
	row := func(name string, mb, pb, ma, pa float64) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t\n", name, costmodel.Seconds(mb), costmodel.Seconds(pb), costmodel.Seconds(ma), costmodel.Seconds(pa))
	}
	row("nginx -t", res.Before.TestSeconds, b.TestSeconds, res.After.TestSeconds, a.TestSeconds)
	row("start", res.Before.StartSeconds, b.StartupSeconds, res.After.StartSeconds, a.StartupSeconds)
	row("reload", res.Before.ReloadSeconds, b.ReloadSeconds, res.After.ReloadSeconds, a.ReloadSeconds)
	fmt.Fprintf(tw, "listening sockets\t%d\t%d\t%d\t%d\t\n", res.Before.Sockets, b.Counts.SocketsStart, res.After.Sockets, a.Counts.SocketsStart)
	tw.Flush()
	differ, wrong := 0, 0
	for _, p := range res.Probes {
		if !p.Same(plan.CatchAll) {
			differ++
			if differ <= 10 {
				fmt.Fprintf(w, "  DIFFERS: %s: server %s before, %s after\n", p.Request, answer(plan, p.Before, true), answer(plan, p.After, false))
			}
		}
		if !p.ModelRight(plan.CatchAll) {
			wrong++
			if wrong <= 10 {
				fmt.Fprintf(w, "  MODEL WRONG: %s: nginx %d → %d, predicted %d → %d\n", p.Request, p.Before, p.After, p.PredictedBefore, p.PredictedAfter)
			}
		}
	}
	fmt.Fprintf(w, "requests: %d to %d sampled servers (right Host, wrong Host, no Host) and to an unlisted address of each port: %d answered alike, %d differ; the routing model predicted %d of %d answers right\n",
		len(res.Probes), res.Servers, len(res.Probes)-differ, differ, len(res.Probes)-wrong, len(res.Probes))
	if differ > 0 || wrong > 0 {
		return exitFindings, nil
	}
	return exitClean, nil
}

func answer(p *optimize.Plan, n int, before bool) string {
	t := p.AfterRoutes
	if before {
		t = p.BeforeRoutes
	}
	switch n {
	case verify.Refused:
		return "(refused)"
	case verify.Closed:
		return "(closed)"
	}
	return t.Ref(n)
}
