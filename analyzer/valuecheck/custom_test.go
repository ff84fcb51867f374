package valuecheck

import (
	"strings"
	"testing"
)

type modules map[string]bool

func (m modules) HasModule(name string) bool { return m[name] }

// TestCheckCustom runs the examples of issue 18 and a few edges through
// the handlers; TestHandlerParity (analyzer/rules) compares them with the
// real nginx.
func TestCheckCustom(t *testing.T) {
	linux := modules{"ngx_epoll_module": true, "ngx_mail_smtp_module": true}
	for _, c := range []struct {
		family, line, version string
		want                  string // the message, "" when nginx accepts
	}{
		{"http", "keepalive_timeout 65x", "", `"keepalive_timeout" directive invalid value`},
		{"http", "keepalive_timeout 65 60", "", ""},
		{"http", "proxy_cache_valid 99 10m", "", `invalid status "99"`},
		{"http", "proxy_cache_valid any 10m", "", ""},
		{"http", "open_file_cache max=0 inactive=20s", "", `invalid "open_file_cache" parameter "max=0"`},
		{"http", "open_file_cache inactive=20s", "", `"open_file_cache" must have the "max" parameter`},
		{"http", "ssl_session_cache shared:S", "", `invalid session cache "shared:S"`},
		{"http", "ssl_session_cache shared:S:16k", "", `session cache "shared:S:16k" is too small`},
		{"http", "ssl_session_cache builtin:1000 shared:S:1m", "", ""},
		{"http", "allow 10.0.0.0/33", "", `invalid parameter "10.0.0.0/33"`},
		{"http", "allow 10.0.0.1/8", "", ""},
		{"http", "proxy_bind [::1]", "1.22.1", `invalid address "[::1]"`},
		{"http", "proxy_bind [::1]", "1.27.3", ""},
		{"http", "proxy_bind $x transparent", "", ""},
		{"http", "proxy_bind 127.0.0.1 bogus", "", `invalid parameter "bogus"`},
		{"http", "limit_req burst=5", "", `"limit_req" must have "zone" parameter`},
		{"http", "limit_conn addr 65536", "", "connection limit must be less 65536"},
		{"http", "access_log /x combined flush=5s", "", `no buffer is defined for access_log "/x"`},
		{"http", "access_log /x combined gzip flush=5s", "", ""},
		{"http", "expires modified @1h", "", `"expires" directive daily time cannot be used with "modified" parameter`},
		{"http", "expires @25h", "", `"expires" directive daily time value must be less than 24 hours`},
		{"http", "expires -1", "", ""},
		{"http", "location bogus /x", "", `invalid location modifier "bogus"`},
		{"core", "use kqueue", "", `invalid event type "kqueue"`},
		{"core", "use epoll", "", ""},
		{"mail", "protocol imap", "", `unknown protocol "imap"`},
		{"mail", "protocol smtp", "", ""},
		{"core", "error_log /x debug_http warn", "", `duplicate log level "warn"`},
		{"http", "keepalive 0", "1.22.1", `invalid value "0" in "keepalive" directive`},
		{"http", "keepalive 0", "", ""},
		{"http", "keepalive 8 bogus", "", `invalid parameter "bogus"`},
		{"http", "keepalive 8 local", "", ""},
		{"http", `index a ""`, "1.22.1", `index "a" in "index" directive is invalid`},
		{"http", `index a ""`, "1.29.2", `index "" in "index" directive is invalid`},
		{"core", "error_log /x warn debug_http", "", `invalid log level "debug_http"`},
	} {
		f := strings.Fields(c.line)
		for i := range f {
			if f[i] == `""` {
				f[i] = "" // an empty argument
			}
		}
		err := CheckCustom(c.family, f[0], f[1:], c.version, linux)
		got := ""
		if err != nil {
			got = err.Message
		}
		if got != c.want {
			t.Errorf("%s (%s): got %q, want %q", c.line, c.version, got, c.want)
		}
	}
}
