//go:build linux

package verify

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/internal/nginxrun"
)

// Run verifies the rewrite from before to after (the routing tables of
// the two configurations; their servers' files are what runs) with the
// real nginx, in a private network namespace. catchAll is the number of
// the catch-all server the rewrite added, -1 if none.
func Run(ctx context.Context, before, after *routing.Table, catchAll int, o Options) (*Result, error) {
	if o.Timeout <= 0 {
		o.Timeout = 2 * time.Minute
	}
	dir, err := os.MkdirTemp("", "nginx-lint-verify-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var confs [2]string
	for i, t := range []*routing.Table{before, after} {
		_, text, err := numbered(t)
		if err != nil {
			return nil, err
		}
		confs[i] = filepath.Join(dir, []string{"before", "after"}[i]+".conf")
		if err := os.WriteFile(confs[i], text, 0o644); err != nil {
			return nil, err
		}
	}
	reqs, unlisted, servers := sample(before, o.Sample)
	res := &Result{Servers: servers}
	for i, r := range reqs {
		res.Probes = append(res.Probes, Probe{Request: r, Unlisted: unlisted[i],
			PredictedBefore: before.Route(r), PredictedAfter: after.Route(r)})
	}
	// The namespace belongs to one OS thread: this goroutine's, locked
	// and never unlocked, so that the thread ends with it.
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		if err := privateNetns(addresses(before, after)); err != nil {
			done <- err
			return
		}
		for i, side := range []*Side{&res.Before, &res.After} {
			if err := measure(ctx, o, confs[i], side, res.Probes, i == 1); err != nil {
				done <- fmt.Errorf("%s: %w", []string{"before", "after"}[i], err)
				return
			}
		}
		done <- nil
	}()
	if err := <-done; err != nil {
		return res, err
	}
	return res, nil
}

// addresses lists the addresses the two configurations listen on.
func addresses(ts ...*routing.Table) []netip.Addr {
	seen := map[netip.Addr]bool{}
	var out []netip.Addr
	for _, t := range ts {
		for _, p := range t.Ports {
			for _, a := range p.Addrs {
				if a.IP.IsValid() && !a.IP.IsUnspecified() && !seen[a.IP] {
					seen[a.IP] = true
					out = append(out, a.IP)
				}
			}
		}
	}
	return out
}

// privateNetns moves the calling thread into a new network namespace,
// brings its loopback up and adds to it the addresses outside 127.0.0.0/8
// and ::1 that the configurations name.
func privateNetns(addrs []netip.Addr) error {
	if err := syscall.Unshare(syscall.CLONE_NEWNET); err != nil {
		return fmt.Errorf("a private network namespace is needed (the rewritten configuration listens on wildcard addresses) and unshare failed: %w (run as root)", err)
	}
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_DGRAM, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	var ifr [40]byte
	copy(ifr[:], "lo")
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.SIOCGIFFLAGS, uintptr(unsafe.Pointer(&ifr[0]))); e != 0 {
		return fmt.Errorf("reading the loopback's flags: %w", e)
	}
	flags := uint16(ifr[16]) | uint16(ifr[17])<<8
	flags |= syscall.IFF_UP | syscall.IFF_RUNNING
	ifr[16], ifr[17] = byte(flags), byte(flags>>8)
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.SIOCSIFFLAGS, uintptr(unsafe.Pointer(&ifr[0]))); e != 0 {
		return fmt.Errorf("bringing the loopback up: %w", e)
	}
	var batch strings.Builder
	for _, a := range addrs {
		switch {
		case a.Is4() && a.As4()[0] == 127, a == netip.IPv6Loopback():
		case a.Is4():
			fmt.Fprintf(&batch, "addr add %s/32 dev lo\n", a)
		default:
			fmt.Fprintf(&batch, "-6 addr add %s/128 dev lo nodad\n", a)
		}
	}
	if batch.Len() > 0 {
		// A child forked from this thread is in its namespace.
		cmd := exec.Command("ip", "-batch", "-")
		cmd.Stdin = strings.NewReader(batch.String())
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("adding the configuration's addresses to the private loopback: %v: %s", err, out)
		}
	}
	return nil
}

