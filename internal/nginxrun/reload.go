//go:build unix

package nginxrun

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Workers lists the processes the master runs now: its children, read
// from /proc (workers, and the cache manager and loader when the
// configuration has caches).
func (in *Instance) Workers() ([]int, error) { return childrenOf(in.Pid) }

// Reload runs `nginx -s reload` with the arguments the instance started
// with (its prefix, configuration and -g, so the signaller finds the same
// pid file) and waits until none of the processes the master ran before
// is left and a new one runs. It returns the time from running the
// signaller to then: the signaller's own parse of the configuration, the
// master's, and the old workers' graceful exit. It first waits for the
// master's first workers, so a reload right after Start is measured
// whole. It needs /proc.
func (in *Instance) Reload(ctx context.Context) (time.Duration, error) {
	var old []int
	for len(old) == 0 {
		var err error
		if old, err = in.Workers(); err != nil {
			return 0, err
		}
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		time.Sleep(2 * time.Millisecond)
	}
	t0 := time.Now()
	sig := exec.CommandContext(ctx, in.nginx, append([]string{"-s", "reload"}, in.Args...)...)
	sig.Env = childEnv()
	if out, err := sig.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("nginx -s reload: %v: %s", err, out)
	}
	for {
		kids, err := in.Workers()
		if err != nil {
			return 0, err
		}
		if len(kids) > 0 && !slices.ContainsFunc(kids, func(k int) bool { return slices.Contains(old, k) }) {
			return time.Since(t0), nil
		}
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// childrenOf lists the processes whose parent is pid, from /proc.
func childrenOf(pid int) ([]int, error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, fmt.Errorf("nginxrun: listing nginx's workers needs /proc: %w", err)
	}
	var out []int
	for _, e := range ents {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// "pid (comm) state ppid ...": comm may hold spaces, so cut at
		// the last ')'.
		i := strings.LastIndexByte(string(b), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) > 1 {
			if pp, err := strconv.Atoi(f[1]); err == nil && pp == pid {
				out = append(out, n)
			}
		}
	}
	return out, nil
}
