package calibrate

import (
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
)

// ReloadOptions says what TimeReloads starts.
type ReloadOptions struct {
	// Nginx is the nginx binary.
	Nginx string
	// Profile prices the predictions; nil means costmodel.DefaultProfile.
	Profile *costmodel.Profile
	// Sizes are the server counts to start L1c, L2c and L3c at; nil means
	// 2000, 5000 and 10000.
	Sizes []int
	// Runs is how often each layout is started and reloaded, round-robin
	// over the layouts so that a shared machine's drift reaches all of
	// them; the medians count. Less than 1 means 1.
	Runs int
	// Each, when set, receives every row as soon as its last run is
	// timed: a start of the larger layouts takes seconds.
	Each func(ReloadRun)
}

// reloadSizes are the server counts TimeReloads starts nginx at by
// default: enough servers for the start to take measurable time, few
// enough for the sandbox's open files.
var reloadSizes = []int{2000, 5000, 10000}

// reloadLayouts are the layouts TimeReloads starts: one per listen
// scheme, each server named, as deployments name them.
var reloadLayouts = []string{"L1c", "L2c", "L3c"}

// ReloadRun is one start and one reload of nginx on a layout, measured on
// the wall clock, against the model's predictions.
type ReloadRun struct {
	Layout  layout.Layout
	Servers int
	// Start is the seconds until the pid file appeared, after every
	// socket was bound; Reload the seconds from running `nginx -s reload`
	// until the old workers were gone and a new one ran: the medians of
	// StartRuns and ReloadRuns, every run's seconds in the order timed.
	Start, Reload         float64
	StartRuns, ReloadRuns []float64
	// PredictedStart and PredictedReload are the model's
	// (costmodel.Result.StartupSeconds and ReloadSeconds).
	PredictedStart, PredictedReload float64
}
