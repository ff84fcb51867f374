package rules_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/nginxtest"
)

// thirdPartyHandlerCases are configurations that the handlers of
// third-party modules (lua-nginx-module, set-misc, NDK, memc) judge beyond
// nginx's slots: values, names defined twice or not yet, and the Lua
// block reader. http and loc are the lines of the http block and of a
// location; modules are the objects to load.
var thirdPartyHandlerCases = []struct {
	what, http, loc string
	modules         []string
}{
	{"shared dict size", "lua_shared_dict store 1x;", "", lua},
	{"shared dict 8191", "lua_shared_dict store 8191;", "", lua},
	{"shared dict 10k", "lua_shared_dict store 10k;", "", lua},
	{"shared dict 12k", "lua_shared_dict store 12k;", "", lua},
	{"shared dict 1m", "lua_shared_dict store 1m;", "", lua},
	{"shared dict name", `lua_shared_dict "" 1m;`, "", lua},
	{"shared dict twice", "lua_shared_dict store 1m;\n    lua_shared_dict store 1024k;", "", lua},
	{"shared dict twice, sizes", "lua_shared_dict store 1m;\n    lua_shared_dict store 2m;", "", lua},
	{"shared dict, other case", "lua_shared_dict store 1m;\n    lua_shared_dict Store 2m;", "", lua},
	{"shared dict and limit_req_zone", "lua_shared_dict one 1m;\n    limit_req_zone $binary_remote_addr zone=one:1m rate=1r/s;", "", lua},
	{"ssl ciphers bogus", "lua_ssl_ciphers bogus_x;", "", lua},
	{"ssl ciphers x", "", "lua_ssl_ciphers x;", lua},
	{"ssl ciphers killed", "lua_ssl_ciphers HIGH:!HIGH;", "", lua},
	{"ssl ciphers invalid", "lua_ssl_ciphers HIGH:_x;", "", lua},
	{"ssl ciphers standard name", "lua_ssl_ciphers TLS_RSA_WITH_AES_128_GCM_SHA256;", "", lua},
	{"ssl ciphers valid", "lua_ssl_ciphers ECDHE+AESGCM:!aNULL:@STRENGTH;", "", lua},
	{"ssl ciphers DEFAULT", "lua_ssl_ciphers DEFAULT:!RC4;", "", lua},
	{"conf command name", "lua_ssl_conf_command a b;", "", lua},
	{"conf command cipher string", "lua_ssl_conf_command CipherString bogus;", "", lua},
	{"conf command valid", "lua_ssl_conf_command options PrioritizeChaCha;", "", lua},
	{"malloc trim", "lua_malloc_trim x;", "", lua},
	{"malloc trim valid", "lua_malloc_trim 1000;", "", lua},
	{"regex match limit", "lua_regex_match_limit 1x;", "", lua},
	{"regex cache", "lua_regex_cache_max_entries -1;", "", lua},
	{"package path twice", "lua_package_path '/a/?.lua;;';\n    lua_package_path '/b/?.lua;;';", "", lua},
	{"init twice", "init_by_lua_block { x = 1 }\n    init_by_lua_block { x = 2 }", "", lua},
	{"content twice", "", "content_by_lua_block { ngx.say(1) }\n            content_by_lua_file /srv/x.lua;", lua},
	{"rewrite and access", "", "rewrite_by_lua_block { ngx.say(1) }\n            access_by_lua_block { ngx.say(1) }", lua},
	{"long bracket", "", "content_by_lua_block {\n                local s = [[abc\n                ngx.say(s)\n            }", lua},
	{"long bracket level", "", "content_by_lua_block {\n                local s = [==[abc ]]\n                ngx.say(s)\n            }", lua},
	{"long comment", "", "content_by_lua_block {\n                --[[ comment\n                ngx.say(1)\n            }", lua},
	{"line comment", "", "content_by_lua_block {\n                -- [[ comment }\n                ngx.say(1)\n            }", lua},
	{"closed brackets", "", "content_by_lua_block {\n                local s = [[ } ]] .. '}' .. \"{\"\n                ngx.say(s) -- }\n            }", lua},
	{"quote left open", "", "content_by_lua_block {\n                local s = \"abc\n                ngx.say(s)\n            }", lua},
	{"quote left open, bracket", "", "content_by_lua_block {\n                local b = 'x\n                local s = [[abc\n                ngx.say(s)\n            }", lua},
	{"base32 alphabet 31", "set_base32_alphabet 0123456789abcdefghijklmnopqrstu;", "", setMisc},
	{"base32 alphabet 33", "", "set_base32_alphabet 0123456789abcdefghijklmnopqrstuvw;", setMisc},
	{"base32 alphabet 32", "set_base32_alphabet 0123456789abcdefghijklmnopqrstuv;", "", setMisc},
	{"set_md5 without $", "", "set_md5 foo $uri;", setMisc},
	{"set_local_today without $", "", "set_local_today x;", setMisc},
	{"upstream_list", "upstream_list universe moon sun 2:earth;", "set_hashed_upstream $backend universe $arg_key;", setMisc},
	{"upstream_list number", "upstream_list universe 3 sun;", "", setMisc},
	{"upstream_list format", "upstream_list universe 2x:sun;", "", setMisc},
	{"upstream_list twice", "upstream_list ul a;\n    upstream_list UL b;", "", setMisc},
	{"hashed upstream undefined", "", "set_hashed_upstream $backend nolist $arg_key;", setMisc},
	{"hashed upstream before", "", "set_hashed_upstream $backend ul $arg_key;", append(slices.Clone(setMisc), "upstream_list ul a b;")},
	{"memc commands", "", "memc_cmds_allowed get bogus;", memc},
	{"memc commands valid", "", "memc_cmds_allowed get set flush_all version;", memc},
}

