package rules_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/buildinfo"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/valuecheck"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// handlerCase is the mutants of one custom set handler: values written
// from reading the handler's C (src/http/..., src/stream/...), each
// planned valid or invalid; the real nginx labels them, so a plan that
// is wrong costs only a mutant (and is logged).
type handlerCase struct {
	// ctx is the block the directive goes in.
	ctx directives.Context
	// pre is a line the mutants need in the family's top block (http,
	// stream or mail): a zone, a log format.
	pre string
	// good and bad are the argument strings after the directive's name.
	good, bad []string
	// by names the rule that reads the handler when valuecheck does not.
	by string
}

// httpBind and streamBind are the values of ngx_http_upstream_bind_set_slot
// and ngx_stream_proxy_bind: off, a variable, an address with an
// optional port, then optionally "transparent".
var bindCase = handlerCase{
	good: []string{"off", "127.0.0.1", "127.0.0.1:4000", "::1", "[::1]:4000", "$server_addr", "127.0.0.1 transparent"},
	bad:  []string{"localhost", "127.0.0.1 bogus", "off transparent", "127.0.0.1:0", "256.1.1.1", "10.0.0.0/8", "[::1]", "127.0.0.1:65536"},
}

var cacheValidCase = handlerCase{
	ctx:  directives.Location,
	good: []string{"10m", "200 302 10m", "any 1m", "404 1h", "599 1s", "100 1d"},
	bad:  []string{"99 10m", "600 1m", "200 10x", "abc 1m", "200 302 1ms", "200 -1"},
}

var sslSessionCacheCase = handlerCase{
	good: []string{"off", "none", "builtin", "builtin:1000", "shared:S:1m", "builtin shared:S:10m", "shared:S:32k"},
	bad:  []string{"shared:S", "shared::1m", "shared:S:10k", "builtin:x", "bogus", "shared:S:1x", "builtin:", "Builtin"},
}

var accessRuleCase = handlerCase{
	good: []string{"10.0.0.0/8", "all", "unix:", "::1", "2001:db8::/32", "10.0.0.1/8", "10.0.0.1", "0.0.0.0/0"},
	bad:  []string{"10.0.0.0/33", "::1/129", "localhost", "10.0.0/8", "10.0.0.0/x", "ALL", "10.0.0.0/"},
}

var paramCase = handlerCase{
	ctx:  directives.Location,
	good: []string{"A b", "A $uri if_not_empty"},
	bad:  []string{"A b bogus", "A b If_not_empty"},
}

var passCase = handlerCase{
	ctx: directives.Location, by: "invalid-url",
	good: []string{"127.0.0.1:9", "u", "unix:/tmp/x.sock", "$host:9"},
	bad:  []string{"127.0.0.1:99999", "http://127.0.0.1:9", "unix:", "127.0.0.1:0", "[::1"},
}

// cachePathCase writes its cache under the test's prefix (nginx -t
// creates the directory).
var cachePathCase = handlerCase{
	by: "invalid-zone",
	good: []string{"c keys_zone=k:1m", "c levels=1:2 keys_zone=k:10m inactive=1h max_size=1g use_temp_path=off",
		"c keys_zone=k:1m levels=2:2:2 loader_files=100 loader_sleep=50ms manager_threshold=200", "c keys_zone=k:1m min_free=1m levels="},
	bad: []string{"c", "c keys_zone=k", "c keys_zone=k:4k", "c keys_zone=k:1x", "c keys_zone=k:1m levels=3", "c keys_zone=k:1m levels=1:2:2:2",
		"c keys_zone=k:1m levels=1:", "c keys_zone=k:1m use_temp_path=yes", "c keys_zone=k:1m inactive=x", "c keys_zone=k:1m max_size=1t",
		"c keys_zone=k:1m bogus", "c keys_zone=:1m", "c keys_zone=k:1m loader_sleep=1y", "c keys_zone=k:1m levels=0"},
}

var complexSizeCase = handlerCase{
	ctx:  directives.Location,
	good: []string{"0", "512k", "1m", "$arg_rate"},
	bad:  []string{"1x", "1g", "-1", "1.5m"},
}

var streamSizeCase = handlerCase{
	good: []string{"0", "512k", "$remote_port"},
	bad:  []string{"1x", "1g"},
}

var rootCase = handlerCase{
	ctx:  directives.Location,
	good: []string{"/tmp", "/tmp/$host", "/srv/document_root"},
	bad:  []string{"$document_root/x", `"/x${realpath_root}"`, "$realpath_root", "$document_root_x"},
}

var errorLogCase = handlerCase{
	good: []string{"/dev/null", "/dev/null warn", "/dev/null debug", "/dev/null debug_http debug_core", "stderr info"},
	bad:  []string{"/dev/null bogus", "/dev/null warn error", "/dev/null warn debug_http", "/dev/null debug_http warn", "/dev/null WARN"},
}

