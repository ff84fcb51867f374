package openssl

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// cipherCases are lists and OpenSSL's verdict on them (OpenSSL 3.0).
var cipherCases = []struct {
	list string
	want error
}{
	{"HIGH:!aNULL:!MD5", nil},
	{"ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256", nil},
	{"TLS_RSA_WITH_AES_128_GCM_SHA256", ErrNoCipherMatch},
	{"AES128-GCM-SHA256+AES", nil},
	{"AES128-GCM-SHA256+CHACHA20", ErrNoCipherMatch},
	{"x_HIGH", ErrNoCipherMatch},
	{"HIGH:TLS_", nil},
	{"DEFAULT", nil},
	{"DEFAULT:!aNULL", nil},
	{"kRSA+AESGCM", nil},
	{"HIGH:x_y", nil},
	{"HIGH::AES", nil},
	{"HIGH:@STRENGTH", nil},
	{"HIGH:@SECLEVEL=2", nil},
	{"EECDH+AESGCM:EDH+AESGCM", nil},
	{"HIGH:-HIGH:AES", nil},
	{"x", ErrNoCipherMatch},
	{"bogus_x", ErrNoCipherMatch},
	{"aes", ErrNoCipherMatch},
	{"+HIGH", ErrNoCipherMatch},
	{"!HIGH", ErrNoCipherMatch},
	{"HIGH:!HIGH:AES", ErrNoCipherMatch},
	{"aRSA+aECDSA", ErrNoCipherMatch},
	{"DEFAULT:!ALL", ErrNoCipherMatch},
	{"_HIGH", ErrInvalidCommand},
	{"HIGH:_x", ErrInvalidCommand},
	{"HIGH:@FOO", ErrInvalidCommand},
	{"HIGH+", ErrInvalidCommand},
	{"HIGH:-", ErrInvalidCommand},
	{"HIGH:!", ErrInvalidCommand},
	{"HIGH:!!AES", ErrInvalidCommand},
	{"HIGH:@SECLEVEL=x", ErrInvalidCommand},
	{"HIGH:@STRENGTHX", ErrInvalidCommand},
}

// TestCipherList checks the rule engine on lists whose verdict is
// OpenSSL's (see TestCipherListOpenSSL).
func TestCipherList(t *testing.T) {
	for _, c := range cipherCases {
		if got := CipherList(c.list); !errors.Is(got, c.want) && got != c.want {
			t.Errorf("%q: %v, want %v", c.list, got, c.want)
		}
	}
}

// TestCipherListOpenSSL asks the machine's openssl about the same lists
// and more: "openssl ciphers" fails exactly where CipherList does, with
// the same reason.
func TestCipherListOpenSSL(t *testing.T) {
	if _, err := exec.LookPath("openssl"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("openssl is missing under CI=true")
		}
		t.Skip("no openssl command")
	}
	lists := []string{"ALL", "COMPLEMENTOFALL", "eNULL", "NULL:!eNULL", "RC4", "MEDIUM", "LOW:MEDIUM",
		"aNULL", "!aNULL:HIGH", "AESCCM8", "CHACHA20:!ECDSA", "SHA256+kRSA", "TLSv1.2+CAMELLIA",
		"DEFAULT:COMPLEMENTOFDEFAULT", "DEFAULT:eNULL", "PSK", "SRP", "kGOST", "FIPS", "3DES",
		"ECDHE+AESGCM:ECDHE+CHACHA20:!aNULL", "COMPLEMENTOFDEFAULT", "SSLv3", "TLSv1"}
	for _, c := range cipherCases {
		lists = append(lists, c.list)
	}
	for _, l := range lists {
		out, err := exec.Command("openssl", "ciphers", l).CombinedOutput()
		var want error
		switch {
		case err == nil:
		case strings.Contains(string(out), "invalid command"):
			want = ErrInvalidCommand
		case strings.Contains(string(out), "no cipher match"):
			want = ErrNoCipherMatch
		default:
			t.Fatalf("openssl ciphers %q: %v: %s", l, err, out)
		}
		if got := CipherList(l); got != want {
			t.Errorf("%q: %v, openssl says %v", l, got, want)
		}
	}
}

func TestConfCommand(t *testing.T) {
	for name, want := range map[string]bool{"Options": true, "options": true, "CipherString": true,
		"NumTickets": true, "a": false, "no_ssl3": false, "-no_ssl3": false} {
		if ConfCommand(name) != want {
			t.Errorf("%q: %v", name, !want)
		}
	}
}
