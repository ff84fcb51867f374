package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/internal/report"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

const costConf = `events {}
http {
    server { listen 80; }
    server { listen 127.0.0.1:80 bind; }
    server { listen 127.0.0.2:80; server_name a; }
    server { listen 127.0.0.2:80; server_name b; }
}
`

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCostJSON(t *testing.T) {
	path := writeTemp(t, "nginx.conf", costConf)
	code, out, errs := runCLI(t, "", "cost", "--format", "json", path)
	// The bind conflict is an error: exit 1.
	if code != exitFindings {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	var got struct {
		Startup *float64 `json:"startup_seconds"`
		Reload  *float64 `json:"reload_seconds"`
		Sockets struct {
			Test, Start int
		} `json:"sockets"`
		Phases []struct {
			Name    string
			Ops     int64
			Seconds float64
		} `json:"phases"`
		Diagnostics []report.JSONDiagnostic `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got.Startup == nil || got.Reload == nil || *got.Startup <= 0 || *got.Reload <= *got.Startup {
		t.Errorf("totals %v %v", got.Startup, got.Reload)
	}
	// Port 80: the wildcard and the bind address get sockets, .2 is absorbed.
	if got.Sockets.Test != 2 || got.Sockets.Start != 2 {
		t.Errorf("sockets %+v", got.Sockets)
	}
	ops := map[string]int64{}
	for _, p := range got.Phases {
		ops[p.Name] = p.Ops
	}
	// ngx_http_add_addresses: 0 + 1 + 2 + 3 (the fourth finds .2 third).
	if ops["address scan"] != 6 || ops["servers created and merged"] != 4 {
		t.Errorf("phases %+v", got.Phases)
	}
	var codes []string
	for _, d := range got.Diagnostics {
		codes = append(codes, d.Code)
	}
	if strings.Join(codes, ",") != "NL4003" || got.Diagnostics[0].Line != 4 {
		t.Errorf("diagnostics %+v", got.Diagnostics)
	}
}

func TestCostText(t *testing.T) {
	path := writeTemp(t, "nginx.conf", costConf)
	svg := filepath.Join(t.TempDir(), "cost.svg")
	_, out, _ := runCLI(t, "", "cost", "--svg", svg, path)
	for _, want := range []string{"4 servers, 4 listens on 1 port and 3 addresses", "address scan", "nginx -t  ≈ ",
		"reload    ≈ ", "sockets: 2 at nginx -t, 2 at start", "127.0.0.2:80: 2 names, ok", "worker_connections: need 3, have 512: ok",
		"what if (", "drop bind", "[NL4003 listen-bind-conflict]", "what each phase counts", "  address scan  "} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	// Four servers: the estimate is the process start's, and the chart
	// says so instead of drawing a flat line.
	b, err := os.ReadFile(svg)
	if err != nil || !strings.HasPrefix(string(b), "<svg") || strings.Count(string(b), "<polyline") != 0 || !strings.Contains(string(b), "no chart is drawn") {
		t.Errorf("svg: %v\n%s", err, b)
	}
}

func TestCostBudgetAndProfile(t *testing.T) {
	path := writeTemp(t, "nginx.conf", "events {}\nhttp {\n    server { listen 127.0.0.1:80; }\n}\n")
	if code, out, _ := runCLI(t, "", "cost", path); code != exitClean || strings.Contains(out, "NL4007") {
		t.Errorf("no budget: exit %d\n%s", code, out)
	}
	code, out, _ := runCLI(t, "", "cost", "--startup-budget", "1us", path)
	if code != exitFindings || !strings.Contains(out, "error: estimated startup") {
		t.Errorf("over budget: exit %d\n%s", code, out)
	}
	// A profile with a 100× socket cost shows in the phase.
	p := costmodel.DefaultProfile()
	p.Costs[costmodel.CostSocket] *= 100
	b, _ := costmodel.MarshalProfile(p)
	prof := writeTemp(t, "profile.json", string(b))
	_, out, _ = runCLI(t, "", "cost", "--format", "json", "--profile", prof, path)
	var got struct {
		Phases []struct {
			Name    string
			Seconds float64
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	for _, ph := range got.Phases {
		if strings.HasPrefix(ph.Name, "listening sockets") && ph.Seconds != 100*costmodel.DefaultProfile().Costs[costmodel.CostSocket] {
			t.Errorf("socket phase %v", ph.Seconds)
		}
	}
	if code, _, errs := runCLI(t, "", "cost", "--profile", writeTemp(t, "bad.json", `{"costs":{"x":1}}`), path); code != exitUsage {
		t.Errorf("bad profile: exit %d %s", code, errs)
	}
}

// TestCalibrateSmall runs calibrate on tiny layouts: it checks the
// mechanics (a profile nginx-lint cost accepts), not the numbers. Layouts
// this small may well fit degenerately, hence --force; the fit logic
// itself is tested on a synthetic machine (calibrate_test.go).
func TestCalibrateSmall(t *testing.T) {
	ngx := nginxtest.Require(t)
	out := filepath.Join(t.TempDir(), "p.json")
	code, stdout, errs := runCLI(t, "", "calibrate", "--nginx", ngx, "--sizes", "30,60,120", "--runs", "1", "--force", "-o", out)
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	p, err := costmodel.ParseProfile(b)
	if err != nil || !strings.Contains(p.Source, "fitted by nginx-lint calibrate") {
		t.Fatalf("%v %+v", err, p)
	}
	if p.Measured != [2]int{30, 120} {
		t.Errorf("measured range %v", p.Measured)
	}
	if !strings.Contains(stdout, "| L3c | 120 |") || !strings.Contains(stdout, "held out (each size predicted by costs fitted on the other sizes)") {
		t.Errorf("table missing:\n%s", stdout)
	}
}
