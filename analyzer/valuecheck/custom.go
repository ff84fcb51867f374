package valuecheck

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/internal/ngxparse"
)

// Build says what the targeted nginx has: CheckCustom asks it about the
// modules a handler looks up (the event module "use" names).
type Build interface {
	HasModule(module string) bool
}

// custom is one directive-specific set handler: it returns the error
// nginx's handler reports for args (the arguments after the directive's
// name), or nil.
type custom func(c *call) *Error

// call is one directive as a custom handler sees it.
type call struct {
	name    string
	args    []string
	version string
	build   Build
}

// atLeast reports whether the targeted nginx is v or later (the newest
// when no version is targeted).
func (c *call) atLeast(v string) bool {
	return c.version == "" || directives.CompareVersions(c.version, v) >= 0
}

// invalid is the error a handler reports by returning a string:
// ngx_conf_handler prints it after the directive's name.
func (c *call) invalid(arg int, text, detail string) *Error {
	return &Error{Arg: arg, Message: fmt.Sprintf("%q directive %s", c.name, text), Detail: detail}
}

// errorf is the error a handler logs itself with ngx_conf_log_error.
func errorf(arg int, detail, format string, a ...any) *Error {
	return &Error{Arg: arg, Message: fmt.Sprintf(format, a...), Detail: detail}
}

// customHandlers are the custom set handlers nginx-lint reads, by
// family ("http", "stream", "mail", "core") and directive name. Each
// follows the handler's C in nginx 1.22 to the newest release (the
// differential test TestHandlerParity runs the real nginx on mutants of
// each).
var customHandlers = map[string]map[string]custom{
	"http": {
		"proxy_bind": bindHandler, "fastcgi_bind": bindHandler, "uwsgi_bind": bindHandler,
		"scgi_bind": bindHandler, "grpc_bind": bindHandler, "memcached_bind": bindHandler,
		"proxy_cache_valid": cacheValid, "fastcgi_cache_valid": cacheValid,
		"uwsgi_cache_valid": cacheValid, "scgi_cache_valid": cacheValid,
		"open_file_cache":   openFileCache,
		"ssl_session_cache": sslSessionCache,
		"limit_req":         limitReq,
		"limit_conn":        limitConn,
		"access_log":        accessLog,
		"expires":           expires,
		"keepalive_timeout": keepaliveTimeout,
		"location":          location,
		"allow":             accessRule, "deny": accessRule,
		"open_log_file_cache": openLogFileCache,
		"userid_expires":      useridExpires,
		"userid_mark":         useridMark,
		"directio":            directio,
		"keepalive":           upstreamKeepalive,
		"hash":                upstreamHash,
		"random":              upstreamRandom,
		"set_real_ip_from":    realIPFrom,
		"try_files":           tryFiles,
		"aio":                 aio,
		"disable_symlinks":    disableSymlinks,
		"limit_except":        limitExcept,
		"fastcgi_param":       upstreamParam,
		"scgi_param":          upstreamParam,
		"uwsgi_param":         upstreamParam,
		"zone":                upstreamZone,
		"ssl_ocsp_cache":      ocspCache,
		"proxy_redirect":      proxyRedirect,
		"memcached_pass":      memcachedPass,
		"index":               index,
		"modern_browser":      modernBrowser,
		"log_format":          logFormat,
		"root":                rootAlias,
		"alias":               rootAlias,
		"proxy_cookie_domain": oneWordOff,
		"proxy_cookie_path":   oneWordOff,
		"proxy_cookie_flags":  oneWordOff,
		"limit_rate":          complexSize,
		"limit_rate_after":    complexSize,
		"proxy_limit_rate":    complexSize,
		"fastcgi_limit_rate":  complexSize,
		"scgi_limit_rate":     complexSize,
		"uwsgi_limit_rate":    complexSize,
		// Third-party modules (thirdparty.go).
		"lua_shared_dict":             luaSharedDict,
		"lua_ssl_ciphers":             luaSSLCiphers,
		"lua_ssl_conf_command":        luaSSLConfCommand,
		"lua_malloc_trim":             luaMallocTrim,
		"lua_regex_match_limit":       numSlot,
		"lua_regex_cache_max_entries": numSlot,
		"set_base32_alphabet":         base32Alphabet,
		"upstream_list":               upstreamList,
		"memc_cmds_allowed":           memcCmdsAllowed,
	},
	"stream": {
		"zone":                upstreamZone,
		"proxy_upload_rate":   complexSize,
		"log_format":          logFormat,
		"proxy_download_rate": complexSize,
		"proxy_bind":          bindHandler,
		"ssl_session_cache":   sslSessionCache,
		"limit_conn":          limitConn,
		"access_log":          accessLog,
		"allow":               accessRule, "deny": accessRule,
		"open_log_file_cache": openLogFileCache,
		"hash":                upstreamHash,
		"random":              upstreamRandom,
		"set_real_ip_from":    realIPFrom,
	},
	"mail": {
		"ssl_session_cache": sslSessionCache,
		"protocol":          mailProtocol,
		"starttls":          starttls,
		"auth_http":         authHTTP,
		"set_real_ip_from":  realIPFrom,
	},
	"core": {
		"use":                 eventUse,
		"error_log":           errorLog, // one row: ngx_errlog_module and the http, stream and mail cores share it
		"worker_processes":    workerProcesses,
		"worker_priority":     workerPriority,
		"worker_connections":  workerConnections,
		"thread_pool":         threadPool,
		"debug_connection":    debugConnection,
		"worker_cpu_affinity": cpuAffinity,
	},
}

