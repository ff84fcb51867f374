package directives

import "testing"

func TestLookupVariable(t *testing.T) {
	tests := []struct {
		name   string
		want   string // Variable.String(), "" for not found
		module string
	}{
		{"$host", "$host", "ngx_http_core_module"},
		{"host", "$host", "ngx_http_core_module"},
		{"$HOST", "$host", "ngx_http_core_module"}, // nginx lower-cases names
		{"$remote_addr", "$remote_addr", "ngx_http_core_module"},
		{"$arg_page", "$arg_*", "ngx_http_core_module"},
		{"$arg_", "$arg_*", "ngx_http_core_module"}, // nginx accepts an empty suffix
		{"$http_x_request_id", "$http_*", "ngx_http_core_module"},
		{"$HTTP_User_Agent", "$http_user_agent", "ngx_http_core_module"},
		{"$http_host", "$http_host", "ngx_http_core_module"},
		{"$upstream_http_server", "$upstream_http_*", "ngx_http_upstream_module"},
		{"$sent_http_x_foo", "$sent_http_*", "ngx_http_core_module"},
		{"$proxy_protocol_tlv_0x31", "$proxy_protocol_tlv_*", "ngx_http_core_module"},
		{"$jwt_claim_sub", "$jwt_claim_*", "ngx_http_auth_jwt_module"},
		{"$no_such_variable", "", ""},
		{"$", "", ""},
		{"", "", ""},
		{"$1", "", ""},
	}
	for _, tt := range tests {
		v, ok := LookupVariable(tt.name)
		switch {
		case ok != (tt.want != ""):
			t.Errorf("LookupVariable(%q) ok = %v", tt.name, ok)
		case ok && (v.String() != tt.want || v.Module != tt.module):
			t.Errorf("LookupVariable(%q) = %s/%s, want %s/%s", tt.name, v, v.Module, tt.want, tt.module)
		}
	}
}

func TestLookupVariables(t *testing.T) {
	tests := []struct {
		name    string
		modules []string
	}{
		{"$remote_addr", []string{"ngx_http_core_module", "ngx_stream_core_module"}},
		{"$server_name", []string{"ngx_http_core_module", "ngx_stream_core_module"}},
		{"$proxy_protocol_tlv_foo", []string{"ngx_http_core_module", "ngx_stream_core_module"}},
		{"$proxy_protocol_tlv_aws_vpce_id", []string{"ngx_http_proxy_protocol_vendor_module", "ngx_stream_proxy_protocol_vendor_module"}},
		{"$host", []string{"ngx_http_core_module"}},
		{"$nope", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, v := range LookupVariables(tt.name) {
			got = append(got, v.Module)
		}
		if len(got) != len(tt.modules) {
			t.Errorf("LookupVariables(%q) = %v, want %v", tt.name, got, tt.modules)
			continue
		}
		for i := range got {
			if got[i] != tt.modules[i] {
				t.Errorf("LookupVariables(%q) = %v, want %v", tt.name, got, tt.modules)
				break
			}
		}
	}
	for _, v := range LookupVariables("$remote_addr") {
		if v.Stream != (v.Module == "ngx_stream_core_module") {
			t.Errorf("%s/%s: Stream = %v", v, v.Module, v.Stream)
		}
	}
}
