//go:build unix

package routing_test

import (
	"fmt"
	"net/netip"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// shapeLocations are the locations of every server of shapesConf (ID its
// name): the shapes users ask about that the random tests do not draw.
const shapeLocations = `
        location /d/ { }
        location ~ \.html$ { return 200 "ID html $uri $request_uri"; }
        location /s/ { alias ROOT/d/; }
        location ~ ^/rx/(?<dir>[^/]+)/(.*)$ { alias ROOT/$dir/$2; }
        location ~ ^/rx2/(.+)$ { alias ROOT/d/$1; }
        location /tf { try_files /nope $uri.txt @nm; }
        location @nm { rewrite ^ /landed$uri last; }
        location /landed { return 200 "ID landed $uri $args"; }
        location /ep1 { error_page 404 =200 /ep2; return 404; }
        location /ep2 { error_page 404 =200 /ep3?from=$uri; return 404; }
        location /ep5 { error_page 404 /ep2; return 404; }
        location /ep6 { error_page 403 404 =200 @ep6; try_files /nope =404; }
        location @ep6 { return 200 "ID ep6 $uri $status"; }
        location /ep7 { error_page 404 =301 /ep3; return 404; }
        location /ep8 { error_page 302 =200 /ep3; return 302 /x; }
        location /ep9 { error_page 404 = /st; return 404; }
        location /ep10 { error_page 404 /st; try_files /nope =404; }
        location /ep11 { error_page 497 /st; return 497; }
        location /st { set $before $status; return 200 "ID st $before $status $uri"; }
        location /st2 { return 302 /st2/$status; }
        location /st3 { error_page 302 = /st; return 302 /x; }
        location /ep3 { return 200 "ID ep3 $uri $args"; }
        location /epn { error_page 404 = @epn; return 404; }
        location @epn { error_page 404 /ep3; return 404; }
        location /loop { rewrite ^/loop(.*)$ /loop/x$1 last; }
        location /lp2 { rewrite ^ /lp3 last; }
        location /lp3 { rewrite ^ /lp2 last; }
        location /lp4 { rewrite "^/lp4(/x){3}$" /lp4done last; rewrite ^(.*)$ $1/x last; }
        location /lp4done { return 200 "ID lp4 $uri"; }
        location /u { rewrite ^/u(.*)$ /v$1; set $k "$uri|$request_uri|$document_uri|$args|$is_args"; return 200 "ID u $k"; }
        location /ua { rewrite ^/ua(.*)$ /v$1?r=$1; return 200 "ID ua $uri|$args|$arg_r|$request_uri"; }
        location /if {
            if ($arg_x = 1) { return 302 /to$uri; }
            if ($request_method = HEAD) { return 204; }
            if ($request_method = OPTIONS) { return 200 "ID if options"; }
            return 200 "ID if $request_method";
        }
        location /redir { return 301 /new; }
        location /redir2 { rewrite ^ /new2 redirect; }
        location /redir3 { rewrite ^/redir3(.*) /new3$1?a=b permanent; }
        location /px/ { proxy_pass http://127.0.0.1:1/; }
        location /m { return 200 "ID m $request_method $server_name $host $server_port"; }
        location /e/ { }
        location /abs { return 302 http://$host:8080/abs$is_args$args; }
        location /abs2 { rewrite ^ http://$server_name$uri? redirect; }
        location /abs3 { rewrite ^ https://example.com:8443$request_uri permanent; }
        location /al { alias ROOT/d; }
        location /alf { alias ROOT/f.txt; }
        location /tfd { try_files $uri $uri/ /index.html; }
        location /tfe { try_files /nope =404; error_page 404 /ep3; }
        location /ix { index $arg_i.html x.txt; alias ROOT/d/; }
        location = /exact { index index.html; root ROOT; }
        location ~* \.TXT$ { return 200 "ID TXT $uri"; }
        location ~ //x { return 200 "ID slashes $uri"; }
        location /rf { alias ROOT/d/; if ($request_filename ~ (x\.txt)$) { return 200 "ID rf $request_filename $1"; } }
        location /hu { if ($request_uri ~ ^/hu/(?<seg>[^/?]+)) { return 200 "ID hu $seg $uri"; } return 200 "ID hu none"; }
        location /int/ { internal; return 200 "ID int"; }
        location /toint { error_page 404 /int/x; return 404; }
        location /sl/ { proxy_pass http://127.0.0.1:1; }
`

// shapesConf has three servers on two loopback addresses, each the
// default server of one of them, with absolute redirects: the first with
// server_name_in_redirect and recursive_error_pages, the second with
// port_in_redirect off and (as the default server of 127.0.0.2)
// merge_slashes off for every request there.
const shapesConf = `
    server {
        listen 127.0.0.1:PORT default_server;
        listen 127.0.0.2:PORT;
        server_name a.example;
        root ROOT;
        absolute_redirect on;
        server_name_in_redirect on;
        recursive_error_pages on;
        index index.html;
        location / { return 200 "A / $uri|$request_uri"; }
LOCS_A
    }
    server {
        listen 127.0.0.2:PORT default_server;
        listen 127.0.0.1:PORT;
        server_name b.example;
        root ROOT;
        absolute_redirect on;
        port_in_redirect off;
        merge_slashes off;
        location / { return 200 "B / $uri|$request_uri"; }
LOCS_B
    }
    server {
        listen 127.0.0.1:PORT;
        listen 127.0.0.2:PORT;
        server_name c.example *.c.example;
        root ROOT;
        index nothere.html index.html;
        location / { return 200 "C / $uri|$request_uri"; }
LOCS_C
    }
`

// TestShapesAgainstNginx probes what people ask of a configuration and
// the random tests do not generate: try_files to a named location that
// rewrites, error_page chains with and without recursive_error_pages,
// rewrite cycles that hit nginx's limit of 10, alias with regex captures,
// index redirects, if with return by method, absolute redirects with
// server_name_in_redirect and port_in_redirect, merge_slashes off on
// another address's default server, percent-encoded and ".." paths,
// $uri after a rewrite, GET, HEAD, OPTIONS and POST, and default servers
// of two addresses with servers on both.
func TestShapesAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	root := makeSite(t)
	port := freePort(t)
	repl := strings.NewReplacer("PORT", fmt.Sprint(port), "ROOT", root,
		"LOCS_A", strings.ReplaceAll(shapeLocations, "ID", "A"),
		"LOCS_B", strings.ReplaceAll(shapeLocations, "ID", "B"),
		"LOCS_C", strings.ReplaceAll(shapeLocations, "ID", "C"))
	conf := head("") + strings.ReplaceAll(repl.Replace(shapesConf), "ROOT", root) + "}\n"
	probes := []string{"/", "/d", "/d/", "/d/x.txt", "/d//x.txt", "//d/x.txt", "/d/./x.txt", "/d/../f.txt", "/%64/x.txt",
		"/d/%2e%2e/f.txt", "/d%2fx.txt", "/d/x.txt?", "/..", "/d/..", "/a%20b?c=%20", "/index.html", "/s", "/s/", "/s/x.txt",
		"/rx/d/x.txt", "/rx/d/nope", "/rx/leaf0/f.txt", "/rx2/x.txt", "/rx2/index.html", "/rx2/%78.txt", "/tf?q=1", "/tf/x",
		"/ep1", "/ep1?z=1", "/epn", "/loop", "/lp2", "/lp4", "/u/a?b=1", "/u", "/ua/k", "/if?x=1", "/if", "/redir", "/redir2?z=1",
		"/redir3/p?q=1", "/px", "/px?x=1", "/m", "/e", "/e/", "/f.txt", "/d/x.txt/", "/ep5", "/ep6", "/ep7", "/ep8", "/abs?q=1",
		"/abs2/p", "/abs3?z", "/al/x.txt", "/alx.txt", "/al", "/alf", "/alf/x", "/tfd", "/tfd/", "/d/../tfd", "/tfe", "/ix/", "/ix/?i=index",
		"/ix/?i=nope", "/exact", "/d/X.TXT", "/d/x.TxT", "/a//x", "/a/%2Fx", "/rf/x.txt", "/rf/y", "/hu/%41b/c", "/hu//x", "/int/x", "/toint",
		"/sl", "/sl?x=1", "/d/x.txt%3F", "/%2e%2e/f.txt", "/d/%2E/x.txt", "/d/%zz", "/d/%00", "/d/a%2", "/ep9", "/ep10", "/ep11", "/st", "/st2", "/st3"}
	hosts := []string{"a.example", "b.example", "c.example", "x.c.example", "unknown.example", "", "B.EXAMPLE:99", "a.example."}
	addrs := []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("127.0.0.2")}
	n := runCase(t, ngx, routeCase{conf: conf, hosts: hosts, probes: probes, methods: []string{"GET", "HEAD", "OPTIONS", "POST"}, addrs: addrs}, port)
	t.Logf("%d probes agree with nginx", n)
}