// CheckCustom returns the error nginx's directive-specific handler of
// name in family ("http", "stream", "mail" or "core") reports for args,
// or nil when it accepts them or nginx-lint does not read that handler.
// version is the targeted release ("" for the newest); build, when not
// nil, is the targeted build.
func CheckCustom(family, name string, args []string, version string, build Build) *Error {
	var k CustomChecker
	return k.Check(family, name, args, version, build)
}

// CustomChecker is CheckCustom for a loop over many directives: the
// handlers take the call by pointer through a function value, so a call
// made afresh each time would be a heap allocation per directive (a big
// configuration has millions); a checker keeps one.
type CustomChecker struct{ c call }

// Check is CheckCustom, reusing the checker's call.
func (k *CustomChecker) Check(family, name string, args []string, version string, build Build) *Error {
	h := customHandlers[family][name]
	if h == nil || len(args) == 0 {
		return nil
	}
	k.c = call{name: name, args: args, version: version, build: build}
	return h(&k.c)
}

// HasCustom reports whether CheckCustom reads the handler of name in
// family.
func HasCustom(family, name string) bool { return customHandlers[family][name] != nil }

// hasVariables is ngx_http_script_variables_count's test: a "$" makes
// the value a complex value, evaluated per request.
func hasVariables(s string) bool { return strings.IndexByte(s, '$') >= 0 }

// bindHandler is ngx_http_upstream_bind_set_slot (proxy_bind, ...,
// memcached_bind) and ngx_stream_proxy_bind: "off", a complex value, or
// an address with an optional port, then optionally "transparent".
func bindHandler(c *call) *Error {
	if len(c.args) == 1 && c.args[0] == "off" {
		return nil
	}
	if !hasVariables(c.args[0]) && !ngxparse.ParseAddrPort(c.args[0], c.atLeast("1.27.3")) {
		return errorf(0, "the local address is an IP address with an optional port (192.0.2.1, 192.0.2.1:0 is not a port, [2001:db8::1]:4000), a value with variables, or off",
			"invalid address %q", c.args[0])
	}
	if len(c.args) > 1 && c.args[1] != "transparent" {
		return errorf(1, `the only parameter after the address is "transparent"`, "invalid parameter %q", c.args[1])
	}
	return nil
}

// cacheValid is ngx_http_file_cache_valid_set_slot: status codes (100
// to 599) or "any", then a time in seconds.
func cacheValid(c *call) *Error {
	n := len(c.args) - 1
	if _, ok := ngxparse.ParseTime(c.args[n], true); !ok {
		return errorf(n, "the last argument is the time (10m, 1h)", "invalid time value %q", c.args[n])
	}
	for i, a := range c.args[:n] {
		if a == "any" {
			continue
		}
		if s, ok := ngxparse.Atoi(a); !ok || s < 100 || s > 599 {
			return errorf(i, `a status code is 100 to 599, or "any"`, "invalid status %q", a)
		}
	}
	return nil
}

// openFileCache is ngx_http_core_open_file_cache: max=N (N > 0),
// inactive=time, off.
func openFileCache(c *call) *Error {
	max, off := 0, false
	for i, a := range c.args {
		ok := true
		switch {
		case strings.HasPrefix(a, "max="):
			max, ok = ngxparse.Atoi(a[4:])
			ok = ok && max > 0
		case strings.HasPrefix(a, "inactive="):
			_, ok = ngxparse.ParseTime(a[9:], true)
		case a == "off":
			off = true
		default:
			ok = false
		}
		if !ok {
			return errorf(i, "the parameters are max=N (1 or more), inactive=time, or off",
				"invalid \"open_file_cache\" parameter %q", a)
		}
	}
	if !off && max == 0 {
		return errorf(0, "max=N sets how many files the cache holds", "\"open_file_cache\" must have the \"max\" parameter")
	}
	return nil
}

// pageSize is the memory page size of the Linux builds nginx-lint
// targets (ngx_pagesize).
const pageSize = 4096

