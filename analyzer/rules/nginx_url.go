package rules

import "github.com/nginx-lint/nginx-lint/internal/ngxparse"

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

// parseNginxURL is ngxparse.ParseURL (ngx_parse_url) in the rules' terms.
func parseNginxURL(s string, uriPart bool, defaultPort int) nginxURL {
	u := ngxparse.ParseURL(s, uriPart, defaultPort)
	return nginxURL{host: u.Host, port: u.Port, noPort: u.NoPort, uri: u.URI, unix: u.Unix, addr: u.Addr, err: u.Err}
}
