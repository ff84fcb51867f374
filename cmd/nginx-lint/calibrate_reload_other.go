//go:build !unix

package main

import (
	"context"
	"errors"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
)

// validateReload needs to start nginx and signal it, which only Unix
// systems do.
func validateReload(context.Context, *env, string, *costmodel.Profile) error {
	return errors.New("--reload needs a Unix system: nginx is started and signalled")
}