// sslSessionCache is ngx_http_ssl_session_cache (and its stream and mail
// twins): off, none, builtin[:size], shared:name:size (at least 8
// pages).
func sslSessionCache(c *call) *Error {
	const detail = "each value is off, none, builtin, builtin:N (sessions) or shared:name:size (32k or more)"
	for i, a := range c.args {
		switch {
		case a == "off", a == "none", a == "builtin":
			continue
		case len(a) > len("builtin:") && strings.HasPrefix(a, "builtin:"):
			if _, ok := ngxparse.Atoi(a[len("builtin:"):]); ok {
				continue
			}
		case len(a) > len("shared:") && strings.HasPrefix(a, "shared:"):
			name, size, found := strings.Cut(a[len("shared:"):], ":")
			if name == "" || !found {
				break
			}
			n, ok := ngxparse.ParseSize(size)
			if !ok {
				break
			}
			if n < 8*pageSize {
				return errorf(i, "a shared cache takes at least 8 memory pages (32k)", "session cache %q is too small", a)
			}
			continue
		}
		return errorf(i, detail, "invalid session cache %q", a)
	}
	return nil
}

// limitReq is ngx_http_limit_req: zone=name, burst=N, delay=N (N > 0),
// nodelay; zone= is required.
func limitReq(c *call) *Error {
	zone := false
	for i, a := range c.args {
		switch {
		case strings.HasPrefix(a, "zone="):
			zone = true
		case strings.HasPrefix(a, "burst="):
			if n, ok := ngxparse.Atoi(a[6:]); !ok || n <= 0 {
				return errorf(i, "burst= is a number of requests, 1 or more", "invalid burst value %q", a)
			}
		case strings.HasPrefix(a, "delay="):
			if n, ok := ngxparse.Atoi(a[6:]); !ok || n <= 0 {
				return errorf(i, "delay= is a number of requests, 1 or more", "invalid delay value %q", a)
			}
		case a == "nodelay":
		default:
			return errorf(i, "the parameters are zone=name, burst=N, delay=N and nodelay", "invalid parameter %q", a)
		}
	}
	if !zone {
		return errorf(0, "zone= names the limit_req_zone", "%q must have \"zone\" parameter", c.name)
	}
	return nil
}

// limitConn is ngx_http_limit_conn and ngx_stream_limit_conn: a zone
// and a number of connections, 1 to 65535.
func limitConn(c *call) *Error {
	if len(c.args) < 2 {
		return nil
	}
	n, ok := ngxparse.Atoi(c.args[1])
	if !ok || n <= 0 {
		return errorf(1, "the limit is a number of connections, 1 to 65535", "invalid number of connections %q", c.args[1])
	}
	if n > 65535 {
		return errorf(1, "the limit is a number of connections, 1 to 65535", "connection limit must be less 65536")
	}
	return nil
}

// accessLog is ngx_http_log_set_log and ngx_stream_log_set_log: off, or
// a path (or syslog:) and a format, then buffer=size, flush=time,
// gzip[=level] and if=condition.
func accessLog(c *call) *Error {
	if c.args[0] == "off" {
		if len(c.args) > 1 {
			return errorf(1, "access_log off takes nothing after off", "invalid parameter %q", c.args[1])
		}
		return nil
	}
	var size, flush int
	for i := 2; i < len(c.args); i++ {
		a := c.args[i]
		switch {
		case strings.HasPrefix(a, "buffer="):
			n, ok := ngxparse.ParseSize(a[7:])
			if !ok || n == 0 {
				return errorf(i, "buffer= is a size (32k, 64k)", "invalid buffer size %q", a[7:])
			}
			size = n
		case strings.HasPrefix(a, "flush="):
			n, ok := ngxparse.ParseTime(a[6:], false)
			if !ok || n == 0 {
				return errorf(i, "flush= is a time (5s, 1m)", "invalid flush time %q", a[6:])
			}
			flush = n
		case strings.HasPrefix(a, "gzip") && (len(a) == 4 || a[4] == '='):
			if size == 0 {
				size = 64 << 10
			}
			if len(a) > 4 {
				if n, ok := ngxparse.Atoi(a[5:]); !ok || n < 1 || n > 9 {
					return errorf(i, "the gzip level is 1 to 9", "invalid compression level %q", a[5:])
				}
			}
		case strings.HasPrefix(a, "if="):
		default:
			return errorf(i, "the parameters after the format are buffer=, flush=, gzip[=level] and if=", "invalid parameter %q", a)
		}
	}
	last := len(c.args) - 1
	if flush != 0 && size == 0 {
		return errorf(last, "flush= needs buffer= (or gzip)", "no buffer is defined for access_log %q", c.args[0])
	}
	if size != 0 {
		if strings.HasPrefix(c.args[0], "syslog:") {
			return errorf(last, "syslog messages are sent one by one", "logs to syslog cannot be buffered")
		}
		if hasVariables(c.args[0]) {
			return errorf(last, "a log path with variables is opened per request and cannot be buffered", "buffered logs cannot have variables in name")
		}
	}
	return nil
}