var openLogFileCacheCase = handlerCase{
	good: []string{"off", "max=1000 inactive=20s valid=1m min_uses=2", "max=10"},
	bad:  []string{"max=x", "inactive=20s", "max=10 bogus", "max=10 valid=1x", "max=10 min_uses=x", "max=0"},
}

var realIPFromCase = handlerCase{
	good: []string{"10.0.0.0/8", "unix:", "::1", "2001:db8::/32", "10.0.0.1/8", "127.0.0.1"},
	bad:  []string{"10.0.0.0/33", "::1/129", "10.0.0.0/x", "10.0.0.0/"},
}

// handlerCases are the custom handlers the differential reads, by
// "family:directive".
var handlerCases = map[string]handlerCase{
	"http:proxy_bind": bindCase, "http:fastcgi_bind": bindCase, "http:uwsgi_bind": bindCase,
	"http:scgi_bind": bindCase, "http:grpc_bind": bindCase, "http:memcached_bind": bindCase,
	"stream:proxy_bind":      bindCase,
	"http:proxy_cache_valid": cacheValidCase, "http:fastcgi_cache_valid": cacheValidCase,
	"http:uwsgi_cache_valid": cacheValidCase, "http:scgi_cache_valid": cacheValidCase,
	"http:open_file_cache": {
		good: []string{"off", "max=1000 inactive=20s", "max=10"},
		bad:  []string{"max=0 inactive=20s", "inactive=20s", "max=x", "max=10 bogus", "max=10 inactive=1ms", "max=-1"},
	},
	"http:ssl_session_cache": sslSessionCacheCase, "stream:ssl_session_cache": sslSessionCacheCase,
	"mail:ssl_session_cache": sslSessionCacheCase,
	"http:limit_req": {
		ctx: directives.Location, pre: "limit_req_zone $binary_remote_addr zone=one:1m rate=1r/s;",
		good: []string{"zone=one", "zone=one burst=5 nodelay", "zone=one burst=5 delay=2"},
		bad:  []string{"zone=one burst=0", "zone=one burst=x", "zone=one delay=0", "zone=one bogus", "burst=5", "zone=one Nodelay"},
	},
	"http:limit_conn": {
		ctx: directives.Location, pre: "limit_conn_zone $binary_remote_addr zone=addr:1m;",
		good: []string{"addr 10", "addr 65535", "addr 1"},
		bad:  []string{"addr 0", "addr x", "addr 65536", "addr -1"},
	},
	"stream:limit_conn": {
		pre:  "limit_conn_zone $binary_remote_addr zone=addr:1m;",
		good: []string{"addr 10", "addr 65535"},
		bad:  []string{"addr 0", "addr x", "addr 65536"},
	},
	"http:access_log": {
		ctx: directives.Location,
		good: []string{"off", "/dev/null", "/dev/null combined buffer=32k flush=5s", "/dev/null combined gzip",
			"/dev/null combined gzip=9", "/dev/null combined if=$arg_x", "/dev/null combined buffer=1m gzip=1 flush=1m"},
		bad: []string{"off combined", "/dev/null combined buffer=0", "/dev/null combined buffer=x", "/dev/null combined flush=5s",
			"/dev/null combined gzip=10", "/dev/null combined bogus", "/dev/$host.log combined buffer=32k",
			"syslog:server=127.0.0.1 combined buffer=32k", "/dev/null combined gzip=0", "/dev/null combined buffer=32k flush=0"},
	},
	"stream:access_log": {
		pre:  "log_format basic '$remote_addr';",
		good: []string{"off", "/dev/null basic", "/dev/null basic buffer=32k flush=5s", "/dev/null basic gzip=5", "/dev/null basic if=$remote_addr"},
		bad:  []string{"off basic", "/dev/null basic buffer=0", "/dev/null basic flush=5s", "/dev/null basic gzip=10", "/dev/null basic bogus"},
	},
	"http:expires": {
		ctx:  directives.Location,
		good: []string{"epoch", "max", "off", "1h", "-1", "@18h30m", "modified 1h", "$arg_e", "+1d", "modified -1h"},
		bad:  []string{"bogus", "@25h", "modified @1h", "modified epoch", "bogus 1h", "1h1h", "+", "1ms", "EPOCH"},
	},
	"http:keepalive_timeout": {
		ctx:  directives.Location,
		good: []string{"65", "65 60", "500ms", "0", "1m 1m"},
		bad:  []string{"65x", "65 500ms", "1y", "65 6x", "-1"},
	},
	"http:location": {
		ctx:  directives.Server,
		good: []string{"= /x {}", `~* \.php$ {}`, "^~ /x {}", "@n {}", "~ ^/x {}"},
		bad:  []string{"bogus /x {}", "=~ /x {}", "~~ /x {}", "^ /x {}", "* /x {}"},
	},
	"http:allow": accessRuleCase, "http:deny": accessRuleCase,
	"stream:allow": accessRuleCase, "stream:deny": accessRuleCase,
	"core:use": {
		good: []string{"epoll"},
		bad:  []string{"kqueue", "select", "poll", "bogus", "/dev/poll", "eventport", "EPOLL"},
	},
	"core:worker_processes": {good: []string{"auto", "2", "02"}, bad: []string{"x", "-1", "Auto", "2k"}},
	"core:worker_priority":  {good: []string{"-5", "+5", "0", "10"}, bad: []string{"x", "--5", "5x", "-"}},
	"core:worker_connections": {
		good: []string{"512", "1024"},
		bad:  []string{"x", "-1", "1k"},
	},
	"core:error_log":           errorLogCase,
	"http:open_log_file_cache": openLogFileCacheCase, "stream:open_log_file_cache": openLogFileCacheCase,
	"http:userid_expires": {
		ctx:  directives.Location,
		good: []string{"max", "off", "365d", "1h30m"},
		bad:  []string{"bogus", "1x", "500ms", "-1"},
	},
	"http:userid_mark": {
		ctx:  directives.Location,
		good: []string{"off", "a", "Z", "5", "="},
		bad:  []string{"ab", "-", "", "Off"},
	},
	"http:directio": {
		ctx:  directives.Location,
		good: []string{"off", "4m", "1g", "512"},
		bad:  []string{"x", "1t", "on", "4mb"},
	},
	"http:keepalive": {
		ctx:  directives.Upstream,
		good: []string{"16", "1"},
		bad:  []string{"0", "x", "-1"},
	},
	"http:hash": {
		ctx:  directives.Upstream,
		good: []string{"$remote_addr", "$remote_addr consistent"},
		bad:  []string{"$remote_addr bogus", "$remote_addr Consistent"},
	},
	"stream:hash": {
		ctx:  directives.StreamUpstream,
		good: []string{"$remote_addr", "$remote_addr consistent"},
		bad:  []string{"$remote_addr bogus", "$remote_addr Consistent"},
	},
	"http:random": {
		ctx:  directives.Upstream,
		good: []string{"two", "two least_conn"},
		bad:  []string{"bogus", "two bogus", "Two", "two least_time=connect"},
	},
	"stream:random": {
		ctx:  directives.StreamUpstream,
		good: []string{"two", "two least_conn"},
		bad:  []string{"bogus", "two bogus", "Two"},
	},
	"http:set_real_ip_from": realIPFromCase, "stream:set_real_ip_from": realIPFromCase,
	"mail:set_real_ip_from": realIPFromCase,
	"http:listen": {
		ctx: directives.Server, by: "invalid-parameter",
		good: []string{"127.0.0.3:8081", "127.0.0.3:8082 backlog=10", "[::1]:8083", "127.0.0.3:8084 reuseport", "unix:/tmp/x.sock"},
		bad:  []string{"127.0.0.1:8o", "127.0.0.1:70000", "127.0.0.1:80 bogus", "127.0.0.1:80 backlog=x", "127.0.0.1:80 so_keepalive=x", "127.0.0.1:80 ipv6only=on"},
	},
	"stream:listen": {
		ctx: directives.StreamServer, by: "invalid-parameter",
		good: []string{"127.0.0.3:8081", "127.0.0.3:8082 udp", "127.0.0.3:8083 backlog=10"},
		bad:  []string{"127.0.0.1:8o", "127.0.0.1:70000", "127.0.0.1:80 bogus", "127.0.0.1:80 udp backlog=10", "127.0.0.1:80 http2"},
	},
	"http:server": {
		ctx: directives.Upstream, by: "invalid-parameter",
		good: []string{"127.0.0.1:10 weight=2", "127.0.0.1:11 max_fails=3 fail_timeout=10s", "127.0.0.1:12 backup", "127.0.0.1:13 down", "127.0.0.1:14 max_conns=10"},
		bad:  []string{"127.0.0.1:14 weight=0", "127.0.0.1:15 bogus", "127.0.0.1:16 max_fails=x", "127.0.0.1:17 fail_timeout=1x", "127.0.0.1:99999", "http://127.0.0.1", "127.0.0.1:18 weight=x", "127.0.0.1:19 slow_start=10s"},
	},
	"stream:server": {
		ctx: directives.StreamUpstream, by: "invalid-parameter",
		good: []string{"127.0.0.1:10 weight=2", "127.0.0.1:12 backup", "127.0.0.1:13 max_fails=0"},
		bad:  []string{"127.0.0.1:14 weight=0", "127.0.0.1:15 bogus", "127.0.0.1", "127.0.0.1:99999", "127.0.0.1:16 fail_timeout=x"},
	},
	"http:resolver": {
		ctx: directives.Server, by: "invalid-parameter",
		good: []string{"127.0.0.1", "127.0.0.1 valid=30s", "[::1]:53 ipv6=off", "127.0.0.1:5353"},
		bad:  []string{"127.0.0.1 valid=x", "127.0.0.1 ipv6=no", "127.0.0.1:99999", "127.0.0.1 ipv6=off ipv4=off"},
	},
	"http:return": {
		ctx: directives.Location, by: "invalid-status",
		good: []string{"200", "301 /x", "https://example.com", "404 no", "999"},
		bad:  []string{"99", "1000", "x y", "-1", "301x /x"},
	},
	"http:rewrite": {
		ctx: directives.Location, by: "invalid-parameter",
		good: []string{"^/x /y last", "^/x /y", "^/x /y permanent"},
		bad:  []string{"^/x /y bogus", "^/x /y Last"},
	},
	"http:add_header": {
		ctx: directives.Location, by: "invalid-parameter",
		good: []string{"X-A b always", "X-A b"},
		bad:  []string{"X-A b bogus", "X-A b Always"},
	},
	"http:limit_req_zone": {
		ctx: directives.HTTP, by: "invalid-zone",
		good: []string{"$binary_remote_addr zone=z:1m rate=1r/s", "$binary_remote_addr zone=z:1m rate=30r/m"},
		bad: []string{"$binary_remote_addr zone=z:1m rate=x", "$binary_remote_addr zone=z rate=1r/s", "$binary_remote_addr zone=z:1x rate=1r/s",
			"$binary_remote_addr rate=1r/s", "$binary_remote_addr zone=z:1m rate=1r/s bogus", "$binary_remote_addr zone=z:1m rate=0r/s", "$binary_remote_addr zone=z:1k rate=1r/s"},
	},
	"http:limit_conn_zone": {
		ctx: directives.HTTP, by: "invalid-zone",
		good: []string{"$binary_remote_addr zone=c:1m"},
		bad:  []string{"$binary_remote_addr zone=c", "$binary_remote_addr zone=c:1x", "$binary_remote_addr zone=c:1k", "$binary_remote_addr", "$binary_remote_addr zone=c:1m bogus"},
	},
	"http:error_page": {
		ctx: directives.Location, by: "invalid-status",
		good: []string{"404 /x", "404 =200 /x", "500 502 = /x", "404 =301 http://example.com/", "404 @n"},
		bad:  []string{"99 /x", "404 =x /x", "600 /x", "x /x", "404 =99 /x"},
	},
	"http:try_files": {
		ctx:  directives.Location,
		good: []string{"$uri /x", "$uri =404", "$uri @n"},
		bad:  []string{"$uri =99", "$uri =x", "$uri =1000"},
	},
	"http:proxy_pass": {
		ctx: directives.Location, by: "invalid-url",
		good: []string{"http://127.0.0.1:9", "http://u", "http://$host", "https://127.0.0.1:9/x", "http://unix:/tmp/x.sock"},
		bad:  []string{"127.0.0.1:9", "http://127.0.0.1:99999", "ftp://x", "http://", "http://[::1"},
	},
	"http:aio": {
		ctx:  directives.Location,
		good: []string{"off", "on", "threads", "threads=default"},
		bad:  []string{"bogus", "On", "threadsx", "sendfile"},
	},
	"http:disable_symlinks": {
		ctx:  directives.Location,
		good: []string{"off", "on", "if_not_owner", "on from=$document_root", "if_not_owner from=/x"},
		bad:  []string{"bogus", "on off", "off from=/x", "from=/x", "On", "on bogus"},
	},
	"http:limit_except": {
		ctx:  directives.Location,
		good: []string{"GET {}", "get post {}", "PATCH PROPFIND {}"},
		bad:  []string{"BOGUS {}", "GET TRACE {}", "CONNECT {}"},
	},
	"core:thread_pool": {
		good: []string{"p threads=4", "p threads=4 max_queue=100", "p threads=2 bogus"},
		bad:  []string{"p", "p threads=0", "p threads=x", "p threads=4 max_queue=x", "p max_queue=10"},
	},
	"http:fastcgi_param": paramCase, "http:scgi_param": paramCase, "http:uwsgi_param": paramCase,
	"http:zone": {
		ctx:  directives.Upstream,
		good: []string{"z 64k", "z 1m"},
		bad:  []string{"z 1x", "z 16k", `"" 64k`, "z -1", "z"},
	},
	"stream:zone": {
		ctx:  directives.StreamUpstream,
		good: []string{"z 64k"},
		bad:  []string{"z 1x", "z 16k", "z"},
	},
	"core:worker_cpu_affinity": {
		good: []string{"auto", "auto 01", "01 10", "0001", `"0 1"`},
		bad:  []string{"auto 01 10", "012", "x1", "0b01", "auto x"},
	},
	"http:ssl_ocsp_cache": {
		good: []string{"off", "shared:O:1m", "shared:O:32k"},
		bad:  []string{"shared:O", "shared::1m", "shared:O:16k", "bogus", "shared:O:1x", "builtin"},
	},
	"http:proxy_redirect": {
		ctx: directives.Location,
		// "default" before proxy_pass is a check after the handler
		// (issue 18's item 3), not the handler's.
		good: []string{"off", "http://a/ /", "~^/x /y"},
		bad:  []string{"bogus", "Off", "on"},
	},
	"mail:starttls": {
		ctx:  directives.MailServer,
		good: []string{"off"},
		bad:  []string{"bogus", "yes", "Only"},
	},
	"http:fastcgi_pass": passCase, "http:uwsgi_pass": passCase, "http:scgi_pass": passCase,
	"http:memcached_pass": {
		// The module needs $memcached_key set; nginx 1.22's
		// memcached_pass takes no variables ($host is a host name).
		ctx:  directives.Location,
		good: []string{"127.0.0.1:9; set $memcached_key $uri", "u; set $memcached_key $uri", "unix:/tmp/x.sock; set $memcached_key $uri"},
		bad:  []string{"127.0.0.1:99999; set $memcached_key $uri", "http://127.0.0.1:9; set $memcached_key $uri", "$host:9; set $memcached_key $uri", "unix:; set $memcached_key $uri"},
	},
	"http:grpc_pass": {
		ctx: directives.Location, by: "invalid-url",
		good: []string{"127.0.0.1:9", "grpc://127.0.0.1:9", "grpcs://u", "u"},
		bad:  []string{"127.0.0.1:99999", "http://127.0.0.1:9", "grpc://", "grpc://[::1"},
	},
	"stream:proxy_pass": {
		ctx: directives.StreamServer, by: "invalid-url",
		good: []string{"127.0.0.1:9", "su", "$remote_addr:9", "unix:/tmp/x.sock"},
		bad:  []string{"127.0.0.1:99999", "http://127.0.0.1:9", "127.0.0.1:9/x", "unix:"},
	},
	"http:proxy_cache_path": cachePathCase, "http:fastcgi_cache_path": cachePathCase,
	"http:scgi_cache_path": cachePathCase, "http:uwsgi_cache_path": cachePathCase,
	"http:limit_rate": complexSizeCase, "http:limit_rate_after": complexSizeCase,
	"http:proxy_limit_rate": complexSizeCase, "http:fastcgi_limit_rate": complexSizeCase,
	"http:scgi_limit_rate": complexSizeCase, "http:uwsgi_limit_rate": complexSizeCase,
	"stream:proxy_upload_rate": streamSizeCase, "stream:proxy_download_rate": streamSizeCase,
	"http:index": {
		ctx:  directives.Location,
		good: []string{"index.html", "a.html /b.html", "$arg_i.html b", "/a.html b.html"},
		bad:  []string{`a ""`, `""`},
	},
	"http:root":  rootCase,
	"http:alias": rootCase,
	"http:proxy_cookie_domain": {
		ctx:  directives.Location,
		good: []string{"off", "a b", "~\\.a b"},
		bad:  []string{"a", "Off"},
	},
	"http:proxy_cookie_path": {
		ctx:  directives.Location,
		good: []string{"off", "/a /b"},
		bad:  []string{"/a", "none"},
	},
	"http:proxy_cookie_flags": {
		ctx:  directives.Location,
		good: []string{"off", "one secure", "~^a httponly samesite=lax", "one bogus"},
		bad:  []string{"one", "OFF"},
	},
	"http:modern_browser": {
		ctx:  directives.Location,
		good: []string{"unlisted", "msie 6.0", "Gecko 1.0.1", "konqueror 3"},
		bad:  []string{"chrome 100", "msie 6.0b", "opera -1"},
	},
	"core:debug_connection": {
		ctx:  directives.Events,
		good: []string{"127.0.0.1", "10.0.0.0/8", "unix:", "::1", "10.0.0.1/8"},
		bad:  []string{"10.0.0.0/33", "::1/129", "10.0.0.0/x"},
	},
	// Handlers that take any word here (their variables are the
	// variable rules'): the mutants count what nginx accepts.
	"http:add_trailer":      {ctx: directives.Location, by: "invalid-parameter", good: []string{"X a", "X a always"}, bad: []string{"X a bogus"}},
	"http:gzip_types":       {ctx: directives.Location, by: "-", good: []string{"text/plain", "*", "application/json text/css"}},
	"http:ssi_types":        {ctx: directives.Location, by: "-", good: []string{"text/plain", "*"}},
	"http:addition_types":   {ctx: directives.Location, by: "-", good: []string{"text/plain", "*"}},
	"http:sub_filter_types": {ctx: directives.Location, by: "-", good: []string{"text/plain", "*"}},
	"http:sub_filter":       {ctx: directives.Location, by: "-", good: []string{"a b", "$host x"}},
	"http:auth_basic":       {ctx: directives.Location, by: "-", good: []string{"off", "Realm", `"realm $host"`}},
	"http:auth_request":     {ctx: directives.Location, by: "-", good: []string{"off", "/auth"}},
	"http:mirror":           {ctx: directives.Location, by: "-", good: []string{"off", "/m"}},
	"http:proxy_cache_key":  {ctx: directives.Location, by: "-", good: []string{"$uri", "$scheme$host$request_uri"}},
	"http:proxy_store":      {ctx: directives.Location, by: "-", good: []string{"on", "off", "/tmp$uri"}},
	"http:proxy_method":     {ctx: directives.Location, by: "-", good: []string{"GET", "$request_method"}},
	"http:real_ip_header":   {ctx: directives.Location, by: "-", good: []string{"X-Real-IP", "proxy_protocol"}},
	"http:secure_link":      {ctx: directives.Location, by: "-", good: []string{"$arg_md5,$arg_expires"}},
	"http:secure_link_md5":  {ctx: directives.Location, by: "-", good: []string{`"$uri secret"`}},
	// gzip_disable's regexes are not among those regex-syntax compiles
	// (that list, symbols.RegexDirectives, is the lead's): good values only.
	"http:gzip_disable":            {ctx: directives.Location, by: "-", good: []string{"msie6", `"MSIE [1-6]\."`}},
	"http:fastcgi_split_path_info": {ctx: directives.Location, by: "regex-syntax", good: []string{`^(.+\.php)(/.+)$`}, bad: []string{"(", "^(.+"}},
	"http:stub_status":             {ctx: directives.Location, by: "-", good: []string{""}},
	"http:empty_gif":               {ctx: directives.Location, by: "-", good: []string{""}},
	"http:internal":                {ctx: directives.Location, by: "-", good: []string{""}},
	"http:ip_hash":                 {ctx: directives.Upstream, by: "-", good: []string{""}},
	"http:least_conn":              {ctx: directives.Upstream, by: "-", good: []string{""}},
	"stream:least_conn":            {ctx: directives.StreamUpstream, by: "-", good: []string{""}},
	"core:env":                     {by: "-", good: []string{"A", "A=b", "TZ"}},
	"http:split_clients": {
		ctx: directives.HTTP, by: "invalid-entry",
		good: []string{"$remote_addr $sc { 50% a; * b; }", "$remote_addr $sc { 0.5% a; 99.5% b; }", "$remote_addr $sc { 100% a; }"},
		bad:  []string{"$remote_addr $sc { 50x a; }", "$remote_addr $sc { 60% a; 50% b; }", "$remote_addr $sc { 1.234% a; }"},
	},
	"stream:split_clients": {
		ctx: directives.Stream, by: "invalid-entry",
		good: []string{"$remote_addr $sc { 50% a; * b; }"},
		bad:  []string{"$remote_addr $sc { 50x a; }", "$remote_addr $sc { 60% a; 50% b; }"},
	},
	"stream:resolver": {
		ctx: directives.StreamServer, by: "invalid-parameter",
		good: []string{"127.0.0.1", "127.0.0.1 valid=30s", "[::1]:53 ipv6=off"},
		bad:  []string{"127.0.0.1 valid=x", "127.0.0.1 ipv6=no", "127.0.0.1:99999"},
	},
	"mail:resolver": {
		ctx: directives.MailServer, by: "invalid-parameter",
		good: []string{"127.0.0.1", "off", "127.0.0.1 valid=30s"},
		bad:  []string{"127.0.0.1 valid=x", "127.0.0.1:99999", "127.0.0.1 ipv6=no"},
	},
	"mail:listen": {
		ctx: directives.MailServer, by: "invalid-parameter",
		good: []string{"127.0.0.3:8025", "127.0.0.3:8026 backlog=10"},
		bad:  []string{"127.0.0.1:8o", "127.0.0.1:70000", "127.0.0.1:25 bogus", "127.0.0.1:25 udp"},
	},
	"mail:auth_http": {
		ctx:  directives.MailServer,
		good: []string{"127.0.0.1:9/auth", "http://127.0.0.1:9/auth", "unix:/tmp/a.sock"},
		bad:  []string{"127.0.0.1:99999", "https://127.0.0.1/auth", "unix:"},
	},
	"stream:return": {ctx: directives.StreamServer, by: "-", good: []string{"x", "$remote_addr"}},
	"http:log_format": {
		ctx:  directives.HTTP,
		good: []string{"lf '$remote_addr'", "lf escape=json '$remote_addr'", "lf escape=none $status", "lf escape=default x"},
		bad:  []string{"lf escape=xml '$remote_addr'", "lf escape= x", "lf escape=JSON x"},
	},
	"stream:log_format": {
		ctx:  directives.Stream,
		good: []string{"lf '$remote_addr'", "lf escape=json '$remote_addr'"},
		bad:  []string{"lf escape=xml '$remote_addr'"},
	},
	"mail:protocol": {
		good: []string{"smtp", "imap", "pop3"},
		bad:  []string{"bogus", "SMTP", "http"},
	},
}

