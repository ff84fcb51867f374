package rules

import (
	"strings"
	"sync"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/valuecheck"
	"github.com/nginx-lint/nginx-lint/parser"
)

// InvalidValue reports argument values that nginx's generic handlers
// reject: sizes, offsets, times, numbers and their bounds, enum and
// bitmask words, buffer counts, path levels and access modes; and what
// the directive-specific handlers valuecheck.CheckCustom reads reject.
var InvalidValue = &analyzer.Rule{
	Code: "NL2012", Name: "invalid-value", Title: "value nginx does not accept", Severity: parser.Error,
	Refuses: true,
	Run:     runInvalidValue,
	Doc: analyzer.Doc{
		Text: "Most directives are parsed by one of nginx's generic handlers, and nginx-lint knows which " +
			"from nginx's source: sizes (`16k`, `1m`), offsets (also `g`), times (`1h30m`, `500ms`: units in " +
			"decreasing order, each once), numbers (digits only, some with bounds such as `gzip_comp_level` " +
			"1 to 9), and fixed words (`server_tokens on | off | build`, `proxy_next_upstream error timeout ...`). " +
			"nginx refuses to start on any other value, with the message this rule repeats " +
			"(`\"client_max_body_size\" directive invalid value`, `invalid value \"maybe\"`). These handlers " +
			"never expand variables, so `$x` is an invalid size. With `--nginx-build`/`--nginx`, words added " +
			"in later releases (`proxy_http_version 2` needs 1.29.4) are invalid for an older nginx; " +
			"without them the newest nginx is the target, and the detail says from which release a word " +
			"is accepted. On/off flags are checked by `invalid-arguments`.\n\n" +
			"Directives with a handler of their own are checked the way that handler reads them " +
			"(docs/handlers.md lists them): `*_bind` (an address, `transparent`, `off`), `*_cache_valid` " +
			"(status codes 100 to 599 or `any`, then a time), `*_cache_path`, `open_file_cache`, " +
			"`ssl_session_cache`, `limit_req`, `limit_conn`, `access_log`, `error_log`'s level, `expires`, " +
			"`keepalive_timeout`, a location's modifier, `allow`/`deny` (`10.0.0.0/33` is refused), `use` " +
			"(an event method the build has), mail `protocol`, `worker_processes`, `aio`, `try_files`' " +
			"`=code`, and more, with the message nginx prints.",
		Bad:  "events {}\nhttp {\n    client_max_body_size 10mb;\n    send_timeout 1m1h;\n    server_tokens maybe;\n    keepalive_timeout 65x;\n    allow 10.0.0.0/33;\n}\n",
		Good: "events {}\nhttp {\n    client_max_body_size 10m;\n    send_timeout 1h1m;\n    server_tokens off;\n    keepalive_timeout 65;\n    allow 10.0.0.0/8;\n}\n",
	},
}

func runInvalidValue(p *analyzer.Pass) {
	// The targeted nginx's version (from nginx -V); words newer than it
	// are invalid.
	version := p.Target.NamedVersion()
	ix := p.Index()
	var args []string // reused: Check does not keep it
	var checker valuecheck.CustomChecker
	for i := range ix.Entries {
		e := &ix.Entries[i]
		row := e.Row()
		if row == nil {
			continue
		}
		// The handler of the targeted release: proxy_limit_rate was a
		// plain size before 1.27.0. A row without a spec has a custom
		// handler in every release.
		spec := &customSpec
		if row.Value != nil {
			if spec = row.Value.For(version); spec == nil {
				continue
			}
		}
		custom := spec.Kind == directives.ValueCustom
		family, checked := customRows()[row]
		switch spec.Kind {
		case directives.ValueCustom:
			if !checked {
				continue // a handler nginx-lint does not read
			}
		case directives.ValueStr, directives.ValueStrArray, directives.ValueKeyval:
			if !checked {
				continue // any string goes
			}
			// The module reads the string later (lua_ssl_ciphers:
			// OpenSSL's cipher list).
			custom = true
		case directives.ValueFlag:
			if row.Args.IsFlag() && spec == row.Value {
				continue // invalid-arguments reports it
			}
		}
		d := e.Directive
		if d.RawBlock() || d.Unterminated() || !row.Args.Accepts(len(d.Args())) {
			continue
		}
		args = args[:0]
		for _, a := range d.Args() {
			args = append(args, a.Value)
		}
		var err *valuecheck.Error
		if custom {
			err = checker.Check(family, row.Name, args, version, p.Target)
		} else {
			err = valuecheck.Check(d.Name().Value, spec, args, version)
		}
		if err == nil {
			continue
		}
		arg := err.Arg
		if arg >= len(d.Args()) {
			arg = len(d.Args()) - 1
		}
		diag := p.Reportf(d.File, d.Args()[arg].Range, "%s", err.Message)
		diag.Detail = err.Detail
	}
	undefinedUpstreamLists(p)
}

// undefinedUpstreamLists reports set-misc's set_hashed_upstream naming an
// upstream list (NDK's upstream_list) that no list defined before it
// has: its handler looks the name up as it reads the directive,
// ignoring case.
func undefinedUpstreamLists(p *analyzer.Pass) {
	ix := p.Index()
	if len(ix.Named("set_hashed_upstream")) == 0 {
		return
	}
	defined := map[string]bool{}
	for i := range ix.Entries {
		e := &ix.Entries[i]
		d := e.Directive
		if directives.FamilyOf(e.Context()) != directives.HTTPFamily {
			continue
		}
		switch d.Name().Value {
		case "upstream_list":
			if len(d.Args()) > 0 {
				defined[strings.ToLower(d.Args()[0].Value)] = true
			}
		case "set_hashed_upstream":
			if len(d.Args()) != 3 || strings.Contains(d.Args()[1].Value, "$") || defined[strings.ToLower(d.Args()[1].Value)] {
				continue
			}
			diag := p.Reportf(d.File, d.Args()[1].Range, "set_hashed_upstream: upstream list %q not defined yet", d.Args()[1].Value)
			diag.Detail = "an upstream_list of that name must come before this directive; nginx refuses to start"
		}
	}
}

// customSpec stands for the spec of a row whose handler is custom in
// every release.
var customSpec = directives.ValueSpec{Kind: directives.ValueCustom}

// customRows are the table rows whose custom handler valuecheck reads,
// with their family: one lookup by pointer per directive of a
// configuration.
var customRows = sync.OnceValue(func() map[*directives.Directive]string {
	m := map[*directives.Directive]string{}
	for _, r := range directives.All() {
		if f := handlerFamily(r.Module); valuecheck.HasCustom(f, r.Name) {
			m[r] = f
		}
	}
	return m
})

// handlerFamily is the family valuecheck.CheckCustom files a module's
// handlers under.
func handlerFamily(module string) string {
	switch {
	case strings.HasPrefix(module, "ngx_http_"), strings.HasPrefix(module, "ndk_http_"):
		return "http"
	case strings.HasPrefix(module, "ngx_stream_"):
		return "stream"
	case strings.HasPrefix(module, "ngx_mail_"):
		return "mail"
	}
	return "core"
}
