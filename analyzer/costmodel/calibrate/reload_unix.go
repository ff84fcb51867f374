//go:build unix

package calibrate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/internal/nginxrun"
	"github.com/nginx-lint/nginx-lint/parser"
)

// TimeReloads starts nginx (loopback only, temporary prefix, stopped by
// its pid: nginxrun.Start) on L1c, L2c and L3c at each size, times the
// start and one reload, o.Runs times round-robin, and returns the medians
// with the model's predictions.
func TimeReloads(ctx context.Context, o ReloadOptions) ([]ReloadRun, error) {
	sizes := o.Sizes
	if sizes == nil {
		sizes = reloadSizes
	}
	for _, n := range sizes {
		if n < 1 {
			return nil, fmt.Errorf("%d is not a server count", n)
		}
	}
	dir, err := os.MkdirTemp("", "nginx-lint-reload-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var out []ReloadRun
	var confs []string
	for _, n := range sizes {
		for _, name := range reloadLayouts {
			l, _ := layout.ParseName(name)
			src := layout.Generate(layout.Options{Layout: l, N: n})
			conf := filepath.Join(dir, fmt.Sprintf("%s-%d.conf", name, n))
			if err := os.WriteFile(conf, src, 0o644); err != nil {
				return nil, err
			}
			c := (&parser.Loader{Kinds: analyzer.Kinds}).LoadSource(conf, src, nil)
			res := costmodel.Compute(parser.BuildModel(c), costmodel.Options{Profile: o.Profile})
			out = append(out, ReloadRun{Layout: l, Servers: n, PredictedStart: res.StartupSeconds, PredictedReload: res.ReloadSeconds})
			confs = append(confs, conf)
		}
	}
	runs := max(o.Runs, 1)
	for i := range runs {
		for j, conf := range confs {
			r := &out[j]
			start, reload, err := timeStartReload(ctx, o.Nginx, conf)
			if err != nil {
				return nil, fmt.Errorf("%v at %d servers: %w", r.Layout, r.Servers, err)
			}
			r.StartRuns, r.ReloadRuns = append(r.StartRuns, start), append(r.ReloadRuns, reload)
			if i == runs-1 {
				r.Start, r.Reload = medianOf(r.StartRuns), medianOf(r.ReloadRuns)
				if o.Each != nil {
					o.Each(*r)
				}
			}
		}
	}
	return out, nil
}

// reloadTimeout bounds one start and reload.
const reloadTimeout = 2 * time.Minute

// timeStartReload starts nginx on conf and reloads it once.
func timeStartReload(ctx context.Context, ngx, conf string) (start, reload float64, err error) {
	ctx, cancel := context.WithTimeout(ctx, reloadTimeout)
	defer cancel()
	inst, err := nginxrun.Start(ctx, ngx, conf)
	if err != nil {
		return 0, 0, err
	}
	defer func() {
		if serr := inst.Stop(context.Background()); serr != nil && err == nil {
			err = serr
		}
	}()
	start = inst.Ready.Seconds()
	took, err := inst.Reload(ctx)
	if err != nil {
		return 0, 0, err
	}
	return start, took.Seconds(), nil
}