// expires is ngx_http_headers_expires with ngx_http_parse_expires:
// [modified] epoch | max | off | [@|+|-]time, or a value with variables.
func expires(c *call) *Error {
	const detail = "the value is epoch, max, off, a time (1h, -1, @18h30m: daily, under 24 hours), or modified followed by a time"
	v := c.args[0]
	arg := 0
	modified := false
	if len(c.args) == 2 {
		if c.args[0] != "modified" {
			return c.invalid(0, "invalid value", detail)
		}
		v, arg, modified = c.args[1], 1, true
	}
	if hasVariables(v) {
		return nil
	}
	if !modified && (v == "epoch" || v == "max" || v == "off") {
		return nil
	}
	daily := false
	if v != "" {
		switch v[0] {
		case '@':
			if modified {
				return c.invalid(arg, `daily time cannot be used with "modified" parameter`, detail)
			}
			daily = true
			v = v[1:]
		case '+', '-':
			v = v[1:]
		}
	}
	t, ok := ngxparse.ParseTime(v, true)
	if !ok {
		return c.invalid(arg, "invalid value", detail)
	}
	if daily && t > 24*60*60 {
		return c.invalid(arg, "daily time value must be less than 24 hours", detail)
	}
	return nil
}

// keepaliveTimeout is ngx_http_core_keepalive: a time in milliseconds,
// then optionally the Keep-Alive header's time in seconds.
func keepaliveTimeout(c *call) *Error {
	if _, ok := ngxparse.ParseTime(c.args[0], false); !ok {
		return c.invalid(0, "invalid value", "the timeout is a time (75s, 1m30s, 500ms)")
	}
	if len(c.args) > 1 {
		if _, ok := ngxparse.ParseTime(c.args[1], true); !ok {
			return c.invalid(1, "invalid value", "the header timeout is a time in seconds (60, 1m)")
		}
	}
	return nil
}

// location is ngx_http_core_location's modifier: with two arguments the
// first is =, ^~, ~ or ~*.
func location(c *call) *Error {
	if len(c.args) != 2 {
		return nil
	}
	switch c.args[0] {
	case "=", "^~", "~", "~*":
		return nil
	}
	return errorf(0, "the modifier is =, ^~, ~ or ~*", "invalid location modifier %q", c.args[0])
}

// accessRule is ngx_http_access_rule and ngx_stream_access_rule: all,
// unix:, or an address or CIDR (ngx_ptocidr; host bits only warn).
func accessRule(c *call) *Error {
	a := c.args[0]
	if a == "all" || a == "unix:" {
		return nil
	}
	if ngxparse.PtoCIDR(a) == ngxparse.CIDRInvalid {
		return errorf(0, "the value is an IPv4 or IPv6 address or network (10.0.0.0/8, at most /32; 2001:db8::/32, at most /128), unix: or all",
			"invalid parameter %q", a)
	}
	return nil
}

// mailProtocol is ngx_mail_core_protocol: the name of a mail protocol
// module (imap, pop3, smtp).
func mailProtocol(c *call) *Error {
	switch c.args[0] {
	case "imap", "pop3", "smtp":
		if c.build == nil || c.build.HasModule("ngx_mail_"+c.args[0]+"_module") {
			return nil
		}
	}
	return errorf(0, "the protocol is imap, pop3 or smtp, of a mail module the build has", "unknown protocol %q", c.args[0])
}

// eventModules are the event modules nginx has, by the name "use"
// takes.
var eventModules = map[string]string{
	"epoll": "ngx_epoll_module", "kqueue": "ngx_kqueue_module", "select": "ngx_select_module",
	"poll": "ngx_poll_module", "/dev/poll": "ngx_devpoll_module", "eventport": "ngx_eventport_module",
	"iocp": "ngx_iocp_module",
}

// eventUse is ngx_event_use: the name of an event module of the build.
func eventUse(c *call) *Error {
	m, ok := eventModules[c.args[0]]
	if ok && (c.build == nil || c.build.HasModule(m)) {
		return nil
	}
	return errorf(0, "the event methods are epoll (Linux), kqueue (BSD, macOS), eventport, /dev/poll, poll and select, those the build has", "invalid event type %q", c.args[0])
}

// workerProcesses is ngx_set_worker_processes: auto or a number.
func workerProcesses(c *call) *Error {
	if c.args[0] == "auto" {
		return nil
	}
	if _, ok := ngxparse.Atoi(c.args[0]); !ok {
		return c.invalid(0, "invalid value", "the value is auto or a number of processes")
	}
	return nil
}

