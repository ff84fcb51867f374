// Package nginxtest lets Go tests use the real nginx as their oracle: the
// runtime of internal/nginxrun under the names the tests have always
// used, and Require, which finds nginx for a test, skipping it when nginx
// is missing (and failing it under CI=true, where a missing nginx is a
// broken environment rather than a developer laptop).
//
// It imports testing, so only tests import it; the binary uses
// internal/nginxrun directly (TestBinaryLinksNoTesting in cmd/nginx-lint).
package nginxtest
