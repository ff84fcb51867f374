//go:build !unix

package calibrate

import (
	"context"
	"errors"
)

// TimeReloads needs to start nginx and signal it, which only Unix systems
// do.
func TimeReloads(context.Context, ReloadOptions) ([]ReloadRun, error) {
	return nil, errors.New("timing a reload needs a Unix system: nginx is started and signalled")
}
