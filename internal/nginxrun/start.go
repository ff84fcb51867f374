//go:build unix

package nginxrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Instance is a running nginx master process started by Start.
type Instance struct {
	// Pid is the process id of the master, the process Start ran. It is
	// the only process Stop signals; the master stops its workers.
	Pid int
	// Prefix is the -p directory; it holds logs/stderr.log with
	// everything nginx wrote to stderr and stdout.
	Prefix string
	// PidFile is the pid file whose appearance marked nginx as ready.
	PidFile string
	// Ready is the time from starting the process to its pid file
	// appearing: nginx writes it after reading the configuration and
	// binding every listen socket, just before starting workers.
	Ready time.Duration
	// Args are the arguments nginx ran with.
	Args []string

	nginx   string // the binary, for nginx -s
	cmd     *exec.Cmd
	done    chan struct{} // closed when the process has been reaped
	waitErr error         // valid once done is closed
	cleanup func()
}

// Start runs nginx in the foreground (daemon off, so the process Start
// runs is the master and the one it signals later), with -p a fresh
// temporary prefix (see WithPrefix), and waits until nginx has written
// its pid file. When the configuration sets no pid, the pid file goes to
// PREFIX/nginx.pid.
//
// The configuration must be loopback-only (see CheckLoopback), must not
// set "daemon on", and its pid file must not exist yet: a leftover pid
// file would look like a ready nginx. Stop the instance with Stop; should
// the caller die first, Linux sends the master SIGTERM.
func Start(ctx context.Context, nginxPath, confPath string, opts ...Option) (*Instance, error) {
	o := collect(opts)
	conf, err := filepath.Abs(confPath)
	if err != nil {
		return nil, err
	}
	sc, err := scanConfig(conf)
	if err != nil {
		return nil, fmt.Errorf("nginxrun: %w", err)
	}
	if err := sc.loopbackErr(); err != nil && !o.anyAddr {
		return nil, err
	}
	global := append([]string(nil), o.global...)
	if d, ok := sc.main["daemon"]; ok {
		if len(d) != 1 || d[0] != "off" {
			return nil, errors.New("nginxrun: Start needs nginx in the foreground, but the configuration sets daemon")
		}
	} else {
		global = append(global, "daemon off;")
	}

	prefix, cleanup, err := makePrefix(o.prefix)
	if err != nil {
		return nil, err
	}
	inst, err := start(ctx, nginxPath, conf, prefix, sc, global, o)
	if err != nil {
		cleanup()
		return nil, err
	}
	inst.cleanup = cleanup
	return inst, nil
}

func start(ctx context.Context, nginxPath, conf, prefix string, sc *scan, global []string, o options) (*Instance, error) {
	pidFile := filepath.Join(prefix, "nginx.pid")
	if p, ok := sc.main["pid"]; ok && len(p) == 1 {
		pidFile = p[0]
		if !filepath.IsAbs(pidFile) {
			pidFile = filepath.Join(prefix, pidFile)
		}
	} else {
		global = append(global, "pid "+pidFile+";")
	}
	if _, err := os.Stat(pidFile); err == nil {
		return nil, fmt.Errorf("nginxrun: pid file %s already exists; is another nginx using this prefix?", pidFile)
	}

	stderr, err := os.Create(filepath.Join(prefix, "logs", "stderr.log"))
	if err != nil {
		return nil, err
	}
	defer stderr.Close() // the child has its own copy

	args := []string{"-p", prefix + string(filepath.Separator), "-c", conf, "-g", strings.Join(global, " ")}
	cmd := exec.Command(nginxPath, args...)
	cmd.Env = childEnv()
	cmd.Dir = prefix
	cmd.Stdout, cmd.Stderr = stderr, stderr
	setParentDeathSignal(cmd)
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("nginxrun: starting %s: %w", nginxPath, err)
	}
	inst := &Instance{Pid: cmd.Process.Pid, Prefix: prefix, PidFile: pidFile, Args: args, nginx: nginxPath, cmd: cmd, done: make(chan struct{})}
	go func() {
		inst.waitErr = cmd.Wait()
		close(inst.done)
	}()

	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	// Poll rather than watch the directory: the pid file appears once,
	// and a few milliseconds of polling granularity is far below the
	// startup times being measured.
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for {
		if pidFileHas(pidFile, inst.Pid) {
			inst.Ready = time.Since(begin)
			return inst, nil
		}
		select {
		case <-inst.done:
			return nil, fmt.Errorf("nginxrun: nginx exited during startup (%v):\n%s", inst.waitErr, inst.Stderr())
		case <-ctx.Done():
			stopErr := inst.stop(context.Background())
			return nil, errors.Join(fmt.Errorf("nginxrun: nginx not ready: %w:\n%s", ctx.Err(), inst.Stderr()), stopErr)
		case <-tick.C:
		}
	}
}

// pidFileHas reports whether path holds pid; nginx writes the file in one
// write, but a read can still catch it empty.
func pidFileHas(path string, pid int) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	n, err := strconv.Atoi(string(bytes.TrimSpace(b)))
	return err == nil && n == pid
}

// Stderr returns what nginx has written to stderr and stdout so far.
func (in *Instance) Stderr() string {
	b, err := os.ReadFile(filepath.Join(in.Prefix, "logs", "stderr.log"))
	if err != nil {
		return fmt.Sprintf("(reading stderr: %v)", err)
	}
	return string(b)
}

// Stop shuts nginx down and removes a prefix Start created. It sends
// SIGQUIT (graceful shutdown) to the master and waits until it exits or
// ctx is done, then SIGTERM (fast shutdown) with ten more seconds, and
// as a last resort SIGKILL, which returns an error because the master's
// workers may outlive it. Stopping a stopped instance does nothing.
func (in *Instance) Stop(ctx context.Context) error {
	err := in.stop(ctx)
	if in.cleanup != nil {
		in.cleanup()
		in.cleanup = nil
	}
	return err
}

func (in *Instance) stop(ctx context.Context) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
	}
	if in.signalAndWait(syscall.SIGQUIT, ctx.Done()) {
		return nil
	}
	term, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if in.signalAndWait(syscall.SIGTERM, term.Done()) {
		return nil
	}
	if err := in.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("nginxrun: killing nginx %d: %w", in.Pid, err)
	}
	<-in.done
	return fmt.Errorf("nginxrun: nginx %d ignored SIGQUIT and SIGTERM and was killed", in.Pid)
}

// signalAndWait sends sig to the master and reports whether it exited
// before giveUp was closed.
func (in *Instance) signalAndWait(sig syscall.Signal, giveUp <-chan struct{}) bool {
	select {
	case <-in.done:
		return true
	default:
	}
	// The process is our unreaped child until done is closed, so its pid
	// cannot have been reused by anything else. A failed signal means it
	// is exiting already; waiting below settles it either way.
	_ = in.cmd.Process.Signal(sig)
	select {
	case <-in.done:
		return true
	case <-giveUp:
		return false
	}
}
