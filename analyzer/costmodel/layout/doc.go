// Package layout generates the synthetic nginx configurations of the
// many-servers benchmark that nginx-lint started from.
//
// A layout crosses how servers listen with how they are named:
//
//	L1  one IP (127.0.0.1), every server on its own port
//	L2  one port, every server on its own loopback IP inside 127.0.0.0/8
//	L3  every server on the same IP:port
//
//	a   no server_name
//	b   the same server_name in every server
//	c   a different server_name in every server (perf-test-00001.example, ...)
//
// which gives the nine names L1a, L1b, ... L3c. The output is a complete
// main configuration that `nginx -t -p PREFIX -c FILE` accepts when run
// as a non-root user: every path nginx would write (pid, error log, temp
// directories) is relative to the prefix, and nothing outside the loopback
// network is ever listened on.
//
// The text is deterministic for given Options so tests can compare it
// byte for byte, and the per-server hook (Options.Server) lets cost-model
// tests vary listen parameters (reuseport, bind, [::1], wildcards) without
// a second generator.
package layout
