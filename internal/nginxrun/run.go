package nginxrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// DefaultTimeout bounds a Test run, or the startup of Start, when no
// WithTimeout option is given. It is generous because the benchmark's
// largest layouts take seconds to load.
const DefaultTimeout = 2 * time.Minute

// Option configures Test, TestData and Start.
type Option func(*options)

type options struct {
	timeout time.Duration
	prefix  string
	global  []string
	quiet   bool
	// anyAddr skips the loopback check (InPrivateNetns).
	anyAddr bool
}

// WithTimeout bounds the run (for Start: the time until nginx is ready).
// nginx is killed when it runs out.
func WithTimeout(d time.Duration) Option { return func(o *options) { o.timeout = d } }

// WithPrefix runs nginx with -p dir instead of a fresh temporary
// directory. The directory must exist; it is not removed afterwards, and
// a logs/ directory is created in it if missing.
func WithPrefix(dir string) Option { return func(o *options) { o.prefix = dir } }

// WithGlobal adds directives to nginx's -g argument, e.g.
// "worker_processes 2;". They must not repeat directives the
// configuration sets, or nginx fails with `"x" directive is duplicate`.
func WithGlobal(directives string) Option {
	return func(o *options) { o.global = append(o.global, directives) }
}

// Quiet passes -q, which drops nginx's "syntax is ok" and "test is
// successful" lines; warnings are still written.
func Quiet() Option { return func(o *options) { o.quiet = true } }

// InPrivateNetns lets Test and Start run a configuration that listens
// on any address, a wildcard included. Only for a caller that runs them
// in a network namespace of its own, whose interfaces nothing outside
// reaches (unshare(CLONE_NEWNET)): there a wildcard is as private as
// 127.0.0.1.
func InPrivateNetns() Option { return func(o *options) { o.anyAddr = true } }

func collect(opts []Option) options {
	o := options{timeout: DefaultTimeout}
	for _, f := range opts {
		f(&o)
	}
	return o
}

// Result is the outcome of one `nginx -t`.
type Result struct {
	// OK reports whether nginx accepted the configuration (exit status 0).
	OK bool
	// ExitCode is nginx's exit status.
	ExitCode int
	// Messages are the log lines of Stderr, parsed.
	Messages []Message
	// Stderr is everything nginx wrote, standard output included (nginx
	// normally writes nothing there).
	Stderr string
	// Duration is the wall time of the nginx process.
	Duration time.Duration
	// CPU is the process's CPU time, user and system; MaxRSS its peak
	// resident set in bytes (0 where the system does not say).
	CPU    time.Duration
	MaxRSS int64
	// Args are the arguments nginx ran with, for reproducing a run by
	// hand; the temporary prefix in them is gone after Test returns.
	Args []string
}

// Errors returns the messages at level error or worse.
func (r Result) Errors() []Message {
	var out []Message
	for _, m := range r.Messages {
		if m.IsError() {
			out = append(out, m)
		}
	}
	return out
}

// Test runs `nginx -t -p PREFIX -c confPath` with PREFIX a fresh
// temporary directory containing logs/, removed afterwards. When the
// configuration sets no pid, "pid PREFIX/nginx.pid;" is passed with -g,
// because `nginx -t` creates the pid file and the compiled-in default
// (/run/nginx.pid) is not writable for non-root users.
//
// A configuration that nginx rejects is not an error: the Result says so.
// Errors are for failing to run nginx, running out of time, or a
// configuration that is not loopback-only (ErrNotLoopback); in the last
// case nginx is not run at all.
func Test(ctx context.Context, nginxPath, confPath string, opts ...Option) (Result, error) {
	o := collect(opts)
	conf, err := filepath.Abs(confPath)
	if err != nil {
		return Result{}, err
	}
	sc, err := scanConfig(conf)
	if err != nil {
		return Result{}, fmt.Errorf("nginxrun: %w", err)
	}
	if err := sc.loopbackErr(); err != nil && !o.anyAddr {
		return Result{}, err
	}
	prefix, cleanup, err := makePrefix(o.prefix)
	if err != nil {
		return Result{}, err
	}
	defer cleanup()

	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()

	_, hasPid := sc.main["pid"]
	res, err := runTest(ctx, nginxPath, prefix, conf, o, !hasPid)
	if err == nil && !hasPid && !res.OK && duplicatePid(res) {
		// The scan missed a pid, e.g. one set through a file it could not
		// read; nginx reads -g first, so its copy is the duplicate.
		res, err = runTest(ctx, nginxPath, prefix, conf, o, false)
	}
	return res, err
}

// TestData is Test for configuration text: it writes conf to nginx.conf
// in a temporary directory, so relative includes resolve there, and runs
// Test on it. Message.File then names that removed file.
func TestData(ctx context.Context, nginxPath string, conf []byte, opts ...Option) (Result, error) {
	dir, err := os.MkdirTemp("", "nginxrun-conf-")
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, conf, 0o644); err != nil {
		return Result{}, err
	}
	return Test(ctx, nginxPath, path, opts...)
}

func duplicatePid(r Result) bool {
	for _, m := range r.Messages {
		if m.Text == `"pid" directive is duplicate` {
			return true
		}
	}
	return false
}

func runTest(ctx context.Context, nginxPath, prefix, conf string, o options, addPid bool) (Result, error) {
	args := []string{"-t"}
	if o.quiet {
		args = append(args, "-q")
	}
	args = append(args, "-p", prefix+string(filepath.Separator), "-c", conf)
	global := o.global
	if addPid {
		global = append(global[:len(global):len(global)], "pid "+filepath.Join(prefix, "nginx.pid")+";")
	}
	if len(global) > 0 {
		args = append(args, "-g", strings.Join(global, " "))
	}

	cmd := exec.CommandContext(ctx, nginxPath, args...)
	cmd.Env = childEnv()
	cmd.Dir = prefix
	// WaitDelay keeps Wait from hanging on output pipes should nginx be
	// killed while something it started still holds them.
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	res := Result{
		Duration: time.Since(start),
		Stderr:   out.String(),
		Args:     args,
		ExitCode: cmd.ProcessState.ExitCode(),
	}
	if st := cmd.ProcessState; st != nil {
		res.CPU, res.MaxRSS = st.UserTime()+st.SystemTime(), maxRSS(st)
	}
	res.Messages = ParseMessages(res.Stderr)
	if ctxErr := ctx.Err(); ctxErr != nil {
		return res, fmt.Errorf("nginxrun: nginx -t on %s: %w", conf, ctxErr)
	}
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		res.OK = true
	case errors.As(err, &exitErr) && exitErr.Exited():
	default:
		return res, fmt.Errorf("nginxrun: running %s: %w", nginxPath, err)
	}
	return res, nil
}

// makePrefix returns an absolute prefix directory with logs/ in it and a
// function that removes it if it was created here.
func makePrefix(given string) (string, func(), error) {
	if given != "" {
		abs, err := filepath.Abs(given)
		if err != nil {
			return "", nil, err
		}
		if err := os.MkdirAll(filepath.Join(abs, "logs"), 0o755); err != nil {
			return "", nil, fmt.Errorf("nginxrun: prefix: %w", err)
		}
		return abs, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "nginxrun-prefix-")
	if err != nil {
		return "", nil, err
	}
	// nginx running as root drops its workers to "nobody", which must be
	// able to reach the temp directories it creates under the prefix.
	if err := os.Chmod(dir, 0o755); err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	if err := os.Mkdir(filepath.Join(dir, "logs"), 0o755); err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}