// moreShapes are the server-level rewrite phase, nested and ^~
// locations with regexes, captures an if's regex leaves, try_files
// into a directory with an index, error_page cycles, methods nginx does
// not know or refuses.
const moreShapes = `
    server {
        listen 127.0.0.1:PORT;
        server_name m.example;
        root ROOT;
        rewrite ^/old/(.*)$ /new/$1;
        rewrite ^/brk/(.*)$ /d/$1 break;
        if ($arg_srv = stop) { return 418; }
        location /new/ { return 200 "new $uri $args"; }
        location /d/ { }
        location /p/ {
            location ~ \.txt$ { return 200 "p-txt $uri"; }
            location /p/q/ { return 200 "p-q $uri"; }
            return 200 "p $uri";
        }
        location ^~ /c/ {
            location ~ ^/c/(?<n>\d+)$ { return 200 "c-num $n"; }
            return 200 "c $uri";
        }
        location ~ ^/(leaf0|d)/[^/]*\.txt$ { alias ROOT; try_files $uri $uri/ =404; }
        location ~ \.txt$ { return 200 "txt $uri"; }
        location /ifcap { if ($uri ~ ^/ifcap/(\w+)) { rewrite ^ /new/$1? last; } return 200 "ifcap none"; }
        location /ifcap2 { rewrite ^/ifcap2/(\w+)$ /new/$1; if ($arg_a ~ (\d+)) { return 200 "ifcap2 $1 $uri"; } return 200 "ifcap2 $1"; }
        location /tfi { try_files /nope /d/ =404; }
        location /tfi2 { try_files $uri/ =404; alias ROOT/d; }
        location /cyc { recursive_error_pages on; error_page 404 /cyc2; return 404; }
        location /cyc2 { recursive_error_pages on; error_page 404 /cyc; return 404; }
        location /cyc3 { recursive_error_pages on; error_page 404 /cyc3/x; return 404; }
        location /nm { error_page 404 @nm; return 404; }
        location @nm { error_page 404 =200 /new/x; return 404; }
        location /rb { rewrite ^/rb(.*)$ /new$1 break; return 200 "rb $uri"; }
        location /rl { rewrite ^/rl(.*)$ /new$1; rewrite ^/new(.*)$ /newer$1 last; }
        location /newer { return 200 "newer $uri $args"; }
        location / { return 200 "root $uri"; }
        location = / { index index.html; }
        location = /index.html { return 200 "idx $uri $request_uri"; }
        location /post/ { alias ROOT/; error_page 405 =200 $uri; }
        location /vr/ { root ROOT/$arg_r; }
        location ~ ^/tn/(?<f>[^/]+)$ { root ROOT; try_files /d/$f /leaf0/$f =404; }
        location ~ ^/ar/(.*)$ { alias ROOT/d/$1; try_files $uri $uri/index.html =404; }
        location ~ ^/ar2/(.*)$ { alias ROOT/; try_files $1 /d/$1 =404; }
        location ~ ^/ard(/.*)?$ { alias ROOT; try_files $1/ /f.txt =404; }
        location ~ ^/na/(c)? { alias ROOT/d/$1; location ~ ^/na/ { } }
        location ~ ^/nb/ { alias ROOT/d/x.txt; location ~ \.z$ { } }
        location /hd { error_page 404 /new/hd; return 404; }
        location /svar { if ($srv_v) { return 200 "svar $srv_v"; } return 200 "svar none"; }
        set $srv_v $arg_sv;
    }
`

