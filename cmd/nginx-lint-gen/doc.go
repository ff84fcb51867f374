// Command nginx-lint-gen writes the synthetic many-servers nginx
// configurations that nginx-lint is benchmarked and tested against.
//
// Usage:
//
//	nginx-lint-gen -layout L2c -n 19900 [-o FILE]
//	nginx-lint-gen -all DIR -n 19900
//
// The first form writes one layout to FILE (standard output by default);
// the second writes all nine layouts as DIR/L1a.conf ... DIR/L3c.conf.
// -port, -ip, -workers and -worker-connections override the defaults of
// package layout. The output is meant for `nginx -t -p PREFIX -c FILE`
// with PREFIX any writable directory.
//
// The generator itself lives in package layout (analyzer/costmodel/layout)
// so that tests and nginx-lint calibrate can use it without going through
// files; this command only parses flags.
package main