// workerPriority is ngx_set_priority: a number with an optional sign.
func workerPriority(c *call) *Error {
	v := c.args[0]
	if v != "" && (v[0] == '-' || v[0] == '+') {
		v = v[1:]
	}
	if _, ok := ngxparse.Atoi(v); !ok {
		return c.invalid(0, "invalid number", "the priority is a number such as -5 or 10")
	}
	return nil
}

// workerConnections is ngx_event_connections: a number.
func workerConnections(c *call) *Error {
	if _, ok := ngxparse.Atoi(c.args[0]); !ok {
		return errorf(0, "the value is a number of connections", "invalid number %q", c.args[0])
	}
	return nil
}

// logLevels are nginx's err_levels from 1 (emerg) on, and debugLevels its
// debug_levels, in order.
var (
	logLevels   = []string{"emerg", "alert", "crit", "error", "warn", "notice", "info", "debug"}
	debugLevels = []string{"debug_core", "debug_alloc", "debug_mutex", "debug_event", "debug_http", "debug_mail", "debug_stream"}
)

// errorLog is ngx_log_set_levels, which every error_log (ngx_log_set_log)
// calls on the arguments after the file: one level, or debug_* levels.
func errorLog(c *call) *Error {
	const detail = "the level is one of emerg, alert, crit, error, warn, notice, info and debug, or debug_core ... debug_stream"
	level, debug := false, false
	for i := 1; i < len(c.args); i++ {
		a := c.args[i]
		switch {
		case slices.Contains(logLevels, a):
			if level || debug {
				return errorf(i, "error_log takes one level", "duplicate log level %q", a)
			}
			level = true
		case slices.Contains(debugLevels, a):
			if level {
				return errorf(i, detail, "invalid log level %q", a)
			}
			debug = true
		default:
			return errorf(i, detail, "invalid log level %q", a)
		}
	}
	return nil
}

// openLogFileCache is ngx_http_log_open_file_cache and its stream twin:
// max=N, inactive=time, min_uses=N, valid=time, off.
func openLogFileCache(c *call) *Error {
	max, off := 0, false
	for i, a := range c.args {
		ok := true
		switch {
		case strings.HasPrefix(a, "max="):
			max, ok = ngxparse.Atoi(a[4:])
		case strings.HasPrefix(a, "inactive="):
			_, ok = ngxparse.ParseTime(a[9:], true)
		case strings.HasPrefix(a, "min_uses="):
			_, ok = ngxparse.Atoi(a[9:])
		case strings.HasPrefix(a, "valid="):
			_, ok = ngxparse.ParseTime(a[6:], true)
		case a == "off":
			off = true
		default:
			ok = false
		}
		if !ok {
			return errorf(i, "the parameters are max=N, inactive=time, min_uses=N, valid=time, or off",
				"invalid \"%s\" parameter %q", c.name, a)
		}
	}
	if !off && max == 0 {
		return errorf(0, "max=N sets how many descriptors the cache holds", "\"%s\" must have \"max\" parameter", c.name)
	}
	return nil
}

// useridExpires is ngx_http_userid_expires: max, off or a time.
func useridExpires(c *call) *Error {
	if v := c.args[0]; v == "max" || v == "off" {
		return nil
	}
	if _, ok := ngxparse.ParseTime(c.args[0], true); !ok {
		return c.invalid(0, "invalid value", "the value is max, off or a time (365d)")
	}
	return nil
}

// useridMark is ngx_http_userid_mark: off or one letter, digit or "=".
func useridMark(c *call) *Error {
	v := c.args[0]
	if v == "off" {
		return nil
	}
	if len(v) == 1 && (v[0] >= '0' && v[0] <= '9' || v[0] >= 'A' && v[0] <= 'Z' || v[0] >= 'a' && v[0] <= 'z' || v[0] == '=') {
		return nil
	}
	return c.invalid(0, `value must be "off" or a single letter, digit or "="`, "")
}

// directio is ngx_http_core_directio: off or a size (ngx_parse_offset).
func directio(c *call) *Error {
	if c.args[0] == "off" {
		return nil
	}
	if _, ok := ngxparse.ParseOffset(c.args[0]); !ok {
		return c.invalid(0, "invalid value", "the value is off or a size (4m, 1g)")
	}
	return nil
}

// upstreamKeepalive is ngx_http_upstream_keepalive: a number of idle
// connections, 1 or more before 1.29.7 (which allows 0 and a "local"
// parameter).
func upstreamKeepalive(c *call) *Error {
	newer := c.atLeast("1.29.7")
	if n, ok := ngxparse.Atoi(c.args[0]); !ok || n == 0 && !newer {
		return errorf(0, "the value is the number of idle connections each worker keeps, 1 or more (0 from 1.29.7)",
			"invalid value %q in %q directive", c.args[0], c.name)
	}
	if len(c.args) > 1 && newer && c.args[1] != "local" {
		return errorf(1, `the only parameter after the number is "local"`, "invalid parameter %q", c.args[1])
	}
	return nil
}

