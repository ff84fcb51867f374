package buildinfo

import (
	"slices"
	"testing"
)

// Debian 12's nginx -V: stream, mail and a few http modules are shared
// objects; the stream and mail modules configure names separately
// (--with-stream_ssl_module) are inside the group's object.
func TestDynamicModules(t *testing.T) {
	info, err := Parse("nginx version: nginx/1.22.1\nconfigure arguments: --with-http_ssl_module " +
		"--with-stream_ssl_module --with-http_geoip_module=dynamic --with-http_xslt_module=dynamic " +
		"--with-stream=dynamic --with-mail=dynamic --with-stream_geoip_module=dynamic\n")
	if err != nil {
		t.Fatal(err)
	}
	dyn := info.DynamicModules()
	for m, obj := range map[string]string{
		"ngx_http_geoip_module":       "ngx_http_geoip_module",
		"ngx_http_xslt_filter_module": "ngx_http_xslt_module",
		"ngx_stream_module":           "ngx_stream_module",
		"ngx_stream_core_module":      "ngx_stream_module",
		"ngx_stream_proxy_module":     "ngx_stream_module",
		"ngx_stream_ssl_module":       "ngx_stream_module",
		"ngx_stream_geoip_module":     "ngx_stream_geoip_module",
		"ngx_mail_core_module":        "ngx_mail_module",
	} {
		if dyn[m] != obj {
			t.Errorf("%s is in object %q, want %q", m, dyn[m], obj)
		}
	}
	for _, m := range []string{"ngx_http_ssl_module", "ngx_openssl_module", "ngx_http_core_module", "ngx_http_gzip_module"} {
		if _, ok := dyn[m]; ok {
			t.Errorf("%s is dynamic", m)
		}
	}
	for m, want := range map[string]string{
		"ngx_http_xslt_filter_module": "ngx_http_xslt_module",
		"ngx_stream_ssl_module":       "ngx_stream_module",
		"ngx_mail_core_module":        "ngx_mail_module",
	} {
		if names := ObjectNames(m); !slices.Contains(names, want) || names[0] != m {
			t.Errorf("ObjectNames(%s) = %v, want %s among them", m, names, want)
		}
	}
}

// An --add-module of a module no table knows may define any name; the
// known ones are recognised by their repository's name.
func TestUnrecognizedThirdParty(t *testing.T) {
	info, err := Parse("nginx version: nginx/1.25.3\nconfigure arguments: --add-module=../echo-nginx-module-0.63 " +
		"--add-dynamic-module=/build/nginx-vod-module --add-module=../ngx_devel_kit\n")
	if err != nil {
		t.Fatal(err)
	}
	if got := info.UnrecognizedThirdParty(); !slices.Equal(got, []string{"/build/nginx-vod-module"}) {
		t.Errorf("UnrecognizedThirdParty() = %q", got)
	}
	if m := info.Modules(); !m["ngx_http_echo_module"] || !m["ndk_http_module"] {
		t.Errorf("the known third-party modules are not in the build: %v", m)
	}
}
