package calibrate

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

func writeConf(t *testing.T, src []byte) string {
	t.Helper()
	conf := filepath.Join(t.TempDir(), "nginx.conf")
	if err := os.WriteFile(conf, src, 0o644); err != nil {
		t.Fatal(err)
	}
	return conf
}

// TestNginxTRefusesNonLoopback: nginx -t binds every listen, so a
// configuration that listens beyond loopback is refused before nginx
// runs (the binary here does not exist, and is never reached).
func TestNginxTRefusesNonLoopback(t *testing.T) {
	conf := writeConf(t, []byte("events {}\nhttp { server { listen 0.0.0.0:8080; } }\n"))
	_, err := NginxT("/nonexistent/nginx")(context.Background(), conf)
	if err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("err = %v", err)
	}
}

// TestNginxT times the real nginx on a small layout: the mechanics (a
// measurement with a resident set, nginx's complaint on a bad
// configuration), not the numbers.
func TestNginxT(t *testing.T) {
	ngx := nginxtest.Require(t)
	l, _ := layout.ParseName("L2c")
	measure := NginxT(ngx)
	m, err := measure(context.Background(), writeConf(t, layout.Generate(layout.Options{Layout: l, N: 20, BasePort: 31100})))
	if err != nil {
		t.Fatal(err)
	}
	if m.Wall <= 0 || m.CPU < 0 || (runtime.GOOS == "linux" && m.RSS <= 0) {
		t.Errorf("measurement %+v", m)
	}
	_, err = measure(context.Background(), writeConf(t, []byte("events {}\nhttp { server { listen 127.0.0.1:31100; bogus_directive; } }\n")))
	if err == nil || !strings.Contains(err.Error(), "nginx -t failed") || !strings.Contains(err.Error(), "bogus_directive") {
		t.Errorf("bad configuration: %v", err)
	}
}

func TestDescribeMachine(t *testing.T) {
	d := DescribeMachine("1.22.1")
	if !strings.HasPrefix(d, "nginx 1.22.1, ") || !strings.HasSuffix(d, " CPUs") {
		t.Errorf("DescribeMachine = %q", d)
	}
}
