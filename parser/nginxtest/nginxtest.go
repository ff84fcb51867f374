package nginxtest

import (
	"os"
	"testing"

	"github.com/nginx-lint/nginx-lint/internal/nginxrun"
)

// The runtime, under the names the tests use; see internal/nginxrun.
type (
	// Message is one line of nginx's error output.
	Message = nginxrun.Message
	// Result is what one `nginx -t` printed and how it exited.
	Result = nginxrun.Result
	// Option changes how Test and Start run nginx.
	Option = nginxrun.Option
)

// EnvVar names the environment variable that overrides where Find looks
// for nginx.
const EnvVar = nginxrun.EnvVar

// ErrNotLoopback is returned, without running nginx, for a configuration
// that would listen or log beyond this machine.
var ErrNotLoopback = nginxrun.ErrNotLoopback

// Functions of the runtime; see internal/nginxrun.
var (
	Find           = nginxrun.Find
	Version        = nginxrun.Version
	Test           = nginxrun.Test
	TestData       = nginxrun.TestData
	CheckLoopback  = nginxrun.CheckLoopback
	ParseMessages  = nginxrun.ParseMessages
	WithTimeout    = nginxrun.WithTimeout
	WithPrefix     = nginxrun.WithPrefix
	WithGlobal     = nginxrun.WithGlobal
	Quiet          = nginxrun.Quiet
	InPrivateNetns = nginxrun.InPrivateNetns
)

// Require returns the nginx binary for a test that needs it. When nginx
// is missing it skips the test, except under CI=true, where it fails the
// test instead: CI installs nginx, so a missing binary there means the
// oracle tests silently stopped running. A $NGINX that names no
// executable fails the test too, since someone asked for that binary.
func Require(t testing.TB) string {
	t.Helper()
	p, err := nginxrun.Find()
	if err == nil {
		return p
	}
	if os.Getenv(EnvVar) != "" {
		t.Fatal(err)
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%v (CI=true: nginx is required; install nginx-light or set $%s)", err, EnvVar)
	}
	t.Skipf("skipping: %v (install nginx-light or set $%s to run this test)", err, EnvVar)
	return ""
}