// upstreamHash is ngx_http_upstream_hash and its stream twin: a key,
// then optionally "consistent".
func upstreamHash(c *call) *Error {
	if len(c.args) > 1 && c.args[1] != "consistent" {
		return errorf(1, `the only parameter after the key is "consistent"`, "invalid parameter %q", c.args[1])
	}
	return nil
}

// upstreamRandom is ngx_http_upstream_random and its stream twin:
// nothing, or "two" and optionally "least_conn" (the method; stream
// also knows least_time in NGINX Plus only).
func upstreamRandom(c *call) *Error {
	if c.args[0] != "two" {
		return errorf(0, `random takes nothing or "two" and then the method, "least_conn"`, "invalid parameter %q", c.args[0])
	}
	if len(c.args) > 1 && c.args[1] != "least_conn" {
		return errorf(1, `the method after "two" is "least_conn"`, "invalid parameter %q", c.args[1])
	}
	return nil
}

// realIPFrom is ngx_http_realip_from and its stream and mail twins:
// unix:, an address or CIDR, or else a host name to resolve. A word with
// "/" or ":" is no host name, so when it is no CIDR the lookup fails.
func realIPFrom(c *call) *Error {
	a := c.args[0]
	if a == "unix:" || ngxparse.PtoCIDR(a) != ngxparse.CIDRInvalid {
		return nil
	}
	if strings.ContainsAny(a, "/:") {
		return errorf(0, "the value is an IPv4 or IPv6 address or network (10.0.0.0/8, at most /32), unix: or a host name",
			"host not found in set_real_ip_from %q", a)
	}
	return nil
}

// tryFiles is ngx_http_core_try_files' code: a last argument "=N" is a
// status code, at most 999.
func tryFiles(c *call) *Error {
	last := c.args[len(c.args)-1]
	if len(c.args) < 2 || !strings.HasPrefix(last, "=") || hasVariables(last) {
		return nil
	}
	if n, ok := ngxparse.Atoi(last[1:]); !ok || n > 999 {
		return errorf(len(c.args)-1, "the last argument =N returns the status code N (=404)", "invalid code %q", last)
	}
	return nil
}

// aio is ngx_http_core_set_aio: off, on or threads[=pool]. Whether the
// build has file AIO or threads is unsupported-by-build's.
func aio(c *call) *Error {
	v := c.args[0]
	if v == "off" || v == "on" || strings.HasPrefix(v, "threads") && (len(v) == 7 || v[7] == '=') {
		return nil
	}
	return c.invalid(0, "invalid value", "the value is off, on or threads[=pool]")
}

// built reports whether the targeted build was configured with flag; true
// when the build is not known.
func (c *call) built(flag string) bool {
	b, ok := c.build.(interface{ Built(string) bool })
	return !ok || b.Built(flag)
}

// disableSymlinks is ngx_http_disable_symlinks: off, on or if_not_owner,
// then optionally from=part (not with off).
func disableSymlinks(c *call) *Error {
	mode, from := "", false
	for i, a := range c.args {
		switch {
		case a == "off", a == "on", a == "if_not_owner":
			mode = a
		case strings.HasPrefix(a, "from="):
			from = true
		default:
			return errorf(i, "the parameters are off, on or if_not_owner, and from=part", "invalid parameter %q", a)
		}
	}
	last := len(c.args) - 1
	switch {
	case mode == "":
		return errorf(0, "the mode is off, on or if_not_owner", "%q must have \"off\", \"on\" or \"if_not_owner\" parameter", c.name)
	case len(c.args) == 2 && !from:
		return errorf(last, "give one mode, then optionally from=", "duplicate parameters \"%s %s\"", c.args[0], c.args[1])
	case from && mode == "off":
		return errorf(last, "from= goes with on or if_not_owner", `"from=" cannot be used with "off" parameter`)
	}
	return nil
}

// httpMethods are ngx_methods_names, which limit_except compares
// ignoring case.
var httpMethods = []string{"GET", "HEAD", "POST", "PUT", "DELETE", "MKCOL", "COPY", "MOVE", "OPTIONS", "PROPFIND", "PROPPATCH", "LOCK", "UNLOCK", "PATCH"}

// limitExcept is ngx_http_core_limit_except: HTTP methods.
func limitExcept(c *call) *Error {
	for i, a := range c.args {
		if !slices.ContainsFunc(httpMethods, func(m string) bool { return EqualFold(a, m) }) {
			return errorf(i, "the methods are GET, HEAD, POST, PUT, DELETE, MKCOL, COPY, MOVE, OPTIONS, PROPFIND, PROPPATCH, LOCK, UNLOCK and PATCH", "invalid method %q", a)
		}
	}
	return nil
}

