package rules

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/buildinfo"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// TestBuiltinVariableRedefinedNginx has the real nginx judge "set $NAME"
// for every variable of nginx's own that the tables know, in http and
// in stream: where nginx says `the duplicate "NAME" variable`,
// builtin-variable-redefined must report an error at that line, and
// nowhere else. The tables do not say which variables are changeable;
// nginx does.
func TestBuiltinVariableRedefinedNginx(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nginx once per variable")
	}
	nginx := nginxtest.Require(t)
	out, err := exec.Command(nginx, "-V").CombinedOutput()
	if err != nil {
		t.Fatalf("nginx -V: %v: %s", err, out)
	}
	info, err := buildinfo.Parse(string(out))
	if err != nil {
		t.Fatal(err)
	}
	opts := analyzer.Options{Target: analyzer.BuildTarget(info)}
	loads := ""
	if so := "/usr/lib/nginx/modules/ngx_stream_module.so"; slices.Contains(info.Dynamic, "ngx_stream_module") {
		if _, err := os.Stat(so); err == nil {
			loads = "load_module " + so + ";\n"
		}
	}
	reg, err := analyzer.NewRegistry(BuiltinVariableRedefined)
	if err != nil {
		t.Fatal(err)
	}
	type probe struct{ name, conf string }
	var probes []probe
	own := ownVariables()
	for ns, vars := range own {
		for name := range vars {
			var conf string
			if varNamespace(ns) == nsHTTP {
				conf = loads + "events {}\nhttp {\n    access_log off;\n    server {\n        listen 127.0.0.1:18934;\n        set $" + name + " x;\n    }\n}\n"
			} else {
				if loads == "" && !info.HasModule("ngx_stream_module") {
					continue
				}
				conf = loads + "events {}\nstream {\n    server {\n        listen 127.0.0.1:18935;\n        set $" + name + " x;\n        return x;\n    }\n}\n"
			}
			probes = append(probes, probe{name, conf})
		}
	}
	sort.Slice(probes, func(i, j int) bool { return probes[i].conf < probes[j].conf })
	var (
		wg                        sync.WaitGroup
		mu                        sync.Mutex
		refused, accepted, hidden int
		sem                       = make(chan struct{}, 2)
	)
	for _, pr := range probes {
		line := strings.Count(pr.conf[:strings.Index(pr.conf, "set $")], "\n") + 1
		f := parser.ParseFile("/t/nginx.conf", []byte(pr.conf), &parser.Options{Kinds: analyzer.Kinds})
		cfg := &parser.Config{Main: f, Files: []*parser.File{f}}
		reported := false
		for _, d := range analyzer.Run(cfg, reg, opts) {
			reported = reported || d.Severity == parser.Error && f.Line(int(d.Range.Start)) == line
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			res, err := nginxtest.TestData(context.Background(), nginx, []byte(pr.conf), nginxtest.Quiet())
			if err != nil {
				t.Error(err)
				return
			}
			errs := res.Errors()
			dup := fmt.Sprintf("the duplicate %q variable", pr.name)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case len(errs) == 0:
				accepted++
				if reported {
					t.Errorf("$%s: nginx accepts set $%s, the rule reports an error:\n%s", pr.name, pr.name, pr.conf)
				}
			case strings.Contains(errs[0].Text, dup) && errs[0].Line == line:
				refused++
				if !reported {
					t.Errorf("$%s: nginx says %q, the rule is silent:\n%s", pr.name, errs[0].Text, pr.conf)
				}
			default:
				hidden++
				t.Logf("$%s: nginx stops on another error: %s", pr.name, errs[0].Text)
			}
		}()
	}
	wg.Wait()
	t.Logf("%d probes: nginx refuses %d, accepts %d, %d hidden by another error", len(probes), refused, accepted, hidden)
	if refused < 100 || accepted < 20 {
		t.Errorf("too few verdicts (refused %d, accepted %d): the probes no longer reach nginx's variable table", refused, accepted)
	}
}
