package nginxrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// EnvVar names the environment variable that overrides where Find looks
// for nginx.
//
// nginx itself reads the same variable as a list of inherited listening
// sockets (its binary-upgrade protocol), so every nginx this package runs
// gets an environment without it.
const EnvVar = "NGINX"

// DefaultPath is where Debian and most distributions install nginx.
const DefaultPath = "/usr/sbin/nginx"

// Find returns the nginx binary to run: the value of $NGINX when set
// (an error if that is not an executable file, so a typo is not silently
// replaced by another binary), else DefaultPath, else "nginx" on $PATH.
func Find() (string, error) {
	if p := os.Getenv(EnvVar); p != "" {
		if err := executable(p); err != nil {
			return "", fmt.Errorf("nginxrun: $%s=%q: %w", EnvVar, p, err)
		}
		return p, nil
	}
	if executable(DefaultPath) == nil {
		return DefaultPath, nil
	}
	p, err := exec.LookPath("nginx")
	if err != nil {
		return "", fmt.Errorf("nginxrun: nginx not found in $%s, %s or $PATH", EnvVar, DefaultPath)
	}
	return p, nil
}

func executable(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return errors.New("not an executable file")
	}
	return nil
}

// Version returns the version of the nginx at nginxPath, e.g. "1.22.1",
// as reported by `nginx -v`.
func Version(ctx context.Context, nginxPath string) (string, error) {
	cmd := exec.CommandContext(ctx, nginxPath, "-v")
	cmd.Env = childEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("nginxrun: %s -v: %w: %s", nginxPath, err, out)
	}
	s := strings.TrimSpace(string(out))
	if _, v, ok := strings.Cut(s, "nginx version: "); ok {
		// "nginx/1.22.1", possibly followed by a vendor suffix.
		v, _, _ = strings.Cut(v, " ")
		if _, num, ok := strings.Cut(v, "/"); ok {
			return num, nil
		}
		return v, nil
	}
	return "", fmt.Errorf("nginxrun: unexpected output of %s -v: %q", nginxPath, s)
}

// childEnv is the environment of every nginx this package runs: ours
// without $NGINX (see EnvVar).
func childEnv() []string {
	env := os.Environ()
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, EnvVar+"=") {
			out = append(out, kv)
		}
	}
	return out
}
