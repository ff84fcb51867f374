package routing

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
)

// ParseURL makes the request a client sends for "http[s]://HOST[:PORT]/path?query":
// HOST (with the port when one is written) is the Host header, and for
// https the SNI name; the path and query are the request target as
// written, undecoded and unnormalized (a client sends "//a/../b" and
// "%2F" as they are), without the fragment, which clients keep to
// themselves. The local address is left for Arrive.
func ParseURL(raw string) (HTTPRequest, error) {
	var r HTTPRequest
	rest, ok := strings.CutPrefix(raw, "http://")
	if !ok {
		if rest, ok = strings.CutPrefix(raw, "https://"); !ok {
			return r, fmt.Errorf("%q: not an http:// or https:// URL", raw)
		}
		r.HTTPS = true
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	hostport, target := rest[:end], rest[end:]
	if i := strings.IndexByte(target, '#'); i >= 0 {
		target = target[:i]
	}
	switch {
	case target == "":
		target = "/"
	case target[0] == '?':
		target = "/" + target
	}
	for i := 0; i < len(target); i++ {
		if c := target[i]; c <= ' ' || c == 0x7f {
			return r, fmt.Errorf("%q: the path holds the byte %#02x, which a client sends percent-encoded", raw, c)
		}
	}
	host, port := hostport, 80
	if r.HTTPS {
		port = 443
	}
	if i := strings.LastIndexByte(hostport, ':'); i >= 0 && !strings.HasSuffix(hostport, "]") {
		n, err := strconv.Atoi(hostport[i+1:])
		if err != nil || n < 1 || n > 65535 {
			return r, fmt.Errorf("%q: invalid port %q", raw, hostport[i+1:])
		}
		host, port = hostport[:i], n
	}
	if host == "" {
		return r, fmt.Errorf("%q: no host", raw)
	}
	// An IPv6 address is written in brackets, and only there may a host
	// hold a colon (http://[::1 and http://::1 name nothing).
	if strings.HasPrefix(host, "[") || strings.Contains(host, ":") {
		ip, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
		if !strings.HasPrefix(host, "[") || !strings.HasSuffix(host, "]") || err != nil || !ip.Is6() {
			return r, fmt.Errorf("%q: invalid host %q (an IPv6 address is written in brackets: http://[::1]:8080/)", raw, host)
		}
	}
	r.Host, r.Port, r.Target = hostport, port, target
	return r, nil
}

// Arrive sets the local address a request arrives at when none is
// given: on the request's port, the address the Host names if it is an
// address nginx listens on, else the address whose servers name the
// Host, else the port's first address (an IPv4 one first). It fails when
// nothing listens on the port.
func (t *Table) Arrive(r *HTTPRequest) error {
	if r.Addr.IsValid() || r.Unix != "" {
		return nil
	}
	host := strings.Trim(hostOnly(r.Host), "[]")
	if ip, err := netip.ParseAddr(host); err == nil {
		if a := t.Address(ip, r.Port); a != nil {
			r.Addr = ip
			return nil
		}
	}
	var first *Addr
	h, ok := NormalizeHost(r.Host)
	for _, fam := range []costmodel.Family{costmodel.IPv4, costmodel.IPv6} {
		p := t.byPort[portKey{fam, r.Port}]
		if p == nil {
			continue
		}
		for _, a := range p.Addrs {
			if first == nil {
				first = a
			}
			if ok && !r.NoHost && a.named(h) {
				r.Addr = a.IP
				return nil
			}
		}
	}
	if first == nil {
		return fmt.Errorf("nothing listens on port %d", r.Port)
	}
	r.Addr = first.IP
	return nil
}

// named says a Host (normalized) is one of the address's names, not
// left to its default server.
func (a *Addr) named(h string) bool {
	return a.names.named(h)
}

func hostOnly(hostport string) string {
	if strings.HasPrefix(hostport, "[") {
		if i := strings.IndexByte(hostport, ']'); i >= 0 {
			return hostport[:i+1]
		}
	}
	if i := strings.LastIndexByte(hostport, ':'); i >= 0 {
		return hostport[:i]
	}
	return hostport
}

// String writes the request as "GET http://host/target" with the local
// address when it is not the Host's.
func (r HTTPRequest) String() string {
	scheme := "http"
	if r.HTTPS {
		scheme = "https"
	}
	m := r.Method
	if m == "" {
		m = "GET"
	}
	host := r.Host
	if r.NoHost {
		host = "(no Host)"
	}
	s := fmt.Sprintf("%s %s://%s%s", m, scheme, host, r.Target)
	if r.Unix != "" {
		return s + " on " + r.Unix
	}
	if r.Addr.IsValid() {
		s += " on " + netip.AddrPortFrom(r.Addr, uint16(r.Port)).String()
	}
	return s
}

// RequestOptions are what a request carries beside its URL, as
// nginx-lint route's flags, the language server's route command and the
// playground give them.
type RequestOptions struct {
	// Method is the request's method; "" is GET.
	Method string
	// NoHost sends no Host header (a Host among Headers sends one again).
	NoHost bool
	// Headers are "Name: value" lines; a Host among them is the Host.
	// Empty lines are skipped.
	Headers []string
	// Remote is the client's address; "" keeps ParseURL's.
	Remote string
	// Local is the address the connection arrives at, ADDR:PORT or
	// unix:PATH; "" leaves it for Arrive.
	Local string
}

// OptionError says which of the RequestOptions cannot be read: Option is
// "header", "remote" or "local", Value what was given. Each front end
// names the option in its own words (a flag, a field).
type OptionError struct {
	Option, Value string
}

func (e *OptionError) Error() string {
	switch e.Option {
	case "header":
		return fmt.Sprintf("header %q: want \"Name: value\"", e.Value)
	case "remote":
		return fmt.Sprintf("remote %q: not an address", e.Value)
	}
	return fmt.Sprintf("%s %q: want ADDR:PORT or unix:PATH", e.Option, e.Value)
}

// Apply gives the request r (from ParseURL) the options.
func (o RequestOptions) Apply(r *HTTPRequest) error {
	r.Method = "GET"
	if m := strings.TrimSpace(o.Method); m != "" {
		r.Method = m
	}
	if o.NoHost {
		r.Host, r.NoHost = "", true
	}
	for _, h := range o.Headers {
		if strings.TrimSpace(h) == "" {
			continue
		}
		name, value, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(name) == "" {
			return &OptionError{"header", h}
		}
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if strings.EqualFold(name, "host") {
			r.Host, r.NoHost = value, false
			continue
		}
		r.Headers = append(r.Headers, Header{Name: name, Value: value})
	}
	if remote := strings.TrimSpace(o.Remote); remote != "" {
		a, err := netip.ParseAddr(remote)
		if err != nil {
			return &OptionError{"remote", remote}
		}
		r.Remote = a
	}
	switch local := strings.TrimSpace(o.Local); {
	case strings.HasPrefix(local, "unix:"):
		r.Unix = local
	case local != "":
		ap, err := netip.ParseAddrPort(local)
		if err != nil {
			return &OptionError{"local", local}
		}
		r.Addr, r.Port = ap.Addr(), int(ap.Port())
	}
	return nil
}
