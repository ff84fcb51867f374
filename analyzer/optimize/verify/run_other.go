//go:build !linux

package verify

import (
	"context"
	"errors"

	"github.com/nginx-lint/nginx-lint/analyzer/routing"
)

// Run needs a private network namespace, which only Linux has.
func Run(context.Context, *routing.Table, *routing.Table, int, Options) (*Result, error) {
	return nil, errors.New("verification runs nginx in a private network namespace, which needs Linux")
}