// threadPool is ngx_thread_pool: a name, threads=N (N > 0, required),
// max_queue=N; other words are ignored.
func threadPool(c *call) *Error {
	threads := false
	for i, a := range c.args[1:] {
		switch {
		case strings.HasPrefix(a, "threads="):
			if n, ok := ngxparse.Atoi(a[8:]); !ok || n == 0 {
				return errorf(i+1, "threads= is a number of threads, 1 or more", "invalid threads value %q", a)
			}
			threads = true
		case strings.HasPrefix(a, "max_queue="):
			if _, ok := ngxparse.Atoi(a[10:]); !ok {
				return errorf(i+1, "max_queue= is a number of tasks", "invalid max_queue value %q", a)
			}
		}
	}
	if !threads {
		return errorf(0, "threads=N sets the pool's size", "%q must have \"threads\" parameter", c.name)
	}
	return nil
}

// upstreamParam is ngx_http_upstream_param_set_slot (fastcgi_param,
// scgi_param, uwsgi_param): a key, a value, then optionally
// "if_not_empty".
func upstreamParam(c *call) *Error {
	if len(c.args) == 3 && c.args[2] != "if_not_empty" {
		return errorf(2, `the only parameter after the value is "if_not_empty"`, "invalid parameter %q", c.args[2])
	}
	return nil
}

// upstreamZone is ngx_http_upstream_zone and its stream twin: a name,
// then optionally a size of at least 8 pages.
func upstreamZone(c *call) *Error {
	if c.args[0] == "" {
		return errorf(0, "the zone needs a name", "invalid zone name %q", c.args[0])
	}
	if len(c.args) < 2 {
		return nil
	}
	n, ok := ngxparse.ParseSize(c.args[1])
	if !ok {
		return errorf(1, "the size is a size (64k, 1m)", "invalid zone size %q", c.args[1])
	}
	if n < 8*pageSize {
		return errorf(1, "a shared zone takes at least 8 memory pages (32k)", "zone %q is too small", c.args[0])
	}
	return nil
}

// cpuSetSize is glibc's CPU_SETSIZE.
const cpuSetSize = 1024

// cpuAffinity is ngx_set_cpu_affinity: auto with at most one mask, or
// masks of 0s and 1s (spaces ignored), read from their last character.
func cpuAffinity(c *call) *Error {
	masks := c.args
	if masks[0] == "auto" {
		if len(masks) > 2 {
			return errorf(2, "auto takes at most one mask", "invalid number of arguments in \"worker_cpu_affinity\" directive")
		}
		masks = masks[1:]
	}
	arg := len(c.args) - len(masks)
	for i, m := range masks {
		if len(m) > cpuSetSize {
			return errorf(arg+i, "a mask has a character per CPU", "\"worker_cpu_affinity\" supports up to %d CPUs only", cpuSetSize)
		}
		for j := len(m) - 1; j >= 0; j-- {
			if ch := m[j]; ch != ' ' && ch != '0' && ch != '1' {
				return errorf(arg+i, "a mask is 0s and 1s, one per CPU", "invalid character \"%c\" in \"worker_cpu_affinity\"", ch)
			}
		}
	}
	return nil
}

// ocspCache is ngx_http_ssl_ocsp_cache: off or shared:name:size (at
// least 8 pages).
func ocspCache(c *call) *Error {
	a := c.args[0]
	if a == "off" {
		return nil
	}
	if rest, ok := strings.CutPrefix(a, "shared:"); ok && rest != "" {
		if name, size, found := strings.Cut(rest, ":"); found && name != "" {
			if n, ok := ngxparse.ParseSize(size); ok {
				if n < 8*pageSize {
					return errorf(0, "a shared cache takes at least 8 memory pages (32k)", "OCSP cache %q is too small", a)
				}
				return nil
			}
		}
	}
	return errorf(0, "the value is off or shared:name:size", "invalid OCSP cache %q", a)
}

// proxyRedirect is ngx_http_proxy_redirect's one-argument form: off or
// default.
func proxyRedirect(c *call) *Error {
	if len(c.args) == 1 && c.args[0] != "off" && c.args[0] != "default" {
		return errorf(0, "with one argument proxy_redirect is off or default; otherwise it takes the text to replace and its replacement", "invalid parameter %q", c.args[0])
	}
	return nil
}

// starttls is ngx_mail_ssl_starttls, an enum: off, on, only.
func starttls(c *call) *Error {
	switch c.args[0] {
	case "off", "on", "only":
		return nil
	}
	return errorf(0, `it must be "off", "on" or "only"`, "invalid value %q", c.args[0])
}

