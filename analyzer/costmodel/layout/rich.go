package layout

import (
	"fmt"
	"strings"
)

// Rich returns opts extended so that every server carries the constructs
// the lint rules look at: returns behind allow/deny, if, regex and
// prefix locations with captures, add_header at several levels, proxy_pass
// to variables, host names and upstreams, alias, ssl with weak and strong
// protocols, status pages, valid_referers, rewrite, set, error_page,
// suppression comments; and the http block gets one map and one geo per
// ten servers, upstreams, resolvers and logs. Rule benchmarks and the
// scaling test lint it, so a rule that is superlinear in any of these
// shows. The hook set in opts.Server, if any, runs after Rich's.
//
// The configuration is meant to be linted, not started: it names
// certificates and upstreams that do not exist.
func Rich(opts Options) Options {
	n := opts.N
	http := []string{
		"server_tokens on;",
		"add_header X-Content-Type-Options nosniff;",
		"allow 10.0.0.0/8;",
		"deny all;",
		"resolver 8.8.8.8;",
		"error_log off;",
		"ssl_protocols TLSv1 TLSv1.2;",
		"upstream backend { server 127.0.0.1:9000; server backend.example:9000; keepalive 16; }",
		"upstream static_pool { server 127.0.0.2:9000; }",
	}
	for m := 0; m < max(1, n/10); m++ {
		var b strings.Builder
		fmt.Fprintf(&b, "map $http_host $route_%d {", m)
		if m%2 == 0 {
			b.WriteString(" default 0;")
		}
		for j := range 10 {
			fmt.Fprintf(&b, " %s %d;", ServerName(m*10+j), j)
		}
		fmt.Fprintf(&b, " ~^(?<sub%d>[a-z]+)\\.example$ $sub%d; }", m, m)
		http = append(http, b.String())
		http = append(http, fmt.Sprintf("geo $trusted_%d { default 0; 10.%d.0.0/16 1; }", m, m%256))
	}
	opts.HTTP = append(http, opts.HTTP...)
	user := opts.Server
	opts.Server = func(s *Server) {
		richServer(s)
		if user != nil {
			user(s)
		}
	}
	return opts
}

// richServer fills one server with the constructs of Rich; which ones
// vary with the server's index so that rules see both sides.
func richServer(s *Server) {
	i := s.Index
	name := ServerName(i)
	l := []string{
		"root /srv/" + name + ";",
		"add_header X-Frame-Options DENY;",
		"location /health { return 200 ok; }",
		"location /internal { allow 10.0.0.0/8; deny all; return 200 \"secret\"; }",
		`location ~ ^/api/v(\d+)/(.*)$ { proxy_pass http://backend/$2; proxy_set_header Host $http_host; }`,
	}
	// The other constructs take turns, four per server, so that every
	// one appears in every stretch of servers without making each
	// server large.
	more := []string{
		"error_page 404 /404.html;",
		"location /admin { allow 192.168.0.0/16; add_header Cache-Control no-store; try_files $uri =404; }",
		`location ~* \.(png|jpg|gif)$ { add_header Content-Type image/png; expires 1d; }`,
		`location ~ /(a+)+b { return 404; }`,
		"location /static { alias /srv/static/; }",
		"location /files/ { alias /srv/files/; }",
		"location /out { proxy_pass http://$arg_target; }",
		"location /legacy { rewrite ^/legacy/(.*)$ /new/$1 permanent; rewrite ^/x/(.*)$ /y/$2 last; }",
		"location /img { valid_referers none blocked server_names; if ($invalid_referer) { return 403; } }",
		`location /cors { if ($http_origin ~ "example.com") { add_header Access-Control-Allow-Origin $http_origin; } }`,
		"location /set { set $x $arg_x; if ($x) { rewrite ^ /other; proxy_pass http://static_pool; } }",
		`location = /redirect { return 302 https://$host$request_uri; }`,
		"location /status { stub_status; }",
		"location /map { proxy_pass http://backend.example:8080/map/; proxy_set_header Host $host; }",
		"location /decoded/ { proxy_pass http://127.0.0.1:8000; }",
		`location /split { add_header X-Path $uri; return 200 "$uri"; }`,
	}
	for k := range 4 {
		l = append(l, more[(i*4+k)%len(more)])
	}
	if i%2 == 0 {
		s.ListenParams = append(s.ListenParams, "ssl")
		l = append(l, "ssl_certificate /etc/ssl/"+name+".pem;", "ssl_certificate_key /etc/ssl/"+name+".key;",
			"ssl_protocols TLSv1.2 TLSv1.3;", "ssl_ciphers HIGH:!aNULL:RC4;")
	}
	if i%3 == 0 {
		l = append(l, "# nginx-lint ignore=add-header-redefinition headers differ on purpose",
			"location /ignored { add_header X-Ignored 1; }",
			"# nginx-lint ignore=ssrf matches nothing here",
			"location /unused { root /srv/unused; }")
	}
	if i%5 == 0 {
		s.Names = append(s.Names, "~^www\\d*\\."+strings.ReplaceAll(name, ".", "\\.")+"$", "*."+name)
		l = append(l, "access_log /var/log/"+name+".log;", "access_log /var/log/"+name+".log;")
	}
	if i%7 == 0 {
		l = append(l, "ssl on;", "if ($request_method = POST) { return 405; }", "root /srv/twice;",
			"add_header X-Multi \"a\n b\";", "listen "+s.Listen+";")
	}
	s.Lines = append(s.Lines, l...)
}