var (
	lua     = []string{"ndk_http_module", "ngx_http_lua_module"}
	setMisc = []string{"ndk_http_module", "ngx_http_set_misc_module"}
	memc    = []string{"ngx_http_memc_module"}
)

// TestThirdPartyHandlersNginx has the real nginx, with the third-party
// modules loaded, judge thirdPartyHandlerCases: where it refuses at a
// line, the rules report an error there (for a failure nginx reports
// without a line, the same failing call); where it accepts, none. The
// rules run for the local build and with no target named.
func TestThirdPartyHandlersNginx(t *testing.T) {
	nginx := nginxtest.Require(t)
	info := nginxBuild(t, nginx)
	objects := installedObjects(info)
	reg := rules.All()
	refused, accepted := 0, 0
	for _, c := range thirdPartyHandlerCases {
		var load strings.Builder
		missing := ""
		var extra []string
		for _, m := range c.modules {
			if !strings.HasSuffix(m, "_module") {
				extra = append(extra, m)
				continue
			}
			l, ok := objects[m]
			if !ok {
				missing = m
				break
			}
			// An object's lines load NDK before it when it needs it.
			for _, line := range strings.SplitAfter(l, "\n") {
				if line != "" && !strings.Contains(load.String(), line) {
					load.WriteString(line)
				}
			}
		}
		if missing != "" {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s: CI=true: %s is not installed (.ci/run installs the lua, set-misc and memc modules)", c.what, missing)
			}
			t.Logf("%s: skipped, %s is not installed", c.what, missing)
			continue
		}
		http := c.http
		if len(extra) > 0 {
			http = strings.Join(extra, "\n    ") + "\n    " + http
		}
		conf := load.String() + "events {}\nhttp {\n    " + http + "\n    server {\n        listen 127.0.0.1:18938;\n" +
			"        location / {\n            " + c.loc + "\n        }\n    }\n}\n"
		res, err := nginxtest.TestData(context.Background(), nginx, []byte(conf), nginxtest.Quiet())
		if err != nil {
			t.Fatal(err)
		}
		errs := res.Errors()
		f := parser.ParseFile("/t/nginx.conf", []byte(conf), &parser.Options{Kinds: analyzer.Kinds})
		cfg := &parser.Config{Main: f, Files: []*parser.File{f}}
		if len(errs) > 0 && strings.HasPrefix(errs[0].Text, "unknown directive") {
			t.Errorf("%s: this build's module lacks the directive: %s", c.what, errs[0])
			continue
		}
		if len(errs) == 0 {
			accepted++
		} else {
			refused++
		}
		for _, target := range []struct {
			name string
			opts analyzer.Options
		}{{"the local build", analyzer.Options{Target: analyzer.BuildTarget(info)}}, {"no target", analyzer.Options{}}} {
			var ours []string
			lines := map[int]bool{}
			var calls []string
			for _, d := range ruleFindings(cfg, reg, target.opts) {
				if d.Severity == parser.Error {
					line := f.Line(int(d.Range.Start))
					ours = append(ours, fmt.Sprintf("%d: %s [%s]", line, d.Message, d.Name))
					lines[line] = true
					calls = append(calls, callOf(d.Message))
				}
			}
			switch {
			case len(errs) == 0 && len(ours) > 0:
				t.Errorf("%s (%s): nginx accepts, the rules report %q:\n%s", c.what, target.name, ours, numberedLines(conf))
			case len(errs) > 0 && !lines[errs[0].Line] && !(errs[0].Line == 0 && slices.Contains(calls, callOf(errs[0].Text))):
				t.Errorf("%s (%s): nginx says %q at line %d, the rules %q:\n%s", c.what, target.name, errs[0].Text, errs[0].Line, ours, numberedLines(conf))
			}
		}
	}
	t.Logf("%d cases: nginx refuses %d, accepts %d", len(thirdPartyHandlerCases), refused, accepted)
	if refused+accepted > 0 && (refused < 20 || accepted < 10) {
		t.Errorf("too few verdicts: refused %d, accepted %d", refused, accepted)
	}
}
