package buildinfo

import "slices"

// alwaysModules are part of every build that has http (nginx's auto/modules
// adds them unconditionally).
var alwaysModules = []string{
	"ngx_core_module", "ngx_errlog_module", "ngx_conf_module", "ngx_regex_module",
	"ngx_events_module", "ngx_event_core_module", "ngx_epoll_module",
	"ngx_http_module", "ngx_http_core_module", "ngx_http_log_module", "ngx_http_upstream_module",
	"ngx_http_static_module", "ngx_http_index_module", "ngx_http_headers_filter_module",
	"ngx_http_copy_filter_module", "ngx_http_try_files_module", "ngx_http_tunnel_module",
	"ngx_openssl_cache_module",
}

// defaultModules are on unless configure says --without-<name>. Stream
// and mail defaults come with --with-stream and --with-mail.
var defaultModules = []string{
	"ngx_http_charset_module", "ngx_http_gzip_module", "ngx_http_ssi_module",
	"ngx_http_userid_module", "ngx_http_access_module", "ngx_http_auth_basic_module",
	"ngx_http_mirror_module", "ngx_http_autoindex_module", "ngx_http_geo_module",
	"ngx_http_map_module", "ngx_http_split_clients_module", "ngx_http_referer_module",
	"ngx_http_rewrite_module", "ngx_http_proxy_module", "ngx_http_fastcgi_module",
	"ngx_http_uwsgi_module", "ngx_http_scgi_module", "ngx_http_grpc_module",
	"ngx_http_memcached_module", "ngx_http_limit_conn_module", "ngx_http_limit_req_module",
	"ngx_http_empty_gif_module", "ngx_http_browser_module", "ngx_http_upstream_hash_module",
	"ngx_http_upstream_ip_hash_module", "ngx_http_upstream_least_conn_module",
	"ngx_http_upstream_random_module", "ngx_http_upstream_keepalive_module",
	"ngx_http_upstream_zone_module",

	"ngx_stream_core_module", "ngx_stream_proxy_module", "ngx_stream_upstream_module",
	"ngx_stream_log_module", "ngx_stream_limit_conn_module", "ngx_stream_access_module",
	"ngx_stream_geo_module", "ngx_stream_map_module", "ngx_stream_split_clients_module",
	"ngx_stream_return_module", "ngx_stream_set_module", "ngx_stream_pass_module",
	"ngx_stream_upstream_hash_module", "ngx_stream_upstream_least_conn_module",
	"ngx_stream_upstream_random_module", "ngx_stream_upstream_zone_module",

	"ngx_mail_core_module", "ngx_mail_pop3_module", "ngx_mail_imap_module",
	"ngx_mail_smtp_module", "ngx_mail_auth_http_module", "ngx_mail_proxy_module",
	"ngx_mail_realip_module",
}

// moduleAliases are the other source modules a configure flag brings.
var moduleAliases = map[string][]string{
	"ngx_http_ssl_module":          {"ngx_openssl_module"},
	"ngx_stream_ssl_module":        {"ngx_openssl_module"},
	"ngx_mail_ssl_module":          {"ngx_openssl_module"},
	"ngx_http_v3_module":           {"ngx_quic_bpf_module"},
	"ngx_http_js_module":           {"ngx_http_js_core_module"},
	"ngx_stream_js_module":         {"ngx_stream_js_core_module"},
	"ngx_stream_module":            {"ngx_stream_core_module"},
	"ngx_mail_module":              {"ngx_mail_core_module"},
	"ngx_http_image_filter_module": {"ngx_http_image_filter_module"},
}

// thirdPartyMarkers recognise well-known third-party modules by the path
// given to --add-module.
var thirdPartyMarkers = map[string][]string{
	"lua-nginx-module":          {"ngx_http_lua_module"},
	"headers-more-nginx-module": {"ngx_http_headers_more_filter_module"},
	"njs":                       {"ngx_http_js_module", "ngx_http_js_core_module", "ngx_stream_js_module", "ngx_stream_js_core_module"},
	"nginx-acme":                {"ngx_http_acme_module"},
	// The modules of analyzer/directives/modules.tsv, by the name of
	// their repository (and of Debian's source package where it differs).
	"stream-lua-nginx-module":              {"ngx_stream_lua_module"},
	"echo-nginx-module":                    {"ngx_http_echo_module"},
	"memc-nginx-module":                    {"ngx_http_memc_module"},
	"set-misc-nginx-module":                {"ngx_http_set_misc_module"},
	"srcache-nginx-module":                 {"ngx_http_srcache_filter_module"},
	"redis2-nginx-module":                  {"ngx_http_redis2_module"},
	"encrypted-session-nginx-module":       {"ngx_http_encrypted_session_module"},
	"array-var-nginx-module":               {"ngx_http_array_var_module"},
	"drizzle-nginx-module":                 {"ngx_http_drizzle_module"},
	"rds-json-nginx-module":                {"ngx_http_rds_json_filter_module"},
	"xss-nginx-module":                     {"ngx_http_xss_filter_module"},
	"ngx_devel_kit":                        {"ndk_http_module"},
	"ngx_postgres":                         {"ngx_postgres_module"},
	"ngx_http_geoip2_module":               {"ngx_http_geoip2_module", "ngx_stream_geoip2_module"},
	"ngx-fancyindex":                       {"ngx_http_fancyindex_module"},
	"nginx-dav-ext-module":                 {"ngx_http_dav_ext_module"},
	"ngx_cache_purge":                      {"ngx_http_cache_purge_module"},
	"ngx_http_substitutions_filter_module": {"ngx_http_subs_filter_module"},
	"nginx-upload-progress-module":         {"ngx_http_uploadprogress_module"},
	"nginx-upstream-fair":                  {"ngx_http_upstream_fair_module"},
	"ngx_http_auth_pam_module":             {"ngx_http_auth_pam_module"},
	"ngx_brotli":                           {"ngx_http_brotli_filter_module", "ngx_http_brotli_static_module"},
	"nchan":                                {"ngx_nchan_module"},
	"nginx-module-vts":                     {"ngx_http_vhost_traffic_status_module"},
	"ModSecurity-nginx":                    {"ngx_http_modsecurity_module"},
	"nginx-auth-ldap":                      {"ngx_http_auth_ldap_module"},
	"zstd-nginx-module":                    {"ngx_http_zstd_filter_module", "ngx_http_zstd_static_module"},
}

// InDefaultBuild reports whether a plain ./configure builds module: one
// nginx always has, or one on unless configure says --without-<name>
// (stream and mail ones count: they come with their group).
func InDefaultBuild(module string) bool {
	return slices.Contains(alwaysModules, module) || slices.Contains(defaultModules, module)
}
