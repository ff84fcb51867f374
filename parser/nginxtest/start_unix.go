//go:build unix

package nginxtest

import "github.com/nginx-lint/nginx-lint/internal/nginxrun"

// Instance is a running nginx master process (unix only, as Start is).
type Instance = nginxrun.Instance

// Start and Get run and query a foreground nginx; see internal/nginxrun.
var (
	Start = nginxrun.Start
	Get   = nginxrun.Get
)
