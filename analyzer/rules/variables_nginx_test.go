package rules_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// variableCases put an undefined variable ($VAR) into one argument of a
// directive. TestVariableDirectivesNginx asks nginx whether it compiles
// that argument (it then fails with unknown "..." variable) and requires
// unknown-variable to agree, so that the table of compiled arguments
// (compiledArgs) follows nginx and not a guess. "L:" cases sit in a
// location, "S:" in a server, "H:" in http.
var variableCases = []string{
	"L:set $a $VAR;", "L:return 200 $VAR;", "L:return 302 /$VAR;", "L:rewrite ^ /$VAR;", "L:root /tmp/$VAR;",
	"H:server { listen 127.0.0.1:18932; location /a/ { alias /tmp/$VAR/; } }", "L:try_files $VAR =404;",
	"L:index $VAR;", "L:error_page 404 /$VAR;", "L:add_header X $VAR;", "L:add_header $VAR x;", "L:add_trailer X $VAR;",
	"L:expires $VAR;", "L:proxy_pass http://127.0.0.1:1/$VAR;", "L:proxy_pass http://$VAR;", "L:fastcgi_pass $VAR;",
	"L:uwsgi_pass $VAR;", "L:scgi_pass $VAR;", "L:grpc_pass $VAR;", "L:memcached_pass $VAR;",
	"L:proxy_set_header X $VAR; proxy_pass http://127.0.0.1:1;", "L:proxy_set_header $VAR x; proxy_pass http://127.0.0.1:1;",
	"L:grpc_set_header X $VAR; grpc_pass 127.0.0.1:1;", "L:fastcgi_param X $VAR; fastcgi_pass 127.0.0.1:1;",
	"L:fastcgi_param $VAR x; fastcgi_pass 127.0.0.1:1;", "L:uwsgi_param X $VAR; uwsgi_pass 127.0.0.1:1;",
	"L:scgi_param X $VAR; scgi_pass 127.0.0.1:1;", "L:proxy_set_body $VAR; proxy_pass http://127.0.0.1:1;",
	"L:proxy_method $VAR; proxy_pass http://127.0.0.1:1;", "L:proxy_cache_key $VAR;", "L:fastcgi_cache_key $VAR;",
	"L:uwsgi_cache_key $VAR;", "L:scgi_cache_key $VAR;", "L:proxy_cache $VAR;", "L:fastcgi_cache $VAR;",
	"L:proxy_cache_bypass $VAR;", "L:proxy_no_cache $VAR;", "L:fastcgi_cache_bypass $VAR;", "L:fastcgi_no_cache $VAR;",
	"L:uwsgi_no_cache $VAR;", "L:scgi_no_cache $VAR;", "L:proxy_store /tmp/$VAR;", "L:fastcgi_store /tmp/$VAR;",
	"L:proxy_ssl_name $VAR;", "L:grpc_ssl_name $VAR;", "L:uwsgi_ssl_name $VAR;", "L:proxy_bind $VAR;",
	"L:fastcgi_bind $VAR;", "L:uwsgi_bind $VAR;", "L:scgi_bind $VAR;", "L:grpc_bind $VAR;", "L:memcached_bind $VAR;",
	"L:proxy_redirect / /$VAR;", "L:proxy_redirect /$VAR /;", "L:proxy_cookie_domain a $VAR;", "L:proxy_cookie_path a $VAR;",
	"H:limit_req_zone $VAR zone=z:1m rate=1r/s;", "H:limit_conn_zone $VAR zone=z:1m;", "L:limit_rate $VAR;",
	"L:limit_rate_after $VAR;", "L:auth_basic $VAR;", "L:auth_basic_user_file /tmp/$VAR;",
	"L:auth_request_set $x $VAR;", "L:secure_link $VAR;", "L:secure_link_md5 $VAR;", "L:sub_filter a $VAR;",
	"L:sub_filter $VAR a;", "H:upstream u { hash $VAR; server 127.0.0.1:1; }", "H:map $VAR $m { default 1; }",
	"H:map $host $m { default $VAR; }", "H:map $host $m { a $VAR; default 1; }", "H:split_clients $VAR $s { * x; }",
	"H:geo $VAR $g { default 1; }", "L:access_log /tmp/$VAR;", "L:access_log /tmp/x combined if=$VAR;",
	"H:log_format f $VAR;", "H:log_format f escape=json '${VAR}';", "L:if ($VAR) { return 204; }",
	"L:if ($VAR = a) { return 204; }", "L:if ($host = $VAR) { return 204; }", "L:if (-f /tmp/$VAR) { return 204; }",
	"L:if ($host ~ $VAR) { return 204; }", "S:ssl_certificate /tmp/$VAR; ssl_certificate_key /tmp/$VAR;",
	// Arguments nginx takes literally.
	"S:server_name $VAR;", "L:default_type $VAR;", "L:proxy_hide_header $VAR;", "L:proxy_pass_header $VAR;",
	"L:mirror /$VAR;", "S:error_log /tmp/$VAR;", "L:client_body_temp_path /tmp/$VAR;", "L:valid_referers $VAR;",
	"L:sub_filter_types $VAR;", "L:charset $VAR;", "L:ssi_types $VAR;", "L:proxy_temp_path /tmp/$VAR;",
	// stream {} ("U:") and a stream server ("T:"): the stream module's
	// own compiled arguments.
	"T:proxy_pass $VAR;", "T:proxy_upload_rate $VAR; proxy_pass 127.0.0.1:1;",
	"T:proxy_download_rate $VAR; proxy_pass 127.0.0.1:1;", "T:return $VAR;", "T:set $a $VAR; return 1;",
	"T:proxy_bind $VAR; proxy_pass 127.0.0.1:1;", "T:proxy_ssl_name $VAR; proxy_pass 127.0.0.1:1;",
	"U:map $VAR $m { default 1; }", "U:map $remote_addr $m { default $VAR; }", "U:split_clients $VAR $s { * x; }",
	"U:geo $VAR $g { default 1; }", "U:log_format f $VAR;", "U:limit_conn_zone $VAR zone=z:1m;",
	"T:access_log /tmp/$VAR basic; return x;", "T:proxy_ssl_certificate /tmp/$VAR; proxy_ssl_certificate_key /tmp/x; proxy_pass 127.0.0.1:1;",
	"T:proxy_timeout $VAR; proxy_pass 127.0.0.1:1;",
	"L:alias_placeholder_none;",
}