// measure runs nginx -t, starts with the probes (on the first) and
// reloads of conf, o.Runs times each, and keeps the medians.
func measure(ctx context.Context, o Options, conf string, side *Side, probes []Probe, after bool) error {
	var tests, starts, reloads []float64
	for range o.runs() {
		tr, err := nginxrun.Test(ctx, o.Nginx, conf, nginxrun.InPrivateNetns(), nginxrun.WithTimeout(o.Timeout))
		if err != nil {
			return err
		}
		side.TestOK, side.TestOutput = tr.OK, tr.Stderr
		if !tr.OK {
			return fmt.Errorf("nginx -t refuses it:\n%s", tr.Stderr)
		}
		tests = append(tests, tr.Duration.Seconds())
	}
	for run := range o.runs() {
		start, rel, err := startOnce(ctx, o, conf, side, probes, after, run == 0)
		if err != nil {
			return err
		}
		starts, reloads = append(starts, start), append(reloads, rel)
	}
	side.TestSeconds, side.StartSeconds, side.ReloadSeconds = median(tests), median(starts), median(reloads)
	return nil
}

// startOnce starts nginx, counts its sockets and sends the probes (when
// probe is set), reloads it and stops it.
func startOnce(ctx context.Context, o Options, conf string, side *Side, probes []Probe, after, probe bool) (start, rel float64, err error) {
	sctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	inst, err := nginxrun.Start(sctx, o.Nginx, conf, nginxrun.InPrivateNetns(), nginxrun.WithTimeout(o.Timeout))
	if err != nil {
		return 0, 0, err
	}
	defer inst.Stop(context.Background())
	start = inst.Ready.Seconds()
	if probe {
		side.Sockets = listening()
		for i := range probes {
			r := probes[i].Request
			n, err := ask(netip.AddrPortFrom(r.Addr, uint16(r.Port)).String(), r.Host, r.NoHost)
			if err != nil {
				return 0, 0, fmt.Errorf("%s: %w", r, err)
			}
			if after {
				probes[i].After = n
			} else {
				probes[i].Before = n
			}
		}
	}
	took, err := inst.Reload(sctx)
	if err != nil {
		return 0, 0, err
	}
	return start, took.Seconds(), inst.Stop(context.Background())
}

// median returns the middle value (the mean of the two middle ones).
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

var answerRe = regexp.MustCompile(`nginx-lint-server (\d+)`)

// ask sends one request (nginxrun.Get, or GetNoHost for a request
// without a Host) and returns the number of the server that answered,
// Refused or Closed.
func ask(addr, host string, noHost bool) (int, error) {
	var answer string
	var err error
	if noHost {
		answer, err = nginxrun.GetNoHost(addr, "/")
	} else {
		answer, err = nginxrun.Get(addr, host, "/")
	}
	if err != nil {
		if errors.Is(err, syscall.ECONNREFUSED) {
			return Refused, nil
		}
		return 0, err
	}
	if answer == "" {
		return Closed, nil
	}
	m := answerRe.FindStringSubmatch(answer)
	if m == nil {
		return 0, fmt.Errorf("an answer from no numbered server: %q", firstLine(answer))
	}
	return strconv.Atoi(m[1])
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
}

// listening counts the listening TCP sockets of the namespace: in a
// private one, nginx's.
func listening() int {
	n := 0
	for _, f := range []string{"/proc/self/net/tcp", "/proc/self/net/tcp6"} {
		// /proc/self/net follows the reading thread's namespace
		// (/proc/thread-self/net would be exact; self is the main
		// thread's), so read it through the thread.
		f = strings.Replace(f, "/proc/self/", fmt.Sprintf("/proc/self/task/%d/", syscall.Gettid()), 1)
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			fs := strings.Fields(sc.Text())
			if len(fs) > 3 && fs[3] == "0A" {
				n++
			}
		}
		fh.Close()
	}
	return n
}
