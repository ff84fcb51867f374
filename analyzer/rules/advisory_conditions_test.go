package rules_test

import (
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
)

// advisoryCase is one advisory's condition as its advisory states it:
// configurations that reach it, configurations that each lack one part
// of the condition, and versions on both sides of its bounds.
type advisoryCase struct {
	cve string
	// reach are configurations that reach the advisory; each is linted
	// for every version of in (it must be reported) and out (it must
	// not).
	reach   []string
	in, out []string
	// miss are configurations one part short of the condition: none is
	// reported for any version of in.
	miss []string
}

const tlsServer = "listen 443 ssl;\n ssl_certificate /etc/ssl/a.pem;\n ssl_certificate_key /etc/ssl/a.key;\n"

func httpConf(s string) string { return "events {}\nhttp {\n" + s + "\n}\n" }

var advisoryCases = []advisoryCase{
	{
		cve: "CVE-2026-40701", // ssl_verify_client on|optional, ssl_ocsp on|leaf, a resolver
		reach: []string{
			httpConf("resolver 127.0.0.1;\nserver {\n" + tlsServer + "ssl_client_certificate /etc/ssl/ca.pem;\nssl_verify_client on;\nssl_ocsp on;\n}"),
			httpConf("resolver 127.0.0.1;\nssl_ocsp leaf;\nserver {\n" + tlsServer + "ssl_client_certificate /etc/ssl/ca.pem;\nssl_verify_client optional;\n}"),
		},
		miss: []string{
			// The old false finding: stapling with a resolver.
			httpConf("resolver 127.0.0.1;\nserver {\n" + tlsServer + "ssl_stapling on;\n}"),
			httpConf("resolver 127.0.0.1;\nserver {\n" + tlsServer + "ssl_verify_client off;\nssl_ocsp on;\n}"),
			httpConf("resolver 127.0.0.1;\nserver {\n" + tlsServer + "ssl_client_certificate /etc/ssl/ca.pem;\nssl_verify_client on;\nssl_ocsp off;\n}"),
			httpConf("server {\n" + tlsServer + "ssl_client_certificate /etc/ssl/ca.pem;\nssl_verify_client on;\nssl_ocsp on;\n}"),
		},
		in:  []string{"1.19.0", "1.22.1", "1.30.0"},
		out: []string{"1.18.0", "1.30.1", "1.31.0"},
	},
	{
		cve:   "CVE-2026-42934", // charset_map from UTF-8, proxy_buffering off
		reach: []string{charsetReach},
		miss: []string{
			// The old false finding: any charset.
			httpConf("server {\nlisten 80;\ncharset utf-8;\nlocation / { proxy_pass http://127.0.0.1:8080; }\n}"),
			strings.Replace(charsetReach, "proxy_buffering off;", "", 1),
			strings.Replace(charsetReach, "source_charset utf-8;", "", 1),
			strings.Replace(charsetReach, "charset_map koi8-r utf-8", "charset_map koi8-r windows-1251", 1),
		},
		in:  []string{"0.3.50", "1.22.1", "1.30.0"},
		out: []string{"0.3.49", "1.30.1", "1.31.0"},
	},
	{
		cve:   "CVE-2026-48142",
		reach: []string{charsetReach},
		miss:  []string{strings.Replace(charsetReach, "proxy_buffering off;", "proxy_buffering on;", 1)},
		in:    []string{"1.30.2", "1.31.1"},
		out:   []string{"1.30.3", "1.31.2"},
	},
	{
		cve: "CVE-2026-42055", // ignore_invalid_headers off, huge header buffers, HTTP/2 or gRPC backend
		reach: []string{
			httpConf("server {\nlisten 80;\nignore_invalid_headers off;\nlarge_client_header_buffers 4 4m;\nlocation / { grpc_pass grpc://127.0.0.1:9000; }\n}"),
		},
		miss: []string{
			httpConf("server {\nlisten 80;\nignore_invalid_headers off;\nlarge_client_header_buffers 4 2048k;\nlocation / { grpc_pass grpc://127.0.0.1:9000; }\n}"),
			httpConf("server {\nlisten 80;\nlarge_client_header_buffers 4 4m;\nlocation / { grpc_pass grpc://127.0.0.1:9000; }\n}"),
			httpConf("server {\nlisten 80;\nignore_invalid_headers off;\nlarge_client_header_buffers 4 4m;\nlocation / { proxy_http_version 1.1; proxy_pass http://127.0.0.1:9000; }\n}"),
		},
		in:  []string{"1.13.10", "1.30.2", "1.31.1"},
		out: []string{"1.13.9", "1.30.3", "1.31.2"},
	},
	{
		cve: "CVE-2026-42055", // proxy_http_version 2 is an HTTP/2 backend too
		reach: []string{
			httpConf("server {\nlisten 80;\nignore_invalid_headers off;\nlarge_client_header_buffers 4 4m;\nlocation / { proxy_http_version 2; proxy_pass http://127.0.0.1:9000; }\n}"),
		},
		in:  []string{"1.30.2"},
		out: []string{"1.30.3"},
	},
	{
		cve:   "CVE-2026-42926", // proxy_set_body to an HTTP/2 backend
		reach: []string{httpConf("server {\nlisten 80;\nproxy_http_version 2;\nlocation / { proxy_set_body x; proxy_pass http://127.0.0.1:9000; }\n}")},
		miss: []string{
			httpConf("server {\nlisten 80;\nlocation / { proxy_http_version 2; proxy_pass http://127.0.0.1:9000; }\n}"),
			httpConf("server {\nlisten 80;\nlocation / { proxy_set_body x; proxy_pass http://127.0.0.1:9000; }\n}"),
		},
		in:  []string{"1.29.4", "1.30.0"},
		out: []string{"1.29.3", "1.30.1", "1.31.0"},
	},
	{
		cve:   "CVE-2026-123007", // HTTP/2 on
		reach: []string{http2Reach},
		miss:  []string{strings.Replace(http2Reach, "http2 on;", "http2 off;", 1)},
		in:    []string{"1.30.6", "1.31.8"},
		out:   []string{"1.30.7", "1.31.9"},
	},
	{
		cve:   "CVE-2026-123007", // the listen parameter, from before "http2 on" (1.25.1)
		reach: []string{http2Listen},
		miss:  []string{strings.Replace(http2Listen, " http2;", ";", 1)},
		in:    []string{"1.9.5", "1.22.1"},
		out:   []string{"1.9.4"},
	},
	{
		cve:   "CVE-2026-123633",
		reach: []string{http2Reach},
		miss:  []string{strings.Replace(http2Reach, "http2 on;", "", 1)},
		in:    []string{"1.30.6", "1.31.8"},
		out:   []string{"1.30.7", "1.31.9"},
	},
	{
		cve:   "CVE-2026-123633",
		reach: []string{http2Listen},
		in:    []string{"1.19.7"},
		out:   []string{"1.19.6"},
	},
	{
		cve:   "CVE-2026-118899", // HTTPS with TLSv1.3
		reach: []string{httpConf("server {\n" + tlsServer + "ssl_protocols TLSv1.2 TLSv1.3;\n}")},
		miss: []string{
			httpConf("server {\n" + tlsServer + "ssl_protocols TLSv1.2;\n}"),
			httpConf("server {\nlisten 80;\nssl_protocols TLSv1.3;\n}"),
		},
		in:  []string{"1.13.0", "1.30.6", "1.31.8"},
		out: []string{"1.12.2", "1.30.7", "1.31.9"},
	},
	{
		cve:   "CVE-2026-118899", // TLSv1.3 by default from 1.23.4
		reach: []string{httpConf("server {\n" + tlsServer + "}")},
		in:    []string{"1.23.4"},
		out:   []string{"1.23.3"},
	},
	{
		cve:   "CVE-2026-113425",
		reach: []string{"events {}\nmail {\nserver_name mail.example.com;\nauth_http 127.0.0.1:9000;\nserver { listen 25; protocol smtp; }\n}\n"},
		miss:  []string{httpConf("server { listen 80; }")},
		in:    []string{"0.5.33", "1.30.6", "1.31.8"},
		out:   []string{"0.5.32", "1.30.7", "1.31.9"},
	},
	{
		cve:   "CVE-2026-123634", // the resolver, names resolved at run time, subrequests
		reach: []string{resolverReach},
		miss: []string{
			strings.Replace(resolverReach, "auth_request /auth;", "", 1),
			strings.ReplaceAll(resolverReach, "http://$backend", "http://backend.example.com"),
			strings.Replace(resolverReach, "resolver 127.0.0.1;", "", 1),
		},
		in:  []string{"0.6.18", "1.30.6", "1.31.8"},
		out: []string{"0.6.17", "1.30.7", "1.31.9"},
	},
	{
		cve:   "CVE-2026-121810",
		reach: []string{httpConf("server {\nlisten 443 quic;\nssl_certificate /etc/ssl/a.pem;\nssl_certificate_key /etc/ssl/a.key;\n}")},
		miss:  []string{httpConf("server {\n" + tlsServer + "http3 off;\n}")},
		in:    []string{"1.25.0", "1.30.6", "1.31.8"},
		out:   []string{"1.24.0", "1.30.7", "1.31.9"},
	},
	{
		cve:   "CVE-2026-120967", // client certificates in stream
		reach: []string{streamVerify},
		miss:  []string{strings.Replace(streamVerify, "ssl_verify_client on;", "ssl_verify_client off;", 1)},
		in:    []string{"1.25.5", "1.30.6", "1.31.8"},
		out:   []string{"1.25.4", "1.30.7", "1.31.9"},
	},
	{
		cve:   "CVE-2026-120993", // dynamic certificates and PROXY protocol v2 in stream
		reach: []string{streamDynCert},
		miss: []string{
			strings.Replace(streamDynCert, "proxy_protocol v2;", "proxy_protocol on;", 1),
			strings.Replace(streamDynCert, "$ssl_server_name.pem", "a.pem", 1),
		},
		in:  []string{"1.31.4", "1.31.8"},
		out: []string{"1.31.3", "1.31.9", "1.30.6"},
	},
	{
		cve:   "CVE-2026-123640",
		reach: []string{"events {}\nstream {\nserver {\nlisten 443;\nssl_preread on;\nproxy_pass 127.0.0.1:8443;\n}\n}\n"},
		miss:  []string{"events {}\nstream {\nserver {\nlisten 443;\nssl_preread off;\nproxy_pass 127.0.0.1:8443;\n}\n}\n"},
		in:    []string{"1.15.2", "1.30.6", "1.31.8"},
		out:   []string{"1.15.1", "1.30.7", "1.31.9"},
	},
	{
		cve:   "CVE-2026-95101",
		reach: []string{httpConf("server {\nlisten 443 quic;\nssl_certificate /etc/ssl/a.pem;\nssl_certificate_key /etc/ssl/a.key;\n}")},
		in:    []string{"1.25.0", "1.30.5", "1.31.6"},
		out:   []string{"1.24.0", "1.30.6", "1.31.7"},
	},
	{
		cve:   "CVE-2026-90439",
		reach: []string{httpConf("server {\nlisten 443 quic;\nssl_certificate /etc/ssl/a.pem;\nssl_certificate_key /etc/ssl/a.key;\n}")},
		in:    []string{"1.29.2", "1.30.4", "1.31.5"},
		out:   []string{"1.29.1", "1.30.5", "1.31.6"},
	},
	{
		cve:   "CVE-2026-97629", // session tickets whose keys nginx rotates
		reach: []string{ticketReach},
		miss: []string{
			strings.Replace(ticketReach, "ssl_session_cache shared:SSL:10m;", "ssl_session_cache builtin;", 1),
			strings.Replace(ticketReach, "ssl_session_cache shared:SSL:10m;", "ssl_session_cache shared:SSL:10m;\nssl_session_tickets off;", 1),
			strings.Replace(ticketReach, "ssl_session_cache shared:SSL:10m;", "ssl_session_cache shared:SSL:10m;\nssl_session_ticket_key /etc/ssl/ticket.key;", 1),
		},
		in:  []string{"1.23.3", "1.30.5", "1.31.6"},
		out: []string{"1.23.2", "1.30.6", "1.31.7"},
	},
	{
		cve:   "CVE-2026-97205", // SSI with AIO
		reach: []string{httpConf("aio threads;\nserver {\nlisten 80;\nlocation / { ssi on; }\n}")},
		miss: []string{
			httpConf("server {\nlisten 80;\nlocation / { ssi on; }\n}"),
			httpConf("aio threads;\nserver {\nlisten 80;\nlocation / { ssi off; }\n}"),
			httpConf("aio off;\nserver {\nlisten 80;\nlocation / { ssi on; }\n}"),
		},
		in:  []string{"1.30.0", "1.30.5", "1.31.6"},
		out: []string{"1.29.8", "1.30.6", "1.31.7"},
	},
	// The configuration shapes cve-config-pattern reports.
	{
		cve:   "CVE-2026-15176", // alias, a rewrite reading $request_filename
		reach: []string{aliasRewrite},
		miss: []string{
			strings.Replace(aliasRewrite, "alias /srv/a/;", "root /srv;", 1),
			strings.Replace(aliasRewrite, "$request_filename", "$uri", 1),
		},
		// From 0.1.29; nginx-lint's variable table starts at 1.0.0, so
		// an older target refuses $request_filename before this rule.
		in:  []string{"1.0.0", "1.30.5", "1.31.6"},
		out: []string{"0.1.28", "1.30.6", "1.31.7"},
	},
	{
		cve:   "CVE-2026-125283", // alias, try_files reading a capturing map's variable
		reach: []string{aliasTryFiles},
		miss: []string{
			strings.Replace(aliasTryFiles, "alias /srv/d/;", "root /srv;", 1),
			strings.Replace(aliasTryFiles, "~^/d/(.*)$ $1;", "~^/d/ x;", 1),
			strings.Replace(aliasTryFiles, "try_files $file =404;", "try_files $uri =404;", 1),
		},
		in:  []string{"0.9.6", "1.30.6", "1.31.8"},
		out: []string{"0.9.5", "1.30.7", "1.31.9"},
	},
	{
		cve:   "CVE-2026-42533", // a capture read before a capturing map's variable
		reach: []string{mapBefore, strings.Replace(mapAfter, "default x;", "volatile;\ndefault x;", 1)},
		miss: []string{
			mapAfter,
			strings.Replace(mapBefore, "~^(.+)\\.example\\.com$ $1;", "~^www\\. x;", 1),
		},
		in:  []string{"0.9.6", "1.30.3", "1.31.2"},
		out: []string{"0.9.5", "1.30.4", "1.31.3"},
	},
	{
		cve:   "CVE-2026-93479", // the same in root, after 1.30.4 and 1.31.3
		reach: []string{strings.Replace(mapBefore, "add_header X $1$b;", "root /srv/$1$b;", 1)},
		miss:  []string{mapBefore},
		in:    []string{"1.30.0", "1.30.4", "1.30.5", "1.31.2", "1.31.6"},
		out:   []string{"1.29.8", "1.30.6", "1.31.1", "1.31.7"},
	},
	{
		cve:   "CVE-2026-60005", // unnamed captures with slice or a background update
		reach: []string{sliceReach, strings.Replace(sliceReach, "slice 1m;", "proxy_cache_background_update on;", 1)},
		miss:  []string{strings.NewReplacer("(.*)$ {", "(?<rest>.*)$ {", "X-Path $1;", "X-Path $rest;").Replace(sliceReach), strings.Replace(sliceReach, "slice 1m;", "", 1)},
		in:    []string{"1.15.8", "1.30.3", "1.31.2"},
		out:   []string{"1.15.7", "1.30.4", "1.31.3"},
	},
}

