package rules

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// literalProbes place each directive of literalArgs, with an undefined
// variable ($P) in the argument the rule reads, where nginx accepts it:
// "M:" at the top, "H:" in http, "S:" in a server, "L:" in a location.
var literalProbes = map[string]string{
	"error_log": "S:error_log /tmp/$P.log;", "pid": "M:pid /tmp/$P.pid;", "lock_file": "M:lock_file /tmp/$P;",
	"working_directory": "M:working_directory /tmp/$P;",

	"client_body_temp_path": "H:client_body_temp_path /tmp/$P;", "proxy_temp_path": "H:proxy_temp_path /tmp/$P;",
	"fastcgi_temp_path": "H:fastcgi_temp_path /tmp/$P;", "uwsgi_temp_path": "H:uwsgi_temp_path /tmp/$P;",
	"scgi_temp_path": "H:scgi_temp_path /tmp/$P;", "proxy_cache_path": "H:proxy_cache_path /tmp/$P keys_zone=p1:1m;",
	"fastcgi_cache_path": "H:fastcgi_cache_path /tmp/$P keys_zone=p2:1m;", "uwsgi_cache_path": "H:uwsgi_cache_path /tmp/$P keys_zone=p3:1m;",
	"scgi_cache_path": "H:scgi_cache_path /tmp/$P keys_zone=p4:1m;",

	"ssl_trusted_certificate": "S:ssl_trusted_certificate /tmp/$P.pem;", "ssl_client_certificate": "S:ssl_client_certificate /tmp/$P.pem;",
	"ssl_crl": "S:ssl_crl /tmp/$P.pem;", "ssl_dhparam": "S:ssl_dhparam /tmp/$P.pem;", "ssl_password_file": "S:ssl_password_file /tmp/$P;",
	"ssl_session_ticket_key": "S:ssl_session_ticket_key /tmp/$P.key;", "ssl_stapling_file": "S:ssl_stapling_file /tmp/$P.der;",
	"ssl_stapling_responder": "S:ssl_stapling_responder http://127.0.0.1/$P;", "ssl_ocsp_responder": "S:ssl_ocsp_responder http://127.0.0.1/$P;",
	"proxy_ssl_trusted_certificate": "L:proxy_ssl_trusted_certificate /tmp/$P.pem;", "proxy_ssl_crl": "L:proxy_ssl_crl /tmp/$P.pem;",
	"proxy_ssl_password_file": "L:proxy_ssl_password_file /tmp/$P;", "grpc_ssl_trusted_certificate": "L:grpc_ssl_trusted_certificate /tmp/$P.pem;",
	"grpc_ssl_crl": "L:grpc_ssl_crl /tmp/$P.pem;", "grpc_ssl_password_file": "L:grpc_ssl_password_file /tmp/$P;",
	"uwsgi_ssl_trusted_certificate": "L:uwsgi_ssl_trusted_certificate /tmp/$P.pem;", "uwsgi_ssl_crl": "L:uwsgi_ssl_crl /tmp/$P.pem;",
	"uwsgi_ssl_password_file": "L:uwsgi_ssl_password_file /tmp/$P;",

	"add_before_body": "L:add_before_body /$P;", "add_after_body": "L:add_after_body /$P;", "post_action": "L:post_action /$P;",
	"default_type": "L:default_type text/$P;", "fastcgi_index": "L:fastcgi_index $P.php;", "secure_link_secret": "L:secure_link_secret $P;",
	"userid_domain": "L:userid_domain $P.example.com;", "userid_path": "L:userid_path /$P;", "userid_name": "L:userid_name $P;",
}

// TestNonExpandingVariablesNginx has the real nginx confirm literalArgs:
// with an undefined variable in the argument, nginx must accept the
// configuration or fail on the literal text (opening "/tmp/$zzliteral.pem"),
// never say `unknown "..." variable`, which it would if it compiled the
// argument; and non-expanding-variable must report the variable.
func TestNonExpandingVariablesNginx(t *testing.T) {
	for name := range literalArgs {
		if _, ok := literalProbes[name]; !ok {
			t.Errorf("%s: no probe in literalProbes", name)
		}
	}
	if testing.Short() {
		t.Skip("runs nginx once per directive")
	}
	nginx := nginxtest.Require(t)
	reg, err := analyzer.NewRegistry(NonExpandingVariable)
	if err != nil {
		t.Fatal(err)
	}
	var (
		wg        sync.WaitGroup
		mu        sync.Mutex
		confirmed int
		sem       = make(chan struct{}, 2)
	)
	for name, probe := range literalProbes {
		body := strings.ReplaceAll(probe[2:], "$P", "$zzliteral")
		var conf string
		switch probe[:2] {
		case "M:":
			conf = body + "\nevents {}\nhttp {\n    access_log off;\n}\n"
		case "H:":
			conf = "events {}\nhttp {\n    access_log off;\n    " + body + "\n}\n"
		case "S:":
			conf = "events {}\nhttp {\n    access_log off;\n    server {\n        listen 127.0.0.1:18933;\n        " + body + "\n    }\n}\n"
		default:
			conf = "events {}\nhttp {\n    access_log off;\n    server {\n        listen 127.0.0.1:18933;\n        location / {\n            " + body + "\n        }\n    }\n}\n"
		}
		f := parser.ParseFile("/t/nginx.conf", []byte(conf), &parser.Options{Kinds: analyzer.Kinds})
		cfg := &parser.Config{Main: f, Files: []*parser.File{f}}
		found := false
		for _, d := range findings(cfg, reg, analyzer.Options{}) {
			found = found || strings.Contains(d.Message, `"$zzliteral" is taken literally`)
		}
		if !found {
			t.Errorf("%s: non-expanding-variable is silent on\n%s", name, conf)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			res, err := nginxtest.TestData(context.Background(), nginx, []byte(conf), nginxtest.Quiet())
			if err != nil {
				t.Error(err)
				return
			}
			literal := true
			for _, m := range res.Errors() {
				switch {
				case strings.Contains(m.Text, `unknown "zzliteral" variable`):
					t.Errorf("%s: nginx compiles the argument (%s): remove it from literalArgs", name, m.Text)
					return
				case strings.Contains(m.Text, "unknown directive"):
					t.Logf("%s: this nginx lacks the module (%s)", name, m.Text)
					return
				case !strings.Contains(m.Text, "$zzliteral") || !strings.Contains(m.Text, "failed"):
					// nginx stopped on something other than opening the
					// literal path, before it would have resolved the
					// variable: no verdict.
					literal = false
				}
			}
			if !literal {
				t.Errorf("%s: nginx's verdict is hidden by another error: %v", name, res.Errors())
				return
			}
			mu.Lock()
			confirmed++
			mu.Unlock()
		}()
	}
	wg.Wait()
	t.Logf("nginx takes %d of %d arguments literally", confirmed, len(literalProbes))
	if confirmed < len(literalProbes)-2 {
		t.Errorf("only %d of %d confirmed: the probes no longer reach nginx's parser", confirmed, len(literalProbes))
	}
}
