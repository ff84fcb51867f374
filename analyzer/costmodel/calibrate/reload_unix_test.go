//go:build unix

package calibrate

import (
	"context"
	"os"
	"testing"

	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// TestTimeReloads starts the real nginx on the three layouts at a small
// size and reloads each once: the mechanics (a row per layout, each
// passed to Each as it is timed, predictions from the profile), not the
// numbers.
func TestTimeReloads(t *testing.T) {
	ngx := nginxtest.Require(t)
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("skipping: timing a reload needs /proc")
	}
	var each []ReloadRun
	rows, err := TimeReloads(context.Background(), ReloadOptions{Nginx: ngx, Sizes: []int{10}, Runs: 3, Each: func(r ReloadRun) { each = append(each, r) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || len(each) != 3 {
		t.Fatalf("rows %+v, each %+v", rows, each)
	}
	for i, r := range rows {
		if r.Layout.String() != reloadLayouts[i] || r.Servers != 10 || r.Start <= 0 || r.Reload <= 0 ||
			r.PredictedStart <= 0 || r.PredictedReload <= r.PredictedStart ||
			len(r.StartRuns) != 3 || len(r.ReloadRuns) != 3 ||
			r.Start != medianOf(r.StartRuns) || r.Reload != medianOf(r.ReloadRuns) {
			t.Errorf("row %d: %+v", i, r)
		}
		if e := each[i]; e.Layout != r.Layout || e.Start != r.Start || e.Reload != r.Reload {
			t.Errorf("each %d: %+v, row %+v", i, e, r)
		}
	}
	if _, err := TimeReloads(context.Background(), ReloadOptions{Nginx: ngx, Sizes: []int{0}}); err == nil {
		t.Error("size 0 accepted")
	}
}
