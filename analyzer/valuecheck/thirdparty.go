package valuecheck

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nginx-lint/nginx-lint/internal/ngxparse"
	"github.com/nginx-lint/nginx-lint/internal/openssl"
)

// This file holds the handlers of third-party modules' directives that
// check more than nginx's slots do, read from the modules' C sources
// (lua-nginx-module v0.10.23 as Debian ships it, set-misc, NDK); they are
// filed in customHandlers under the family of their module.

// luaSharedDict is ngx_http_lua_shared_dict: a name, and a size over 8k
// (ngx_parse_size; an invalid size is -1). The zone's own records need
// three memory pages: a smaller one fails when nginx creates it
// (ngx_slab_alloc, with no line).
func luaSharedDict(c *call) *Error {
	if len(c.args) != 2 {
		return nil
	}
	if c.args[0] == "" {
		return errorf(0, "the first argument names the dictionary", "invalid lua shared dict name %q", c.args[0])
	}
	n, ok := ngxparse.ParseSize(c.args[1])
	if !ok || n <= 8191 {
		return errorf(1, "the size is more than 8k (12k at least: a smaller zone has no room for its records)",
			"invalid lua shared dict size %q", c.args[1])
	}
	if n < 3*pageSize {
		return errorf(1, "a lua shared dict takes at least three memory pages (12k) for its own records; "+
			"nginx fails to start when it creates the zone", "ngx_slab_alloc() failed: no memory")
	}
	return nil
}

// cipherListError words the failure of SSL_CTX_set_cipher_list.
func cipherListError(arg int, call string, err error) *Error {
	detail := "OpenSSL selects no TLS 1.2 cipher with this list (an unknown name selects nothing); " +
		"the module creates its SSL context at startup, so nginx refuses to start (\"openssl ciphers LIST\" shows what a list selects)"
	if errors.Is(err, openssl.ErrInvalidCommand) {
		detail = "a word of a cipher list starts with a letter, a digit, \"-\" or \".\", after an optional \"!\", \"-\" or \"+\"; " +
			"\"@\" takes only STRENGTH and SECLEVEL=0 to 5"
	}
	return errorf(arg, detail, "%s failed (%v)", call, err)
}

// luaSSLCiphers is the cipher list ngx_http_lua_set_ssl gives
// SSL_CTX_set_cipher_list when it merges every location's settings.
func luaSSLCiphers(c *call) *Error {
	if err := openssl.CipherList(c.args[0]); err != nil {
		return cipherListError(0, fmt.Sprintf("SSL_CTX_set_cipher_list(%q)", c.args[0]), err)
	}
	return nil
}

// luaSSLConfCommand is what ngx_ssl_conf_commands hands SSL_CONF_cmd: a
// command OpenSSL knows, and for CipherString a list that selects a
// cipher.
func luaSSLConfCommand(c *call) *Error {
	if len(c.args) != 2 {
		return nil
	}
	call := fmt.Sprintf("SSL_CONF_cmd(%q, %q)", c.args[0], c.args[1])
	if !openssl.ConfCommand(c.args[0]) {
		return errorf(0, "OpenSSL's SSL_CONF commands are Options, Protocol, MinProtocol, MaxProtocol, CipherString, "+
			"Ciphersuites, Groups, Curves, SignatureAlgorithms, ...; the module applies them at startup", "%s failed (unknown cmd name)", call)
	}
	if strings.EqualFold(c.args[0], "CipherString") {
		if err := openssl.CipherList(c.args[1]); err != nil {
			return cipherListError(1, call, err)
		}
	}
	return nil
}

// luaMallocTrim is ngx_http_lua_malloc_trim: a number (ngx_atoi).
func luaMallocTrim(c *call) *Error {
	if _, ok := ngxparse.Atoi(c.args[0]); !ok {
		return c.invalid(0, "invalid number in the 1st argument", "the argument is the number of requests between trims (0 turns it off)")
	}
	return nil
}

// numSlot is a handler that hands its value to ngx_conf_set_num_slot.
func numSlot(c *call) *Error {
	if _, ok := ngxparse.Atoi(c.args[0]); !ok {
		return c.invalid(0, "invalid number", "the argument is a number")
	}
	return nil
}

// base32Alphabet is ngx_http_set_misc_base32_alphabet: exactly 32 bytes.
func base32Alphabet(c *call) *Error {
	if n := len(c.args[0]); n != 32 {
		return errorf(0, "a base32 alphabet has 32 characters, one per 5-bit value",
			"\"set_base32_alphabet\" directive takes an alphabet of %d bytes but 32 expected", n)
	}
	return nil
}

// upstreamList is NDK's ndk_upstream_list: a name, then upstream names,
// each with an optional "WEIGHT:" prefix.
func upstreamList(c *call) *Error {
	for i := 1; i < len(c.args); i++ {
		s := c.args[i]
		j := 0
		for j < len(s) && '0' <= s[j] && s[j] <= '9' {
			j++
		}
		switch {
		case j == 0:
		case j == len(s):
			return errorf(i, "an entry is an upstream's name, or WEIGHT:name", "upstream list just consists of number %q", s)
		case s[j] != ':':
			return errorf(i, "an entry is an upstream's name, or WEIGHT:name", "upstream list not correct format %q", s)
		}
	}
	return nil
}

// memcCommands are the memcached commands memc-nginx-module speaks.
var memcCommands = map[string]bool{"get": true, "set": true, "add": true, "replace": true, "append": true,
	"prepend": true, "delete": true, "incr": true, "decr": true, "flush_all": true, "stats": true, "version": true}

// memcCmdsAllowed is ngx_http_memc_cmds_allowed: each argument one of
// the commands memc knows, spelt in lower case.
func memcCmdsAllowed(c *call) *Error {
	for i, a := range c.args {
		if !memcCommands[a] {
			return errorf(i, "memc knows get, set, add, replace, append, prepend, delete, incr, decr, flush_all, stats and version",
				"Unknown memcached command %q used in %q", a, c.name)
		}
	}
	return nil
}