// TestVariableDirectivesNginx runs each variableCases config through nginx
// and through unknown-variable: the rule must report the variable exactly
// when nginx does.
func TestVariableDirectivesNginx(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nginx once per case")
	}
	nginx := nginxtest.Require(t)
	type result struct {
		conf          string
		nginxUnknown  bool
		otherError    string
		lintUnknown   bool
		lintOtherRule []string
	}
	results := make([]result, len(variableCases))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	info := nginxBuild(t, nginx)
	loads, _ := dynamicModules(info)
	streamLoad, stream := loads["stream"]
	if !stream {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true: the stream module is required (apt-get install libnginx-mod-stream)")
		}
		t.Log("no stream module: the stream cases are skipped")
	}
	for i, c := range variableCases {
		if strings.HasSuffix(c, "placeholder_none;") || !stream && (c[:2] == "T:" || c[:2] == "U:") {
			continue
		}
		v := fmt.Sprintf("zzv%d", i)
		body := strings.ReplaceAll(c[2:], "VAR", v)
		var conf string
		switch c[:2] {
		case "H:":
			conf = "events {}\nhttp {\n    access_log off;\n    " + body + "\n    server {\n        listen 127.0.0.1:18931;\n    }\n}\n"
		case "U:":
			conf = streamLoad + "events {}\nstream {\n    " + body + "\n    server {\n        listen 127.0.0.1:18931;\n        return x;\n    }\n}\n"
		case "T:":
			conf = streamLoad + "events {}\nstream {\n    log_format basic x;\n    server {\n        listen 127.0.0.1:18931;\n        " + body + "\n    }\n}\n"
		case "S:":
			conf = "events {}\nhttp {\n    access_log off;\n    server {\n        listen 127.0.0.1:18931;\n        " + body + "\n    }\n}\n"
		default:
			conf = "events {}\nhttp {\n    access_log off;\n    server {\n        listen 127.0.0.1:18931;\n        location / {\n            " + body + "\n        }\n    }\n}\n"
		}
		results[i].conf = conf
		f := parser.ParseFile("/t/nginx.conf", []byte(conf), &parser.Options{Kinds: analyzer.Kinds})
		cfg := &parser.Config{Main: f, Files: []*parser.File{f}}
		for _, d := range ruleFindings(cfg, rules.All(), analyzer.Options{}) {
			if d.Name == rules.UnknownVariable.Name && d.Message == `unknown "`+v+`" variable` {
				results[i].lintUnknown = true
			} else if d.Severity == parser.Error {
				results[i].lintOtherRule = append(results[i].lintOtherRule, d.Name+": "+d.Message)
			}
		}
		wg.Add(1)
		go func(i int, v string) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			res, err := nginxtest.TestData(context.Background(), nginx, []byte(results[i].conf), nginxtest.Quiet())
			if err != nil {
				t.Error(err)
				return
			}
			for _, m := range res.Errors() {
				if m.Text == `unknown "`+v+`" variable` {
					results[i].nginxUnknown = true
				} else {
					results[i].otherError = m.Text
				}
			}
		}(i, v)
	}
	wg.Wait()
	var compiled, literal int
	for i, r := range results {
		if r.conf == "" {
			continue
		}
		switch {
		case r.nginxUnknown != r.lintUnknown && r.otherError != "" && !r.nginxUnknown:
			// nginx stopped at another error first (an argument this
			// build rejects): the case says nothing about variables.
			t.Logf("%s: nginx: %s", variableCases[i], r.otherError)
		case r.nginxUnknown && !r.lintUnknown:
			t.Errorf("%s: nginx reports the unknown variable, unknown-variable does not", variableCases[i])
		case !r.nginxUnknown && r.lintUnknown:
			t.Errorf("%s: nginx accepts it, unknown-variable reports it", variableCases[i])
		case r.nginxUnknown:
			compiled++
		default:
			literal++
		}
	}
	t.Logf("%d cases: %d compiled and %d literal agree with nginx", len(variableCases)-1, compiled, literal)
	if compiled < 60 || literal < 10 {
		t.Errorf("too few cases agree: %d compiled, %d literal", compiled, literal)
	}
}
