package buildinfo

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// debianV is "nginx -V" of Debian 12's nginx package (1.22.1).
const debianV = `nginx version: nginx/1.22.1
built with OpenSSL 3.0.22 25 Aug 2026 (running with OpenSSL 3.0.19 27 Jan 2026)
TLS SNI support enabled
configure arguments: --with-cc-opt='-g -O2 -ffile-prefix-map=/build/reproducible-path/nginx-1.22.1=. -fstack-protector-strong -Wformat -Werror=format-security -fPIC -Wdate-time -D_FORTIFY_SOURCE=2' --with-ld-opt='-Wl,-z,relro -Wl,-z,now -fPIC' --prefix=/usr/share/nginx --conf-path=/etc/nginx/nginx.conf --with-compat --with-debug --with-pcre-jit --with-http_ssl_module --with-http_stub_status_module --with-http_realip_module --with-http_v2_module --with-http_sub_module --with-threads --with-http_geoip_module=dynamic --with-mail=dynamic --with-stream=dynamic --without-http_memcached_module --add-dynamic-module=/build/lua-nginx-module
`

func TestParseDebian(t *testing.T) {
	info, err := Parse(debianV)
	if err != nil {
		t.Fatal(err)
	}
	if info.Version != "1.22.1" || info.Variant != "nginx" || !strings.HasPrefix(info.OpenSSL, "OpenSSL 3.0.22") {
		t.Errorf("version %q %q %q", info.Variant, info.Version, info.OpenSSL)
	}
	if info.Optimization != "-O2" || !info.Debug || info.PerfTools {
		t.Errorf("optimization %q debug %v perftools %v", info.Optimization, info.Debug, info.PerfTools)
	}
	if !strings.Contains(info.CCOpt, "-fstack-protector-strong") || info.LDOpt != "-Wl,-z,relro -Wl,-z,now -fPIC" {
		t.Errorf("cc %q ld %q", info.CCOpt, info.LDOpt)
	}
	mods := info.Modules()
	for _, m := range []string{"ngx_http_ssl_module", "ngx_openssl_module", "ngx_http_sub_filter_module",
		"ngx_http_rewrite_module", "ngx_stream_core_module", "ngx_stream_proxy_module", "ngx_mail_smtp_module",
		"ngx_http_geoip_module", "ngx_thread_pool_module", "ngx_http_lua_module", "ngx_http_gzip_filter_module"} {
		if !mods[m] {
			t.Errorf("missing %s", m)
		}
	}
	for _, m := range []string{"ngx_http_memcached_module", "ngx_http_v3_module", "ngx_http_dav_module", "ngx_google_perftools_module"} {
		if mods[m] {
			t.Errorf("unexpected %s", m)
		}
	}
	if diff := cmp.Diff([]string{"ngx_http_memcached_module"}, info.Without); diff != "" {
		t.Error(diff)
	}
}

func TestDefaultsAndAudit(t *testing.T) {
	info, err := Parse("nginx version: nginx/1.27.0\nbuilt by gcc 12.2.0 (Debian 12.2.0-14)\nconfigure arguments: --with-cpu-opt=opteron --with-google_perftools_module\n")
	if err != nil {
		t.Fatal(err)
	}
	if info.Optimization != "-O" || info.CPUOpt != "opteron" || !info.PerfTools || info.Compiler != "gcc 12.2.0 (Debian 12.2.0-14)" {
		t.Errorf("%+v", info)
	}
	if info.HasModule("ngx_stream_core_module") {
		t.Error("stream is off by default")
	}
	var msgs []string
	for _, f := range info.Audit() {
		msgs = append(msgs, string(f.Severity)+": "+f.Message)
	}
	want := []string{"info: optimisation level -O", "info: tuned for CPU opteron (--with-cpu-opt)",
		"info: google_perftools_module built in", "info: nginx 1.27.0"}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Error(diff)
	}
	o0, _ := Parse("nginx version: nginx/1.27.0\nconfigure arguments: --with-cc-opt='-O0 -g'\n")
	if f := o0.Audit()[0]; f.Severity != Warning {
		t.Errorf("-O0: %+v", f)
	}
}

func TestNotNginx(t *testing.T) {
	if _, err := Parse("hello\n"); err == nil {
		t.Error("accepted garbage")
	}
	if _, err := Parse("nginx version: nginx/1.2.3\nconfigure arguments: --with-cc-opt='-O2\n"); err == nil {
		t.Error("accepted an unterminated quote")
	}
}

// TestLocalNginx reads the installed nginx's own -V output when there is
// one; the Debian build has ssl and no memcached-less surprises.
func TestLocalNginx(t *testing.T) {
	path, err := exec.LookPath("nginx")
	if err != nil {
		path = "/usr/sbin/nginx"
	}
	out, err := exec.Command(path, "-V").CombinedOutput()
	if err != nil {
		t.Skipf("no nginx to ask: %v", err)
	}
	info, err := Parse(string(out))
	if err != nil {
		t.Fatal(err)
	}
	if info.Version == "" || !info.HasModule("ngx_http_core_module") {
		t.Errorf("%+v", info)
	}
}
