package calibrate

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"time"

	"github.com/nginx-lint/nginx-lint/internal/nginxrun"
)

// measureTimeout bounds one nginx -t: the largest layouts take seconds,
// and a hung nginx must not hang the calibration.
const measureTimeout = 2 * time.Minute

// NginxT returns the Measure that runs `ngx -t -q` on a configuration
// with a fresh temporary prefix and reports its wall time, CPU time and
// peak RSS. It refuses configurations that are not loopback-only, since
// nginx -t binds every listen; the generated layouts keep pid and
// error_log relative to the prefix.
func NginxT(ngx string) Measure {
	return func(ctx context.Context, conf string) (Measurement, error) { return timeNginxT(ctx, ngx, conf) }
}

func timeNginxT(ctx context.Context, ngx, conf string) (Measurement, error) {
	if err := nginxrun.CheckLoopback(conf); err != nil {
		return Measurement{}, err
	}
	prefix, err := os.MkdirTemp("", "nginx-lint-prefix-")
	if err != nil {
		return Measurement{}, err
	}
	defer os.RemoveAll(prefix)
	if err := os.Mkdir(filepath.Join(prefix, "logs"), 0o755); err != nil {
		return Measurement{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, measureTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, ngx, "-t", "-q", "-p", prefix+"/", "-c", conf)
	cmd.Dir = prefix
	start := time.Now()
	out, err := cmd.CombinedOutput()
	m := Measurement{Wall: time.Since(start).Seconds()}
	if err != nil {
		return m, fmt.Errorf("nginx -t failed: %v: %s", err, out)
	}
	if st := cmd.ProcessState; st != nil {
		m.CPU = (st.UserTime() + st.SystemTime()).Seconds()
		m.RSS = maxRSS(st)
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

// maxRSS reads the peak resident set of a finished process, in bytes.
// The rusage type differs between systems (and Windows has no Maxrss), so
// the field is looked up by name rather than through syscall.Rusage.
func maxRSS(st *os.ProcessState) int64 {
	v := reflect.ValueOf(st.SysUsage())
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return 0
	}
	f := v.FieldByName("Maxrss")
	if !f.IsValid() || !f.CanInt() {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return f.Int()
	}
	return f.Int() * 1024 // Linux and the BSDs count KiB
}