var (
	charsetReach  = httpConf("charset_map koi8-r utf-8 {\nC0 D18E;\n}\nserver {\nlisten 80;\nlocation / {\ncharset koi8-r;\nsource_charset utf-8;\nproxy_buffering off;\nproxy_pass http://127.0.0.1:8080;\n}\n}")
	http2Reach    = httpConf("server {\n" + tlsServer + "http2 on;\n}")
	http2Listen   = httpConf("server {\nlisten 443 ssl http2;\nssl_certificate /etc/ssl/a.pem;\nssl_certificate_key /etc/ssl/a.key;\n}")
	resolverReach = httpConf("resolver 127.0.0.1;\nserver {\nlisten 80;\nset $backend b.example.com;\nlocation / {\nauth_request /auth;\nproxy_pass http://$backend;\n}\nlocation = /auth { internal; proxy_pass http://$backend; }\n}")
	streamVerify  = "events {}\nstream {\nserver {\n" + tlsServer + "ssl_client_certificate /etc/ssl/ca.pem;\nssl_verify_client on;\nproxy_pass 127.0.0.1:8443;\n}\n}\n"
	streamDynCert = "events {}\nstream {\nserver {\nlisten 443 ssl;\nssl_certificate /etc/ssl/$ssl_server_name.pem;\nssl_certificate_key /etc/ssl/$ssl_server_name.key;\nproxy_protocol v2;\nproxy_pass 127.0.0.1:8443;\n}\n}\n"
	ticketReach   = httpConf("ssl_session_cache shared:SSL:10m;\nserver {\n" + tlsServer + "}")
	aliasRewrite  = httpConf("server {\nlisten 80;\nlocation /a/ {\nalias /srv/a/;\nrewrite ^/a/(.*)$ /b/?f=$request_filename last;\n}\n}")
	aliasTryFiles = httpConf("map $uri $file {\n~^/d/(.*)$ $1;\n}\nserver {\nlisten 80;\nlocation /d/ {\nalias /srv/d/;\ntry_files $file =404;\n}\n}")
	mapBefore     = httpConf("map $host $b {\ndefault x;\n~^(.+)\\.example\\.com$ $1;\n}\nserver {\nlisten 80;\nlocation ~ ^/api/(.*)$ {\nadd_header X $1$b;\n}\n}")
	mapAfter      = strings.Replace(mapBefore, "add_header X $1$b;", "add_header X $b$1;", 1)
	sliceReach    = httpConf("server {\nlisten 80;\nlocation ~ ^/v/(.*)$ {\nslice 1m;\nproxy_set_header X-Path $1;\nproxy_pass http://127.0.0.1:8080;\n}\n}")
	advisoryRules = map[string]bool{"nginx-advisory": true, "cve-config-pattern": true}
)