// TestMoreShapesAgainstNginx probes moreShapes with methods nginx knows,
// does not know, and refuses (lower case).
func TestMoreShapesAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	root := makeSite(t)
	port := freePort(t)
	conf := head("") + strings.NewReplacer("PORT", fmt.Sprint(port), "ROOT", root).Replace(moreShapes) + "}\n"
	probes := []string{"/old/a?x=1", "/old/", "/brk/x.txt", "/brk/nope", "/brk/", "/?srv=stop", "/d/?srv=stop", "/p/a", "/p/a.txt",
		"/p/q/a.txt", "/p/q/", "/c/12", "/c/12.txt", "/c/x", "/x.txt", "/ifcap/abc", "/ifcap/", "/ifcap2/abc?a=42", "/ifcap2/abc",
		"/ifcap2/a-b?a=x", "/tfi", "/tfi2/", "/tfi2", "/cyc", "/cyc3", "/nm", "/rb/a?q", "/rl/a?q=1", "/d", "/d/x.txt", "/", "/?a=1", "/post/f.txt",
		"/post/d/", "/post/nope", "/vr/x.txt?r=d", "/vr/x.txt", "/vr/f.txt?r=", "/tn/x.txt", "/tn/f.txt", "/tn/nope", "/ar/x.txt",
		"/ar/", "/ar/nope", "/ar2/d/x.txt", "/ar2/x.txt", "/ar2/f.txt", "/ar2/nope", "/ar2/d/", "/leaf0/f.txt", "/d/x.txt",
		"/leaf0/g.txt", "/ard/d", "/ard", "/ard/nope", "/na/", "/na/x", "/na/c", "/nb/a.z", "/nb/a.y", "/hd", "/svar?sv=1", "/svar"}
	n := runCase(t, ngx, routeCase{conf: conf, hosts: []string{"m.example"}, probes: probes,
		methods: []string{"GET", "HEAD", "POST", "PATCH", "PROPFIND", "FOO", "get", "G-T"}}, port)
	t.Logf("%d probes agree with nginx", n)
}

