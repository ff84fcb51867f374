package directives

// UpstreamServerParams are the parameters of "server" in an upstream
// block that open-source nginx knows in its newest release, as written
// (a parameter taking a value ends in "="), from ngx_http_upstream_server
// and ngx_stream_upstream_server (the same list in both): resolve and
// service= need the upstream's zone (since 1.27.3). drain and route=, an
// http upstream's since 1.29.6 (ngx_http_upstream_sticky_module), are not
// among them: stream's upstream lacks them.
var upstreamServerParams = []string{"weight=", "max_conns=", "max_fails=", "fail_timeout=", "backup", "down", "resolve", "service="}

// UpstreamServerParams returns the parameters of an upstream's server
// (see upstreamServerParams), for completion and fixes.
func UpstreamServerParams() []string { return append([]string(nil), upstreamServerParams...) }
