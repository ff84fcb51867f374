package ngxparse

import "strings"

// URL is what ngx_parse_url makes of an upstream address, a resolver's
// name server or a *_pass target without its scheme (the listen
// directive has its own grammar, parser/grammar).
type URL struct {
	// Host is the host as written ("[::1]" keeps its brackets), or the
	// socket path for unix:; with Err "invalid port", the host before
	// that port, for the rules that still judge the name.
	Host string
	Port int
	// NoPort is set when no port was written (Port is then the default).
	NoPort bool
	// URI is the "/path" or "?args" part, when the caller allows one.
	URI  string
	Unix bool
	// Addr is set when Host is an IPv4 (ngx_inet_addr) or a bracketed
	// IPv6 literal.
	Addr bool
	// Err is nginx's u->err ("invalid port", ...), "" when the address
	// parses.
	Err string
}

// ParseURL follows ngx_parse_url for addresses that are not listen
// sockets: uriPart allows a URI after the address (proxy_pass), and
// defaultPort is used when no port is written (0: none).
func ParseURL(s string, uriPart bool, defaultPort int) URL {
	if len(s) >= 5 && strings.EqualFold(s[:5], "unix:") {
		path := s[5:]
		var u URL
		if uriPart {
			if i := strings.IndexByte(path, ':'); i >= 0 {
				path, u.URI = path[:i], path[i+1:]
			}
		}
		u.Unix, u.Host = true, path
		switch {
		case path == "":
			u.Err = "no path in the unix domain socket"
		case len(path)+1 > 108:
			u.Err = "too long path in the unix domain socket"
		}
		return u
	}
	if strings.HasPrefix(s, "[") {
		return parseInet6URL(s, uriPart, defaultPort)
	}
	return parseInetURL(s, uriPart, defaultPort)
}

func parseInetURL(s string, uriPart bool, defaultPort int) URL {
	var u URL
	last := len(s)
	port := strings.IndexByte(s, ':')
	uri := strings.IndexAny(s, "/?")
	if uri >= 0 {
		if !uriPart {
			u.Err = "invalid host"
			return u
		}
		u.URI = s[uri:]
		last = uri
		if uri < port {
			port = -1
		}
	}
	if port >= 0 {
		n, ok := Atoi(s[port+1 : last])
		if !ok || n < 1 || n > 65535 {
			u.Err, u.Host = "invalid port", s[:port]
			return u
		}
		u.Port = n
		last = port
	} else {
		u.NoPort, u.Port = true, defaultPort
	}
	if last == 0 {
		u.Err = "no host"
		return u
	}
	u.Host = s[:last]
	_, u.Addr = InetAddr(u.Host)
	return u
}

func parseInet6URL(s string, uriPart bool, defaultPort int) URL {
	var u URL
	end := strings.IndexByte(s, ']')
	if end < 0 {
		u.Err = "invalid host"
		return u
	}
	rest := s[end+1:]
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		if !uriPart {
			u.Err = "invalid host"
			return u
		}
		u.URI = rest[i:]
		rest = rest[:i]
	}
	if rest != "" {
		if rest[0] != ':' {
			u.Err = "invalid host"
			return u
		}
		n, ok := Atoi(rest[1:])
		if !ok || n < 1 || n > 65535 {
			u.Err = "invalid port"
			return u
		}
		u.Port = n
	} else {
		u.NoPort, u.Port = true, defaultPort
	}
	if end == 1 {
		u.Err = "no host"
		return u
	}
	if _, ok := Inet6Addr(s[1:end]); !ok {
		u.Err = "invalid IPv6 address"
		return u
	}
	u.Host, u.Addr = s[:end+1], true
	return u
}