// redirectHosts are servers whose first name is a wildcard, a regex,
// empty or absent, with server_name_in_redirect on, on IPv4 and IPv6
// loopback: the host of an absolute Location (the name, the Host, the
// local address) as ngx_http_header_filter writes it.
const redirectHosts = `
    server_name_in_redirect on;
    server {
        listen 127.0.0.1:PORT default_server;
        listen [::1]:PORT default_server;
        server_name *.w.example w.example;
        location / { return 301 /to$uri; }
        location /d { root ROOT; }
        location /off { server_name_in_redirect off; return 302 /to; }
        location /np { port_in_redirect off; return 302 /to; }
    }
    server {
        listen 127.0.0.1:PORT;
        listen [::1]:PORT;
        server_name ~^(?<n>\w+)\.rx\.example$ rx.example;
        location / { return 301 /to$uri; }
        location /off { server_name_in_redirect off; return 302 /to; }
    }
    server {
        listen 127.0.0.1:PORT;
        listen [::1]:PORT;
        server_name "" e.example;
        location / { return 301 /to$uri; }
        location /off { server_name_in_redirect off; return 302 /to; }
    }
    server {
        listen 127.0.0.1:PORT;
        listen [::1]:PORT;
        server_name .dot.example;
        location / { return 301 /to$uri; }
    }
`

// TestRedirectHostsAgainstNginx: the absolute Location of a redirect by
// return and by the static module (a directory without its slash), for
// servers named by a wildcard, a regex, "" and ".domain", reached with
// Hosts of each, none, and with a port, on 127.0.0.1 and ::1.
func TestRedirectHostsAgainstNginx(t *testing.T) {
	ngx := nginxtest.Require(t)
	root := makeSite(t)
	port := freePort(t)
	conf := strings.Replace(head(""), "absolute_redirect off;", "absolute_redirect on;", 1) +
		strings.NewReplacer("PORT", fmt.Sprint(port), "ROOT", root).Replace(redirectHosts) + "}\n"
	probes := []string{"/", "/a?b=1", "/d", "/d?x", "/off", "/np"}
	hosts := []string{"w.example", "x.w.example", "ab.rx.example", "rx.example", "e.example", "", "x.dot.example", "dot.example",
		"W.Example:8080", "127.0.0.1", "[::1]", "[::1]:99"}
	addrs := []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("::1")}
	n := runCase(t, ngx, routeCase{conf: conf, hosts: hosts, probes: probes, addrs: addrs}, port)
	t.Logf("%d probes agree with nginx", n)
}
