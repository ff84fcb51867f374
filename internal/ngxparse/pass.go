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
	// nginx compiles it and reads the address per request, and URL is
	// not read. memcached_pass takes no variables: its "$" is text.
	Vars bool
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
			return Pass{Address: arg, Vars: true}, true
		}
		return Pass{Address: arg, BadPrefix: true}, true
	case name == "grpc_pass" || name == "uwsgi_pass":
		for _, s := range passSchemes[name] {
			if hasPrefixFold(arg, s) {
				return passURL(arg[len(s):], s, false, 0, true), true
			}
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

// passURL reads address as ngx_parse_url does, unless it has variables
// and vars says the directive takes them.
func passURL(address, scheme string, uriPart bool, defaultPort int, vars bool) Pass {
	p := Pass{Scheme: scheme, Address: address}
	if vars && strings.Contains(address, "$") {
		p.Vars = true
		return p
	}
	p.URL = ParseURL(address, uriPart, defaultPort)
	return p
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