// reports reports whether linting src for version reports cve.
func reports(t *testing.T, src, version, cve string) bool {
	t.Helper()
	for _, d := range lintTextWith(t, src, analyzer.Options{Target: &analyzer.Target{Version: version}}) {
		if advisoryRules[d.Name] && strings.Contains(d.Message, cve+" ") || advisoryRules[d.Name] && strings.HasSuffix(d.Message, cve) {
			return true
		}
	}
	return false
}

// TestAdvisoryConditions lints each advisory's configurations on both
// sides of its condition and of its version bounds.
func TestAdvisoryConditions(t *testing.T) {
	for _, c := range advisoryCases {
		for i, src := range c.reach {
			for _, v := range c.in {
				if !reports(t, src, v, c.cve) {
					t.Errorf("%s: nginx %s: configuration %d that reaches it is not reported:\n%s", c.cve, v, i, src)
				}
			}
			for _, v := range c.out {
				if reports(t, src, v, c.cve) {
					t.Errorf("%s: nginx %s is not affected, but configuration %d is reported", c.cve, v, i)
				}
			}
		}
		for i, src := range c.miss {
			for _, v := range c.in {
				if reports(t, src, v, c.cve) {
					t.Errorf("%s: nginx %s: configuration %d lacks part of the condition but is reported:\n%s", c.cve, v, i, src)
				}
			}
		}
	}
}

// With no target named, the newest release the tables know is assumed,
// which no advisory affects.
func TestAdvisoriesNoTarget(t *testing.T) {
	for _, c := range advisoryCases {
		for _, src := range c.reach {
			for _, d := range lintText(t, src) {
				if advisoryRules[d.Name] {
					t.Errorf("%s: no target named, yet %s", c.cve, d.Message)
				}
			}
		}
	}
}
