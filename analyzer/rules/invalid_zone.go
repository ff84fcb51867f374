package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/internal/ngxparse"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// InvalidZone reports shared memory zone definitions nginx refuses:
// limit_req_zone, limit_conn_zone and the *_cache_path directives.
var InvalidZone = &analyzer.Rule{
	Code: "NL2022", Name: "invalid-zone", Title: "shared memory zone definition nginx refuses", Severity: parser.Error,
	Refuses: true,
	Run:     runInvalidZone,
	Doc: analyzer.Doc{
		Text: "Zones are declared as `zone=NAME:SIZE` (`limit_req_zone`, `limit_conn_zone`) or " +
			"`keys_zone=NAME:SIZE` (`proxy_cache_path`, `fastcgi_cache_path`, `scgi_cache_path`, " +
			"`uwsgi_cache_path`). nginx refuses to start when the size is missing or not a size " +
			"(`invalid zone size \"zone=one\"`), when the zone is smaller than 8 memory pages (32k; " +
			"2 pages, 8k, for a cache's keys zone: `zone \"zone=one:1k\" is too small`), when there " +
			"is no zone at all (`\"limit_req_zone\" must have \"zone\" parameter`), on a bad `rate=` " +
			"(a positive whole number of requests per second or minute, `10r/s`, `30r/m`), on a bad " +
			"`levels=` (one to three levels of 1 or 2 characters, `levels=1:2`), `inactive=` (a time), " +
			"`max_size=` or `min_free=` (sizes, with k, m or g), `use_temp_path=` (on or off), and on any " +
			"other parameter (`invalid parameter`; `purger=` and the like are NGINX Plus only). Sizes " +
			"assume 4k memory pages.",
		Bad: "events {}\nhttp {\n    limit_req_zone $binary_remote_addr zone=perip rate=10r/s;\n" +
			"    proxy_cache_path /var/cache/nginx keys_zone=cache:1k;\n}\n",
		Good: "events {}\nhttp {\n    limit_req_zone $binary_remote_addr zone=perip:10m rate=10r/s;\n" +
			"    proxy_cache_path /var/cache/nginx levels=1:2 keys_zone=cache:10m inactive=1h max_size=1g;\n}\n",
		URL: "https://nginx.org/en/docs/http/ngx_http_limit_req_module.html#limit_req_zone",
	},
}

// pageSize is the memory page size nginx measures zones in (x86-64 and
// most arm64 Linux).
const pageSize = 4096

func runInvalidZone(p *analyzer.Pass) {
	p.WalkNamed(func(d *parser.Directive, ctx directives.Context, _ []*parser.Directive) {
		if directives.DataBlock(ctx) || len(d.Args()) < 2 {
			return
		}
		switch name := d.Name().Value; {
		case strings.HasSuffix(name, "_cache_path"):
			checkCachePath(p, d)
		case name == "limit_req_zone" && len(d.Args()) == 3, name == "limit_conn_zone" && len(d.Args()) == 2:
			// Other argument counts are invalid-arguments' to report.
			checkLimitZone(p, d)
		}
	}, "limit_req_zone", "limit_conn_zone", "proxy_cache_path", "fastcgi_cache_path", "scgi_cache_path", "uwsgi_cache_path")
}

// zoneSpec checks "NAME:SIZE" after the "zone=" or "keys_zone=" prefix
// and returns nginx's complaint, or "" and the zone name.
func zoneSpec(arg, prefix, what string, minPages int) (name, msg string) {
	spec := arg[len(prefix):]
	name, size, ok := strings.Cut(spec, ":")
	if !ok {
		return "", "invalid " + what + " size \"" + arg + "\""
	}
	n, ok := grammar.ParseSize(size)
	if !ok {
		return "", "invalid " + what + " size \"" + arg + "\""
	}
	if n < minPages*pageSize {
		return "", what + " \"" + arg + "\" is too small"
	}
	return name, ""
}

