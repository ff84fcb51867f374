package rules

import (
	"strings"

	"github.com/nginx-lint/nginx-lint/internal/ipaddr"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// nginxURL is what ngx_parse_url makes of an upstream address (the
// listen directive has its own grammar in parser/grammar).
type nginxURL struct {
	// host is the host as written ("[::1]" keeps its brackets), or the
	// socket path for unix.
	host string
	port int
	// noPort is set when no port was written (port is then the default).
	noPort bool
	// uri is the "/path" or "?args" part, when uriPart allowed one.
	uri  string
	unix bool
	// addr is set when host is a literal IP address.
	addr bool
	// err is nginx's u->err ("invalid port", ...), "" when the address
	// parses.
	err string
}

// parseNginxURL follows ngx_parse_url for addresses that are not listen
// sockets: uriPart allows a URI after the address (proxy_pass), and
// defaultPort is used when no port is written (0: none).
func parseNginxURL(s string, uriPart bool, defaultPort int) nginxURL {
	if len(s) >= 5 && strings.EqualFold(s[:5], "unix:") {
		path := s[5:]
		var u nginxURL
		if uriPart {
			if i := strings.IndexByte(path, ':'); i >= 0 {
				path, u.uri = path[:i], path[i+1:]
			}
		}
		u.unix, u.host = true, path
		switch {
		case path == "":
			u.err = "no path in the unix domain socket"
		case len(path)+1 > 108:
			u.err = "too long path in the unix domain socket"
		}
		return u
	}
	if strings.HasPrefix(s, "[") {
		return parseInet6URL(s, uriPart, defaultPort)
	}
	return parseInetURL(s, uriPart, defaultPort)
}

func parseInetURL(s string, uriPart bool, defaultPort int) nginxURL {
	var u nginxURL
	last := len(s)
	port := strings.IndexByte(s, ':')
	uri := strings.IndexAny(s, "/?")
	if uri >= 0 {
		if !uriPart {
			u.err = "invalid host"
			return u
		}
		u.uri = s[uri:]
		last = uri
		if uri < port {
			port = -1
		}
	}
	if port >= 0 {
		n, ok := grammar.Atoi(s[port+1 : last])
		if !ok || n < 1 || n > 65535 {
			u.err = "invalid port"
			return u
		}
		u.port = n
		last = port
	} else {
		u.noPort, u.port = true, defaultPort
	}
	if last == 0 {
		u.err = "no host"
		return u
	}
	u.host = s[:last]
	if a, ok := ipaddr.Parse(u.host); ok && a.Is4() {
		u.addr = true
	}
	return u
}

func parseInet6URL(s string, uriPart bool, defaultPort int) nginxURL {
	var u nginxURL
	end := strings.IndexByte(s, ']')
	if end < 0 {
		u.err = "invalid host"
		return u
	}
	rest := s[end+1:]
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		if !uriPart {
			u.err = "invalid host"
			return u
		}
		u.uri = rest[i:]
		rest = rest[:i]
	}
	if rest != "" {
		if rest[0] != ':' {
			u.err = "invalid host"
			return u
		}
		n, ok := grammar.Atoi(rest[1:])
		if !ok || n < 1 || n > 65535 {
			u.err = "invalid port"
			return u
		}
		u.port = n
	} else {
		u.noPort, u.port = true, defaultPort
	}
	if end == 1 {
		u.err = "no host"
		return u
	}
	// The listen grammar holds nginx's IPv6 syntax (ngx_inet6_addr).
	if _, err := grammar.ParseListen([]string{s[:end+1]}); err != nil {
		u.err = "invalid IPv6 address"
		return u
	}
	u.host, u.addr = s[:end+1], true
	return u
}
