// Package costmodel estimates what a configuration costs nginx at startup,
// at `nginx -t` and at reload, from the parsed configuration alone: no
// I/O, no nginx. It is a derived result: Compute builds it once from a
// parser.Model; the rules share one per analysis through an
// analyzer.Result (costpass.Model, in the package beside this one), and
// the lint session hands that one to the other readers of the
// configuration (lint.Unit.CostModel: the cost command, the language
// server).
//
// The model follows nginx 1.22's code paths; every term names the function
// it stands for:
//
//   - listen instances, grouped by protocol, address family and port in
//     order of appearance (ngx_http_add_listen, ngx_stream_add_ports,
//     ngx_mail_add_ports); a server without listen gets *:80 (*:8000 when
//     nginx does not run as root, see Options.NonRoot), added when servers
//     are merged, that is after every explicit listen;
//   - config-time scans with their exact operation counts: the port scan of
//     ngx_http_add_listen, the address scan of ngx_http_add_addresses (the
//     quadratic one when many addresses share a port), the duplicate-server
//     scan of ngx_http_add_server, the insertion sort of ngx_sort with
//     ngx_http_cmp_conf_addrs, and per-server and per-location work;
//   - sockets, exactly: a wildcard address absorbs the other addresses of
//     its port unless their listen forces a socket of its own
//     (ngx_http_init_listening); reuseport sockets are cloned per worker at
//     start (ngx_event_init_conf, ngx_clone_listening) but not under -t;
//   - the server_names hash of every address with more than one server,
//     simulated key by key as ngx_hash_init and ngx_hash_wildcard_init do,
//     with the warning and fatal cases and the smallest settings that avoid
//     them;
//   - limits (worker_connections, open files) and start failures that
//     `nginx -t` does not see (bind conflicts it ignores in test mode);
//   - reload: the signaller and the master both parse the configuration,
//     the master matches old and new sockets pairwise and sleeps 100 ms.
//
// Seconds are operation counts times per-operation costs from a Profile;
// DefaultProfile was measured on a reference machine (see its Source), and
// Fit derives a profile from local measurements (package calibrate, run by
// nginx-lint calibrate).
// Costs nobody measured are marked as assumptions in the profile and in the
// report rather than passed off as measurements.
package costmodel
