package rules_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// TestUpstreamNamesNginx: the names a *_pass gives, as nginx resolves
// them beside the upstream blocks "really" (http) and "relay" (stream):
// a near miss of an upstream is nginx's "host not found in upstream" (it
// asks DNS, which does not know it) and an error with "did you mean";
// fastcgi_pass, uwsgi_pass, scgi_pass, grpc_pass, memcached_pass, memc_pass
// and stream's proxy_pass to a name without a port and no upstream are
// "no port in upstream"; an upstream's own name is accepted. A name with
// no dot that is near no upstream (a container's service name, which
// only the deployment's DNS knows) is no error, whatever this machine's
// nginx says. The rules must report an error at nginx's line, with its
// message, exactly where the real nginx refuses, but for those names.
func TestUpstreamNamesNginx(t *testing.T) {
	nginx := nginxtest.Require(t)
	info := nginxBuild(t, nginx)
	objects := installedObjects(info)
	loads, _ := dynamicModules(info)
	memc, haveMemc := objects["ngx_http_memc_module"]
	stream, haveStream := loads["stream"]
	if (!haveMemc || !haveStream) && os.Getenv("CI") == "true" {
		t.Fatal("CI=true: libnginx-mod-http-memc and libnginx-mod-stream are required (.ci/run installs them)")
	}
	reg := rules.All()
	type tcase struct {
		loc    string // a location's line, or "stream:" and a stream server's
		want   string // nginx's message, or "" when it accepts
		hostOK bool   // nginx refuses only because this machine's DNS lacks the name
	}
	cases := []tcase{
		{"proxy_pass http://realy;", `host not found in upstream "realy"`, false},
		{"proxy_pass http://Really;", "", false},
		{"proxy_pass http://really/api/;", "", false},
		{"proxy_pass http://reallly;", `host not found in upstream "reallly"`, false},
		{"proxy_pass http://backendsvc;", `host not found in upstream "backendsvc"`, true},
		{"proxy_pass http://realy:8080;", `host not found in upstream "realy"`, true},
		{"fastcgi_pass foos;", `no port in upstream "foos"`, false},
		{"fastcgi_pass realy;", `no port in upstream "realy"`, false},
		{"fastcgi_pass really;", "", false},
		{"uwsgi_pass foos;", `no port in upstream "foos"`, false},
		{"uwsgi_pass uwsgi://foos;", `no port in upstream "foos"`, false},
		{"scgi_pass foos;", `no port in upstream "foos"`, false},
		{"grpc_pass foos;", `no port in upstream "foos"`, false},
		{"grpc_pass grpc://foos;", `no port in upstream "foos"`, false},
		{"grpc_pass really;", "", false},
		{"memcached_pass foos;", `no port in upstream "foos"`, false},
	}
	if haveMemc {
		cases = append(cases,
			tcase{"memc_pass foos;", `no port in upstream "foos"`, false},
			tcase{"memc_pass realy;", `no port in upstream "realy"`, false},
			tcase{"memc_pass really;", "", false},
			tcase{"memc_pass 127.0.0.1;", `no port in upstream "127.0.0.1"`, false},
			tcase{"memc_pass 127.0.0.1:11211;", "", false},
			tcase{"memc_pass $arg_backend;", "", false})
	}
	if haveStream {
		cases = append(cases,
			tcase{"stream:proxy_pass relya;", `no port in upstream "relya"`, false},
			tcase{"stream:proxy_pass foos;", `no port in upstream "foos"`, false},
			tcase{"stream:proxy_pass relay;", "", false})
	}
	refused := 0
	for _, c := range cases {
		httpLine, streamLine := c.loc, "proxy_pass relay;"
		if l, ok := strings.CutPrefix(c.loc, "stream:"); ok {
			httpLine, streamLine = "return 204;", l
		}
		conf := memc + "events {}\nhttp {\n    upstream really {\n        server 127.0.0.1:18081;\n    }\n" +
			"    server {\n        listen 127.0.0.1:18940;\n        location / {\n            " + httpLine + "\n        }\n    }\n}\n"
		if haveStream {
			conf = stream + conf + "stream {\n    upstream relay {\n        server 127.0.0.1:18082;\n    }\n" +
				"    server {\n        listen 127.0.0.1:18941;\n        " + streamLine + "\n    }\n}\n"
		}
		res, err := nginxtest.TestData(context.Background(), nginx, []byte(conf), nginxtest.Quiet())
		if err != nil {
			t.Fatal(err)
		}
		errs := res.Errors()
		switch {
		case c.want == "" && len(errs) > 0, c.want != "" && (len(errs) == 0 || errs[0].Text != c.want):
			t.Errorf("%s: nginx says %v, the test expects %q", c.loc, errs, c.want)
			continue
		}
		f := parser.ParseFile("/t/nginx.conf", []byte(conf), &parser.Options{Kinds: analyzer.Kinds})
		cfg := &parser.Config{Main: f, Files: []*parser.File{f}}
		var ours []*parser.Diagnostic
		for _, d := range ruleFindings(cfg, reg, analyzer.Options{Target: analyzer.BuildTarget(info)}) {
			if d.Severity == parser.Error && (strings.HasPrefix(d.Code, "NL1") || strings.HasPrefix(d.Code, "NL2")) {
				ours = append(ours, d)
			}
		}
		if c.want == "" || c.hostOK {
			for _, d := range ours {
				t.Errorf("%s: nginx accepts it (or only the deployment's DNS can judge it), the rules report %q [%s]", c.loc, d.Message, d.Name)
			}
			continue
		}
		refused++
		found := false
		for _, d := range ours {
			found = found || f.Line(int(d.Range.Start)) == errs[0].Line && strings.HasPrefix(d.Message, c.want)
		}
		if !found {
			t.Errorf("%s: nginx says %q at line %d; no error with its message there:\n%s", c.loc, c.want, errs[0].Line, numberedLines(conf))
		}
		if strings.Contains(c.loc, "real") || strings.Contains(c.loc, "relya") {
			suggested := false
			for _, d := range ours {
				suggested = suggested || strings.Contains(d.Message, "did you mean")
			}
			if !suggested {
				t.Errorf("%s: no \"did you mean\" for a near miss of an upstream", c.loc)
			}
		}
	}
	if refused < 10 {
		t.Errorf("only %d refusals checked", refused)
	}
}
