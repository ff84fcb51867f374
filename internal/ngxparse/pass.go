package ngxparse

import "strings"

// Pass is what the handler of a *_pass directive makes of its argument
// (ngx_http_proxy_pass, ngx_http_fastcgi_pass, ngx_http_grpc_pass,
// ngx_http_uwsgi_pass, ngx_http_scgi_pass, ngx_http_memcached_pass,
// ngx_stream_proxy_pass, and memc-nginx-module's ngx_http_memc_pass): the scheme it strips, then the address
// ngx_parse_url reads. It is the one reading of a *_pass address: the
// rules, the symbol table and the cost model take theirs from it.
type Pass struct {
	// Scheme is the prefix the handler strips, lower-cased ("http://",
	// "grpcs://"); "" for none.
	Scheme string
	// Address is the argument without its scheme: what ngx_parse_url
	// reads, or, with Vars, the script nginx evaluates per request.
	Address string
	// Vars: the argument has a "$" (ngx_http_script_variables_count), so
	// nginx compiles it and reads the address per request, when the
	// handler's eval function (ngx_http_proxy_eval, ...) hands the value
	// to ngx_parse_url. URL is then that split made on the argument as
	// written, where its text alone decides it (a variable's value
	// never adds a "/", "?" or ":" here): Host, the port's text and URI
	// may hold variables, Port is set only for a port written in digits
	// (else the default when none is written), Addr only for a literal
	// address, Err never. memcached_pass takes no variables: its "$" is
	// text.
	Vars bool
	// VarScheme: with Vars, the scheme is (partly) a variable's, as in
	// "$scheme://$host": Scheme is "" and Address is what follows "://",
	// whose scheme nginx checks per request. An argument that starts with
	// a variable and no "://" after it ("$backend/x") has the scheme of
	// proxy_pass, if any, in that variable's value, and Host starts with
	// it.
	VarScheme bool
	// BadPrefix: proxy_pass in http without http:// or https://, which
	// nginx refuses ("invalid URL prefix") before reading the address.
	BadPrefix bool
	// URL is ngx_parse_url's reading of Address (its Err set when nginx
	// refuses it): a URI part only for http's proxy_pass, which also
	// gives the port of its scheme (80, 443) to an address without one;
	// the others have no default port.
	URL
}

// passSchemes are the optional prefixes each *_pass of http strips.
var passSchemes = map[string][]string{
	"grpc_pass":  {"grpc://", "grpcs://"},
	"uwsgi_pass": {"uwsgi://", "suwsgi://"},
}

// ParsePass reads the argument arg of the *_pass directive name as its
// handler does; stream is set for stream's proxy_pass. ok is false for a
// name that is no *_pass of that protocol.
func ParsePass(name string, stream bool, arg string) (p Pass, ok bool) {
	switch {
	case stream && name == "proxy_pass":
		return passURL(arg, "", false, 0, true), true
	case stream:
		return Pass{}, false
	case name == "proxy_pass":
		for _, s := range [...]struct {
			scheme string
			port   int
		}{{"http://", 80}, {"https://", 443}} {
			if hasPrefixFold(arg, s.scheme) {
				return passURL(arg[len(s.scheme):], s.scheme, true, s.port, true), true
			}
		}
		if strings.Contains(arg, "$") {
			return varSchemePass(arg, true, 0), true
		}
		return Pass{Address: arg, BadPrefix: true}, true
	case name == "grpc_pass" || name == "uwsgi_pass":
		for _, s := range passSchemes[name] {
			if hasPrefixFold(arg, s) {
				return passURL(arg[len(s):], s, false, 0, true), true
			}
		}
		if strings.Contains(arg, "$") {
			return varSchemePass(arg, false, 0), true
		}
		return passURL(arg, "", false, 0, true), true
	case name == "fastcgi_pass" || name == "scgi_pass" || name == "memc_pass":
		// memc_pass reads its address as fastcgi_pass does.
		return passURL(arg, "", false, 0, true), true
	case name == "memcached_pass":
		return passURL(arg, "", false, 0, false), true
	}
	return Pass{}, false
}

// passURL reads address as ngx_parse_url does, or, when it has variables
// and vars says the directive takes them, as far as its text decides
// (varURL).
func passURL(address, scheme string, uriPart bool, defaultPort int, vars bool) Pass {
	p := Pass{Scheme: scheme, Address: address}
	if vars && strings.Contains(address, "$") {
		p.Vars = true
		p.URL = varURL(address, uriPart, defaultPort)
		return p
	}
	p.URL = ParseURL(address, uriPart, defaultPort)
	return p
}

// varSchemePass reads the argument with variables of a *_pass whose
// scheme is not written as text: a scheme made of variables before
// "://" is cut off (VarScheme), else the whole argument is the address.
func varSchemePass(arg string, uriPart bool, defaultPort int) Pass {
	if i := strings.Index(arg, "://"); i >= 0 && strings.Contains(arg[:i], "$") && !strings.ContainsAny(arg[:i], "/?") {
		p := Pass{Address: arg[i+3:], Vars: true, VarScheme: true}
		p.URL = varURL(p.Address, uriPart, defaultPort)
		return p
	}
	return passURL(arg, "", uriPart, defaultPort, true)
}

// varURL splits an address with variables as ngx_parse_url will split
// its value, where the written text decides: a unix: path and, with
// uriPart, the URI after its ":"; else the host (an IPv6 literal up to
// its "]"), the port after the first ":", and, with uriPart, the URI from
// the first "/" or "?".
func varURL(s string, uriPart bool, defaultPort int) URL {
	var u URL
	if hasPrefixFold(s, "unix:") {
		path := s[5:]
		if uriPart {
			if i := strings.IndexByte(path, ':'); i >= 0 {
				path, u.URI = path[:i], path[i+1:]
			}
		}
		u.Unix, u.Host = true, path
		return u
	}
	hostPort := s
	from := 0
	if strings.HasPrefix(s, "[") {
		if end := strings.IndexByte(s, ']'); end >= 0 {
			from = end + 1
		}
	}
	if uriPart {
		if i := strings.IndexAny(s[from:], "/?"); i >= 0 {
			hostPort, u.URI = s[:from+i], s[from+i:]
		}
	}
	u.Host = hostPort
	if i := strings.IndexByte(hostPort[from:], ':'); i >= 0 {
		u.Host = hostPort[:from+i]
		if n, ok := Atoi(hostPort[from+i+1:]); ok && n >= 1 && n <= 65535 {
			u.Port = n
		}
	} else {
		u.NoPort, u.Port = true, defaultPort
	}
	switch {
	case strings.Contains(u.Host, "$"):
	case from > 0:
		_, u.Addr = Inet6Addr(u.Host[1 : from-1])
	default:
		_, u.Addr = InetAddr(u.Host)
	}
	return u
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