// checkLimitZone follows ngx_http_limit_req_zone and
// ngx_http_limit_conn_zone (and the stream limit_conn_zone).
func checkLimitZone(p *analyzer.Pass, d *parser.Directive) {
	zone := ""
	for _, a := range d.Args()[1:] {
		v := a.Value
		switch {
		case strings.HasPrefix(v, "zone="):
			name, msg := zoneSpec(v, "zone=", "zone", 8)
			if msg != "" {
				p.Reportf(d.File, a.Range, "%s", msg).Detail = "write zone=NAME:SIZE with a size of at least 32k, e.g. zone=perip:10m"
				return
			}
			zone = name
		case d.Name().Value == "limit_req_zone" && strings.HasPrefix(v, "rate="):
			r := v[len("rate="):]
			r = strings.TrimSuffix(strings.TrimSuffix(r, "r/s"), "r/m")
			if n, ok := grammar.Atoi(r); !ok || n <= 0 {
				p.Reportf(d.File, a.Range, "invalid rate \"%s\"", v).Detail = "write rate=Nr/s or rate=Nr/m with a whole N of 1 or more (rate=0.5r/s is rate=30r/m)"
				return
			}
		default:
			p.Reportf(d.File, a.Range, "invalid parameter \"%s\"", v).Detail = d.Name().Value + " takes a key, then zone=NAME:SIZE" + rateHint(d.Name().Value)
			return
		}
	}
	if zone == "" {
		p.ReportDirective(d, "\"%s\" must have \"zone\" parameter", d.Name().Value).Detail = "add zone=NAME:SIZE, e.g. zone=perip:10m"
	}
}

func rateHint(name string) string {
	if name == "limit_req_zone" {
		return " and rate=N r/s or r/m"
	}
	return ""
}

// checkCachePath follows ngx_http_file_cache_set_slot.
func checkCachePath(p *analyzer.Pass, d *parser.Directive) {
	zone := ""
	for _, a := range d.Args()[1:] {
		v := a.Value
		key, val, hasEq := strings.Cut(v, "=")
		msg := ""
		if !hasEq {
			// nginx tests every parameter with its "=": a bare name is none.
			key = ""
		}
		switch key {
		case "levels":
			if !cacheLevels(val) {
				msg = "invalid \"levels\" \"" + v + "\""
			}
		case "use_temp_path":
			if val != "on" && val != "off" {
				msg = "invalid use_temp_path value \"" + v + "\", it must be \"on\" or \"off\""
			}
		case "keys_zone":
			name, m := zoneSpec(v, "keys_zone=", "keys zone", 2)
			msg, zone = m, name
		case "inactive":
			if _, ok := grammar.ParseTimeSec(val); !ok {
				msg = "invalid inactive value \"" + v + "\""
			}
		case "max_size", "min_free":
			if _, ok := ngxparse.ParseOffset(val); !ok {
				msg = "invalid " + key + " value \"" + v + "\""
			}
		case "loader_files", "manager_files":
			if _, ok := grammar.Atoi(val); !ok {
				msg = "invalid " + key + " value \"" + v + "\""
			}
		case "loader_sleep", "loader_threshold", "manager_sleep", "manager_threshold":
			if _, ok := ngxparse.ParseTime(val, false); !ok {
				msg = "invalid " + key + " value \"" + v + "\""
			}
		default:
			msg = "invalid parameter \"" + v + "\""
		}
		if msg != "" {
			p.Reportf(d.File, a.Range, "%s", msg).Detail = "syntax: " + d.Name().Value + " PATH [levels=1:2] keys_zone=NAME:SIZE [inactive=TIME] [max_size=SIZE] ..."
			return
		}
	}
	if zone == "" {
		p.ReportDirective(d, "\"%s\" must have \"keys_zone\" parameter", d.Name().Value).Detail = "add keys_zone=NAME:SIZE, e.g. keys_zone=cache:10m"
	}
}

// cacheLevels follows the levels= loop of ngx_http_file_cache_set_slot:
// up to three levels, each 1 or 2, separated by ':'.
func cacheLevels(s string) bool {
	for n := 0; n < 3 && s != ""; n++ {
		if s[0] != '1' && s[0] != '2' {
			return false
		}
		s = s[1:]
		if s == "" {
			return true
		}
		if s[0] != ':' || n == 2 || len(s) == 1 {
			return false
		}
		s = s[1:]
	}
	return s == ""
}