// TestHandlerParity is the differential test of the custom set
// handlers (issue 18, item 6; named without an "x" so that the benchmark
// command's -run x skips it): for every custom-handler command of the
// local nginx build that handlerCases covers, it writes configs with the
// directive's arguments replaced by the table's values, runs nginx -t on
// each and lints each for that build. Where nginx stops with an error we
// must report an NL2xxx error at nginx's line (a warning is not a
// match); where nginx accepts the config, no NL2xxx error at all. It
// also checks that the table and valuecheck.CheckCustom cover the same
// handlers, and logs how many of the build's custom commands they cover.
func TestHandlerParity(t *testing.T) {
	if testing.Short() {
		t.Skip("runs nginx a few hundred times")
	}
	nginx := nginxtest.Require(t)
	info := nginxBuild(t, nginx)
	loads, loaded := dynamicModules(info)
	info = loaded
	if _, ok := loads["stream"]; !ok && os.Getenv("CI") == "true" {
		t.Fatal("CI=true: the dynamic stream and mail modules are required (apt-get install libnginx-mod-stream libnginx-mod-mail)")
	}
	opts := analyzer.Options{Target: analyzer.BuildTarget(info)}
	counts := map[string]int{}
	muts := planHandlerMutants(t, info, loads, counts)
	dir := t.TempDir()
	paths := make([]string, len(muts))
	for i, m := range muts {
		paths[i] = filepath.Join(dir, fmt.Sprintf("h%04d", i), "nginx.conf")
		if err := os.MkdirAll(filepath.Dir(paths[i]), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(paths[i], []byte(m.src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	failures := 0
	for i, run := range runAll(context.Background(), nginx, paths) {
		m := muts[i]
		if run.err != nil {
			t.Fatalf("%s: %v", m.how, run.err)
		}
		findings, err := lintValues(run.path, opts)
		if err != nil {
			t.Fatal(err)
		}
		var ours []*parser.Diagnostic
		for _, d := range findings {
			if d.Severity == parser.Error && strings.HasPrefix(d.Code, "NL2") {
				ours = append(ours, d)
			}
		}
		counts["mutants"]++
		counts["mutants of "+m.key]++
		for i, d := range ours {
			for _, e := range ours[:i] {
				if d.Start() == e.Start() {
					counts["two errors at one place"]++
					t.Logf("%s: two errors at %v: %s [%s] and %s [%s]", m.how, d.Start(), e.Message, e.Name, d.Message, d.Name)
				}
			}
		}
		family, _, _ := strings.Cut(m.key, ":")
		fail := func(format string, args ...any) {
			failures++
			if failures <= 40 {
				t.Errorf("%s: %s\n%s", m.how, fmt.Sprintf(format, args...), numberedLines(m.src))
			}
		}
		errs := run.res.Errors()
		if run.res.OK || len(errs) == 0 {
			if !run.res.OK {
				fail("nginx failed without an error message: %s", run.res.Stderr)
				continue
			}
			counts["nginx accepts"]++
			counts["  "+family+": nginx accepts"]++
			if m.invalid {
				t.Logf("planned invalid, nginx accepts: %s", m.how)
			}
			for _, d := range ours {
				counts["false errors"]++
				counts["  "+family+": false errors"]++
				fail("nginx accepts it, but we report %v [%s]", d, d.Name)
			}
			continue
		}
		first := errs[0]
		counts["nginx rejects"]++
		counts["  "+family+": nginx rejects"]++
		if !m.invalid {
			t.Logf("planned valid, nginx rejects: %s: %s", m.how, first)
		}
		found := false
		for _, d := range ours {
			// nginx reports some errors of the checks after the
			// configuration without a file and line: ours must then
			// say the same thing.
			if d.Start().Line == first.Line || first.Line == 0 && d.Message == first.Text {
				found = true
				break
			}
		}
		if !found {
			counts["missed"]++
			counts["  "+family+": missed"]++
			fail("nginx: %s; we report no NL2xxx error at line %d (ours: %v)", first, first.Line, ours)
			continue
		}
		counts["found"]++
		counts["  "+family+": found"]++
	}
	if failures > 40 {
		t.Errorf("... and %d more failures", failures-40)
	}
	logCounts(t, "custom handlers", counts)
	if counts["nginx rejects"] < 150 || counts["nginx accepts"] < 150 {
		t.Errorf("too few or one-sided mutants: %v", counts)
	}
}

// handlerMutant is one generated config.
type handlerMutant struct {
	key, how string
	src      string
	invalid  bool
}

// planHandlerMutants lists the mutants of the handlerCases the build
// has, and checks that the table and valuecheck cover the same handlers.
func planHandlerMutants(t *testing.T, info *buildinfo.Info, loads map[string]string, counts map[string]int) []handlerMutant {
	modules := info.Modules()
	var out []handlerMutant
	port := 22000
	seen := map[string]bool{}
	var uncovered []string
	for _, row := range directives.All() {
		if row.ThirdParty || !row.ArgsKnown || !inBuildRow(row, modules) || row.Removed() || row.Tags.Has("src-obsolete") {
			continue
		}
		if row.Value != nil {
			// The handler this nginx has (limit_rate was a size in 1.22).
			if spec := row.Value.For(info.Version); spec == nil || spec.Kind != directives.ValueCustom {
				continue
			}
		}
		if since, _, _ := strings.Cut(row.Since, ","); since != "" && directives.CompareVersions(info.Version, strings.TrimSpace(since)) < 0 {
			continue
		}
		family := handlerFamilyOf(row.Module)
		key := family + ":" + row.Name
		if _, ok := loads[family]; (family == "stream" || family == "mail") && !ok {
			continue
		}
		counts["custom commands in this build"]++
		hc, ok := handlerCases[key]
		if !ok {
			if valuecheck.HasCustom(family, row.Name) {
				t.Errorf("%s: valuecheck reads this handler but handlerCases has no values for it", key)
			}
			uncovered = append(uncovered, key)
			continue
		}
		if valuecheck.HasCustom(family, row.Name) == (hc.by != "") {
			t.Errorf("%s: handlerCases must name the rule (by) exactly when valuecheck does not read the handler", key)
		}
		ctx := hc.ctx
		if ctx != 0 && !row.Contexts.Has(ctx) {
			continue // another directive of that name (server in http, not in upstream)
		}
		if ctx == 0 {
			for _, c := range valueContexts {
				if row.Contexts.Has(c.ctx) {
					ctx = c.ctx
					break
				}
			}
		}
		if ctx == 0 {
			t.Errorf("%s: in none of the blocks the mutants write", key)
			continue
		}
		seen[key] = true
		counts["custom commands covered"]++
		emit := func(v string, invalid bool) {
			port++
			line := row.Name + " " + v
			if !strings.HasSuffix(v, "}") {
				line += ";"
			}
			src, _ := valueConfig(ctx, line, loads, port)
			if hc.pre != "" {
				top := map[string]string{"http": "http {\n", "stream": "stream {\n", "mail": "mail {\n"}[family]
				src = strings.Replace(src, top, top+"    "+hc.pre+"\n", 1)
			}
			if key == "stream:proxy_pass" {
				// The seed's stream server has one already.
				src = strings.Replace(src, "        proxy_pass su;\n", "", 1)
			}
			n := strings.Count(src[:strings.Index(src, line)], "\n") + 1
			kind := "valid"
			if invalid {
				kind = "invalid"
			}
			out = append(out, handlerMutant{key: key, src: src, invalid: invalid,
				how: fmt.Sprintf("%s (%s) in %s, line %d", line, kind, ctx, n)})
		}
		for _, v := range hc.good {
			emit(v, false)
		}
		for _, v := range hc.bad {
			emit(v, true)
		}
	}
	t.Logf("custom commands of this build the table does not cover: %v", uncovered)
	var missing []string
	for k := range handlerCases {
		if !seen[k] {
			missing = append(missing, k)
		}
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		t.Logf("handlerCases not in this build: %v", missing)
	}
	return out
}

// handlerFamilyOf is the invalid-value rule's family of a module.
func handlerFamilyOf(module string) string {
	switch {
	case strings.HasPrefix(module, "ngx_http_"):
		return "http"
	case strings.HasPrefix(module, "ngx_stream_"):
		return "stream"
	case strings.HasPrefix(module, "ngx_mail_"):
		return "mail"
	}
	return "core"
}