// memcachedPass is ngx_http_memcached_pass: unlike proxy_pass it
// compiles no variables, so "$host:11211" names a host "$host" that no
// lookup finds. The rest of the address is invalid-url's.
func memcachedPass(c *call) *Error {
	if !hasVariables(c.args[0]) {
		return nil
	}
	u := ngxparse.ParseURL(c.args[0], false, 0)
	if u.Err != "" {
		return nil
	}
	return errorf(0, "memcached_pass takes no variables: name an upstream block or an address",
		"host not found in upstream %q", u.Host)
}

// complexSize is ngx_http_set_complex_value_size_slot and its stream
// twin: a size, or a value with variables evaluated per request.
func complexSize(c *call) *Error {
	if hasVariables(c.args[0]) {
		return nil
	}
	if _, ok := ngxparse.ParseSize(c.args[0]); !ok {
		return c.invalid(0, "invalid value", "the value is a size (512k, 1m) or a value with variables")
	}
	return nil
}

// index is ngx_http_index_set_index: no empty name (before 1.29.2 nginx
// named the first argument in its message). An absolute index before the
// last one only warns.
func index(c *call) *Error {
	for i, a := range c.args {
		if a == "" {
			named := c.args[0]
			if c.atLeast("1.29.2") {
				named = a
			}
			return errorf(i, "an index is a file name", "index %q in \"index\" directive is invalid", named)
		}
	}
	return nil
}

// rootAlias is ngx_http_core_root (root and alias): the path cannot use
// $document_root or $realpath_root, which it defines.
func rootAlias(c *call) *Error {
	for _, v := range []string{"document_root", "realpath_root"} {
		if strings.Contains(c.args[0], "$"+v) || strings.Contains(c.args[0], "${"+v+"}") {
			return errorf(0, "$"+v+" is computed from this directive's value", "the $%s variable cannot be used in the %q directive", v, c.name)
		}
	}
	return nil
}

// oneWordOff is the one-argument form of ngx_http_proxy_cookie_domain,
// _path and _flags: only "off".
func oneWordOff(c *call) *Error {
	if len(c.args) == 1 && c.args[0] != "off" {
		return errorf(0, "with one argument it is off; otherwise give what to match and what to set", "invalid parameter %q", c.args[0])
	}
	return nil
}

// modernBrowser is ngx_http_modern_browser: "unlisted", or a browser
// nginx knows and a version of digits and dots.
func modernBrowser(c *call) *Error {
	if len(c.args) == 1 {
		if c.args[0] == "unlisted" {
			return nil
		}
		// nginx fails here without a message.
		return errorf(0, `with one argument modern_browser is "unlisted"; otherwise a browser and its version`, "invalid parameter %q", c.args[0])
	}
	known := false
	for _, b := range []string{"opera", "msie", "gecko", "safari", "konqueror"} {
		known = known || EqualFold(b, c.args[0])
	}
	if !known {
		return errorf(0, "the browsers are msie, gecko, opera, safari and konqueror", "unknown browser name %q", c.args[0])
	}
	if strings.Trim(c.args[1], "0123456789.") != "" {
		return errorf(1, "a version is numbers separated by dots (6.0)", "invalid browser version %q", c.args[1])
	}
	return nil
}

// debugConnection is ngx_event_debug_connection in a --with-debug build
// (otherwise it only warns): unix:, an address or CIDR, or a host name;
// a word with "/" or ":" is no host name, so when it is no CIDR the
// lookup fails.
func debugConnection(c *call) *Error {
	a := c.args[0]
	if !c.built("--with-debug") || a == "unix:" || ngxparse.PtoCIDR(a) != ngxparse.CIDRInvalid {
		return nil
	}
	if strings.ContainsAny(a, "/:") {
		return errorf(0, "the value is an address or network (10.0.0.0/8), unix: or a host name", "host not found in debug_connection %q", a)
	}
	return nil
}

// authHTTP is ngx_mail_auth_http: a URL with an optional http://, its
// port 80 by default (ngx_parse_url with a URI part).
func authHTTP(c *call) *Error {
	url := strings.TrimPrefix(c.args[0], "http://")
	if u := ngxparse.ParseURL(url, true, 80); u.Err != "" {
		return errorf(0, "the value is an address with an optional port and URI (127.0.0.1:9000/auth, http://auth.internal/mail)", "%s in auth_http %q", u.Err, url)
	}
	return nil
}

// logFormat is ngx_http_log_set_format's escape= (and its stream twin):
// right after the name, default, json or none.
func logFormat(c *call) *Error {
	if len(c.args) < 2 {
		return nil
	}
	if v, ok := strings.CutPrefix(c.args[1], "escape="); ok && v != "default" && v != "json" && v != "none" {
		return errorf(1, "escape= is default, json or none", "unknown log format escaping %q", v)
	}
	return nil
}
