package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/internal/report"
)

const routeExample = `events {}
http {
    upstream backend { server 127.0.0.1:9000; server 127.0.0.1:9001; }
    server {
        listen 127.0.0.1:8080;
        server_name shop.example;
        root /nonexistent/shop;
        location / { try_files $uri $uri/ /index.php?$args; }
        location ~ \.php$ { fastcgi_pass unix:/run/php.sock; }
        location /api/ { proxy_pass http://backend; }
        location = /old { return 301 /new; }
        location /images/ { rewrite ^/images/(.*)$ /img/$1 last; }
        location /img/ { internal; alias /nonexistent/img/; }
    }
    server {
        listen 127.0.0.1:8080;
        server_name other.example;
        location / { return 200 "other $host"; }
    }
}
`

// TestRouteText: the text output names the server and location with
// their lines, each step of the chain, the handler and the upstream.
func TestRouteText(t *testing.T) {
	path := writeTemp(t, "nginx.conf", routeExample)
	code, out, errs := runCLI(t, "", "route", path, "http://shop.example:8080/api/v2/orders", "http://shop.example:8080/images/a.png",
		"http://shop.example:8080//a/../old?x=1", "http://other.example:8080/x")
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"GET http://shop.example:8080/api/v2/orders (on 127.0.0.1:8080)\n  server    shop.example (" + path + ":4)\n  location  /api/ (" + path + ":10)\n",
		"upstream backend (" + path + ":3): 127.0.0.1:9000, 127.0.0.1:9001",
		"  chain     /images/a.png in location /images/ (" + path + ":12)\n            -> rewrite: rewrite ^/images/(.*)$ /img/$1 last (" + path + ":12)\n            /img/a.png in location /img/ (" + path + ":13)\n",
		"  handler   404 (nginx's error page)\n  unsure    /nonexistent/img/ is not a directory on this machine: /nonexistent/img/a.png taken as missing\n",
		"  location  = /old (" + path + ":11)\n  handler   301 redirect to http://shop.example:8080/new\n",
		"  server    other.example (" + path + ":15)\n  location  / (" + path + ":18)\n  handler   200 with the text \"other other.example\"\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing\n%s\nin\n%s", want, out)
		}
	}
}

// TestRouteJSON: one object per URL with the server and location as
// file and line, the chain, the handler and what is unsure.
func TestRouteJSON(t *testing.T) {
	path := writeTemp(t, "nginx.conf", routeExample)
	code, out, errs := runCLI(t, "", "route", "--format", "json", "--header", "X-A: 1", path, "http://shop.example:8080/images/a.png", "http://nowhere.example:9999/")
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got []report.Route
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got) != 2 {
		t.Fatalf("%d answers:\n%s", len(got), out)
	}
	a := got[0]
	if a.Server == nil || a.Server.Line != 4 || a.Location == nil || a.Location.Line != 13 || a.Status != 404 || a.URI != "/img/a.png" {
		t.Errorf("answer %+v", a)
	}
	if len(a.Chain) != 2 || a.Chain[0].Directive == nil || a.Chain[0].Directive.Line != 12 || a.Chain[0].How != "rewrite" || a.Chain[1].Location.Line != 13 {
		t.Errorf("chain %+v", a.Chain)
	}
	if a.Handler.Kind != "error" || len(a.Unsure) != 1 {
		t.Errorf("handler %+v, unsure %q", a.Handler, a.Unsure)
	}
	if b := got[1]; b.Server != nil || b.Location != nil || b.Handler.Kind != "close" {
		t.Errorf("nothing listens on 9999, got %+v", b)
	}
}

// TestRouteUsage: a URL, header or address the command cannot read is
// a usage error (exit 3) that names it.
func TestRouteUsage(t *testing.T) {
	path := writeTemp(t, "nginx.conf", routeExample)
	for _, args := range [][]string{
		{"route", path, "ftp://x/"},
		{"route", path, "http://x:99999/"},
		{"route", "--header", "novalue", path, "http://x/"},
		{"route", "--local", "nowhere", path, "http://x/"},
		{"route", "--remote", "x", path, "http://x/"},
		{"route", "--root-map", "/a", path, "http://x/"},
	} {
		code, _, errs := runCLI(t, "", args...)
		if code != exitUsage || !strings.Contains(errs, "nginx-lint: ") {
			t.Errorf("%q: exit %d, stderr %q", args, code, errs)
		}
	}
	if code, _, errs := runCLI(t, "", "route", path+".missing", "http://x/"); code != exitError {
		t.Errorf("missing config: exit %d, stderr %q", code, errs)
	}
}

// TestRouteNotes: why nginx answers as it does (its code 497 answered
// as 400, a redirection cycle) is a note, in the text and the JSON, and
// nothing of it is unsure.
func TestRouteNotes(t *testing.T) {
	path := writeTemp(t, "nginx.conf", `events {}
http {
    server {
        listen 127.0.0.1:8080;
        location = /plain { return 497; }
        location /loop { rewrite ^ /loop last; }
    }
}
`)
	urls := []string{"http://x.example:8080/plain", "http://x.example:8080/loop"}
	code, out, errs := runCLI(t, "", append([]string{"route", path}, urls...)...)
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"  handler   400\n            by return 497 (" + path + ":5)\n  note      nginx answers its code 497, which no error_page 497 takes, as 400 with the page \"The plain HTTP request was sent to HTTPS port\"\n",
		"  handler   500 (nginx's error page)\n  note      rewrite or internal redirection cycle while processing \"/loop\"\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing\n%s\nin\n%s", want, out)
		}
	}
	if strings.Contains(out, "unsure") {
		t.Errorf("unsure in\n%s", out)
	}
	code, out, errs = runCLI(t, "", append([]string{"route", "--format", "json", path}, urls...)...)
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got []report.Route
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got) != 2 || got[0].Status != 400 || len(got[0].Notes) != 1 || len(got[0].Unsure) != 0 ||
		got[1].Status != 500 || len(got[1].Notes) != 1 || len(got[1].Unsure) != 0 {
		t.Errorf("answers:\n%s", out)
	}
}
