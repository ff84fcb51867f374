package calibrate

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/nginx-lint/nginx-lint/internal/nginxrun"
)

// measureTimeout bounds one nginx -t: the largest layouts take seconds,
// and a hung nginx must not hang the calibration.
const measureTimeout = 2 * time.Minute

// NginxT returns the Measure that runs `ngx -t -q` on a configuration
// with a fresh temporary prefix (nginxrun.Test) and reports its wall
// time, CPU time and peak RSS. It refuses configurations that are not
// loopback-only, since nginx -t binds every listen; the generated layouts
// keep pid and error_log relative to the prefix.
func NginxT(ngx string) Measure {
	return func(ctx context.Context, conf string) (Measurement, error) { return timeNginxT(ctx, ngx, conf) }
}

func timeNginxT(ctx context.Context, ngx, conf string) (Measurement, error) {
	res, err := nginxrun.Test(ctx, ngx, conf, nginxrun.Quiet(), nginxrun.WithTimeout(measureTimeout))
	if err != nil {
		return Measurement{}, err
	}
	m := Measurement{Wall: res.Duration.Seconds(), CPU: res.CPU.Seconds(), RSS: res.MaxRSS}
	if !res.OK {
		return m, fmt.Errorf("nginx -t failed: exit status %d: %s", res.ExitCode, res.Stderr)
	}
	return m, nil
}

// DescribeMachine names what a calibration measured, for the profile's
// Source: the nginx version (nginxrun.Version), the kernel and the
// number of CPUs.
func DescribeMachine(nginxVersion string) string {
	return fmt.Sprintf("nginx %s, %s, %d CPUs", nginxVersion, kernelVersion(), runtime.NumCPU())
}

// kernelVersion reads the running kernel's release.
func kernelVersion() string {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return runtime.GOOS
	}
	return "Linux " + strings.TrimSpace(string(b))
}
