package tablegen

import (
	"reflect"
	"testing"
)

// A module in the shapes third-party modules write: a mask through a
// macro, a name with a space before its parenthesis, a variable array, a
// variable registered through a static ngx_str_t, directives that define
// the variable their argument names (directly, through NDK, and through
// the lines of their block), and a directive of a block the tables do
// not model.
const moduleSrc = `
#define NGX_X_CONF (NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF)

static ngx_str_t ngx_x_key = ngx_string("x_key");

static ngx_http_variable_t ngx_x_vars[] = {
    { ngx_string("x_status"), NULL, ngx_x_status, 0, 0, 0 },
    { ngx_string("x_arg_"), NULL, ngx_x_arg, 0, NGX_HTTP_VAR_PREFIX, 0 },
    { ngx_null_string, NULL, NULL, 0, 0, 0 }
};

static char *
ngx_x_set(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_str_t *value = cf->args->elts;
    v = ngx_http_add_variable(cf, &value[1], NGX_HTTP_VAR_CHANGEABLE);
    return NGX_CONF_OK;
}

static char *
ngx_x_db(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    cf->handler = ngx_x_db_line;
    return ngx_conf_parse(cf, NULL);
}

static char *
ngx_x_db_line(ngx_conf_t *cf, ngx_command_t *dummy, void *conf)
{
    if (value[0].data[0] == '$') {
        return ngx_x_add(cf);
    }
    return NGX_CONF_OK;
}

static ngx_command_t ngx_x_commands[] = {
    { ngx_string ("x_flag"), NGX_X_CONF|NGX_CONF_FLAG, ngx_conf_set_flag_slot, 0, 0, NULL },
    { ngx_string("x_set"), NGX_HTTP_LOC_CONF|NGX_HTTP_LIF_CONF|NGX_CONF_TAKE2, ngx_x_set, 0, 0, NULL },
    { ngx_string("x_md5"), NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1|NGX_CONF_TAKE2, ndk_set_var_value, 0, 0, NULL },
    { ngx_string("x_db"), NGX_HTTP_MAIN_CONF|NGX_CONF_BLOCK|NGX_CONF_TAKE1, ngx_x_db, 0, 0, NULL },
    { ngx_string("x_rtmp"), NGX_RTMP_MAIN_CONF|NGX_CONF_NOARGS, ngx_x_rtmp, 0, 0, NULL },
    ngx_null_command
};

ngx_module_t ngx_http_x_module = { NGX_MODULE_V1, &ngx_x_ctx, ngx_x_commands, NGX_HTTP_MODULE };

static ngx_int_t
ngx_x_init(ngx_conf_t *cf)
{
    ngx_http_add_variable(cf, &ngx_x_key, NGX_HTTP_VAR_CHANGEABLE);
}
`

func TestScanModuleFiles(t *testing.T) {
	s, err := ScanModuleFiles(map[string]string{"ngx_x.c": moduleSrc})
	if err != nil {
		t.Fatal(err)
	}
	const m = "ngx_http_x_module"
	wantDirs := []ModuleDirective{
		{Name: "x_flag", Module: m, Contexts: []string{"http", "server"}, Args: "FLAG", Defines: -1},
		{Name: "x_set", Module: m, Contexts: []string{"location", "if-in-location"}, Args: "TAKE2", Defines: 0},
		{Name: "x_md5", Module: m, Contexts: []string{"location"}, Args: "TAKE12", Defines: 0},
		{Name: "x_db", Module: m, Contexts: []string{"http"}, Args: "BLOCK+TAKE1", Block: true, Defines: DefinesBlockLines},
	}
	if !reflect.DeepEqual(s.Directives, wantDirs) {
		t.Errorf("directives:\n have %+v\n want %+v", s.Directives, wantDirs)
	}
	wantVars := []ModuleVariable{
		{Name: "x_arg_", Module: m, Prefix: true},
		{Name: "x_key", Module: m},
		{Name: "x_status", Module: m},
	}
	if !reflect.DeepEqual(s.Variables, wantVars) {
		t.Errorf("variables:\n have %+v\n want %+v", s.Variables, wantVars)
	}
}

func TestCanonicalArgs(t *testing.T) {
	for _, tt := range []struct {
		in   []string
		want string
	}{
		{nil, "NOARGS"},
		{[]string{"TAKE3", "TAKE1"}, "TAKE13"},
		{[]string{"1MORE", "NOARGS"}, "1MORE|NOARGS"},
		{[]string{"TAKE12", "NOARGS"}, "NOARGS|TAKE12"},
	} {
		if got := canonicalArgs(tt.in); got != tt.want {
			t.Errorf("canonicalArgs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestScanModuleGuardedInclude: NDK lists its commands in a generated file
// that includes each part's header under a guard it defines there; the
// entries under the guard are read, the declarations after #else are not.
func TestScanModuleGuardedInclude(t *testing.T) {
	s, err := ScanModuleFiles(map[string]string{
		"src/ndk.c": "#include <ndk_config.c>\nngx_module_t ndk_http_module = { NGX_MODULE_V1, &ndk_http_module_ctx, ndk_http_commands, NGX_HTTP_MODULE };\n",
		"objs/ndk_config.c": "static ngx_command_t  ndk_http_commands[] = {\n#if (NDK_UPSTREAM_LIST)\n" +
			"#define NDK_UPSTREAM_LIST_CMDS 1\n#include  <ndk_upstream_list.h>\n#undef  NDK_UPSTREAM_LIST_CMDS\n#endif\n    ngx_null_command\n};\n",
		"src/ndk_upstream_list.h": "\n#if (NDK_UPSTREAM_LIST_CMDS)\n\n{\n    ngx_string (\"upstream_list\"),\n" +
			"    NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_CONF_2MORE,\n    ndk_upstream_list,\n    0,\n    0,\n    NULL\n},\n\n" +
			"#else\n\ntypedef struct {\n    ngx_str_t       **elts;\n} ndk_upstream_list_t;\n\n#endif\n",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []ModuleDirective{{Name: "upstream_list", Module: "ndk_http_module", Contexts: []string{"http", "server"}, Args: "2MORE", Defines: -1}}
	if !reflect.DeepEqual(s.Directives, want) {
		t.Errorf("directives:\n have %+v\n want %+v", s.Directives, want)
	}
}
