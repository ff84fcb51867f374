//go:build !unix

package testfiles

import "testing"

// Mkfifo skips the test: this system has no named pipes.
func Mkfifo(t testing.TB, path string) string {
	t.Helper()
	t.Skip("no named pipes on this system")
	return path
}
