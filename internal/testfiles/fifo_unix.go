//go:build unix

package testfiles

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Mkfifo makes a named pipe at path (and the directories above it): a
// file that blocks whoever opens it for reading, for the tests that a
// reader must refuse without opening. On systems without FIFOs the test
// is skipped.
func Mkfifo(t testing.TB, path string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
