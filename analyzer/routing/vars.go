package routing

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/regex"
	"github.com/nginx-lint/nginx-lint/parser"
)

// mapDef is a map block (ngx_http_map_module).
type mapDef struct {
	d         *parser.Directive
	name      string // the variable defined, lower-cased, without "$"
	source    *Script
	hostnames bool
	volatile  bool
	exact     map[string]*Script // keys lower-cased, as nginx hashes them
	head      []mapWild          // "*.example.com", ".example.com" (hostnames)
	tail      []mapWild          // "www.example.*" (hostnames)
	regex     []mapRegex
	def       *Script
}

type mapWild struct {
	domain string
	value  *Script
}

type mapRegex struct {
	re    *regex.Regex
	value *Script
}

// readMap reads a map block as ngx_http_map_block does.
func readMap(c *parser.Config, d *parser.Directive) *mapDef {
	src, dst := d.Args()[0].Value, d.Args()[1].Value
	if len(dst) < 2 || dst[0] != '$' {
		return nil
	}
	md := &mapDef{d: d, name: strings.ToLower(dst[1:]), source: compileScript(src, false), exact: map[string]*Script{}}
	eachDirective(c, d.Block.Directives, func(e *parser.Directive) {
		key := e.Name().Value
		a := e.ArgValues()
		switch {
		case len(a) == 0 && key == "hostnames":
			md.hostnames = true
			return
		case len(a) == 0 && key == "volatile":
			md.volatile = true
			return
		case len(a) != 1:
			return
		case key == "default":
			if md.def == nil {
				md.def = compileScript(a[0], false)
			}
			return
		}
		val := compileScript(a[0], false)
		if len(key) > 1 && key[0] == '~' {
			caseless := key[1] == '*'
			pat := key[1:]
			if caseless {
				pat = key[2:]
			}
			md.regex = append(md.regex, mapRegex{regex.Compile(pat, caseless), val})
			return
		}
		if len(key) > 0 && key[0] == '\\' {
			key = key[1:]
		}
		low := strings.ToLower(key)
		if md.hostnames {
			switch {
			case strings.HasPrefix(low, "*."):
				md.head = append(md.head, mapWild{low[2:], val})
				return
			case strings.HasPrefix(low, "."):
				md.head = append(md.head, mapWild{low[1:], val})
				if _, ok := md.exact[low[1:]]; !ok {
					md.exact[low[1:]] = val
				}
				return
			case strings.HasSuffix(low, ".*"):
				md.tail = append(md.tail, mapWild{low[:len(low)-2], val})
				return
			}
		}
		if _, ok := md.exact[low]; !ok {
			md.exact[low] = val
		}
	})
	return md
}

// variable is the value of $name for the request (names lower-cased).
// A variable the model cannot know (the time, a module's, the client's
// address when not given) is an *unsure error.
func (st *state) variable(name string) (string, error) {
	if v, ok := st.vars[name]; ok {
		return v, nil
	}
	if md := st.m.maps[name]; md != nil {
		return st.mapValue(md)
	}
	if st.m.setNames[name] {
		// Defined by a set that has not run for this request.
		return "", nil
	}
	r := st.req
	switch name {
	case "uri", "document_uri":
		return st.uri, nil
	case "request_uri":
		return st.requestURI, nil
	case "args", "query_string":
		return st.args, nil
	case "is_args":
		if st.args != "" {
			return "?", nil
		}
		return "", nil
	case "host":
		if st.host != "" {
			return st.host, nil
		}
		return st.srv.name, nil
	case "scheme":
		if r.HTTPS {
			return "https", nil
		}
		return "http", nil
	case "https":
		if r.HTTPS {
			return "on", nil
		}
		return "", nil
	case "request_method":
		return st.method, nil
	case "server_name":
		return st.srv.name, nil
	case "server_port":
		if r.Unix != "" {
			return "", nil
		}
		return strconv.Itoa(r.Port), nil
	case "server_addr":
		if r.Unix != "" {
			return "unix:", nil
		}
		return r.Addr.Unmap().String(), nil
	case "server_protocol":
		if r.NoHost {
			return "HTTP/1.0", nil
		}
		return "HTTP/1.1", nil
	case "remote_addr", "binary_remote_addr", "realip_remote_addr":
		if !r.Remote.IsValid() {
			return "", &unsure{"$" + name + " is the client's address, which the request does not give"}
		}
		if name == "binary_remote_addr" {
			return string(r.Remote.Unmap().AsSlice()), nil
		}
		return r.Remote.Unmap().String(), nil
	case "document_root":
		root, _, err := st.rootOf(st.cur)
		return root, err
	case "request_filename":
		p, _, err := st.mapURI(st.uri)
		return p, err
	case "content_type":
		return st.header("content-type")
	case "content_length":
		return st.header("content-length")
	case "ssl_server_name":
		// The SNI name, which a client sends as the URL's host.
		if r.HTTPS && !r.NoHost {
			return st.host, nil
		}
		return "", nil
	case "status":
		// ngx_http_variable_status: the status of the error an
		// error_page answers (its =code, 0 after a bare "="), else
		// the response's, which a return sets before it evaluates its
		// text; in the rewrite phase nothing else has set one.
		if st.errStatus != 0 {
			return fmt.Sprintf("%03d", st.errStatus), nil
		}
		return fmt.Sprintf("%03d", st.outStatus), nil
	case "http2", "http3":
		// The model's requests are HTTP/1.x.
		return "", nil
	case "http_host":
		if r.NoHost {
			return "", nil
		}
		return r.Host, nil
	case "http_cookie":
		return st.joinedHeader("cookie", "; ")
	}
	switch {
	case strings.HasPrefix(name, "arg_"):
		return argValue(st.args, name[4:]), nil
	case strings.HasPrefix(name, "cookie_"):
		return st.cookie(name[7:]), nil
	case strings.HasPrefix(name, "http_"):
		return st.joinedHeader(strings.ReplaceAll(name[5:], "_", "-"), ", ")
	}
	if len(name) > 0 && name[0] >= '0' && name[0] <= '9' {
		if n, err := strconv.Atoi(name); err == nil {
			return st.capture(n), nil
		}
	}
	return "", &unsure{fmt.Sprintf("$%s: a variable the model does not evaluate", name)}
}

// capture is $N of the last regex that matched.
func (st *state) capture(n int) string { return st.caps.Get(n) }

// setCaptures keeps the captures of a regex that matched, and its named
// groups as variables (ngx_http_regex_exec).
func (st *state) setCaptures(c *regex.Captures) {
	st.caps = c
	if c == nil {
		return
	}
	for i, n := range c.Names {
		if n != "" {
			st.setVar(strings.ToLower(n), c.Values[i])
		}
	}
}

func (st *state) header(name string) (string, error) {
	for _, h := range st.req.Headers {
		if strings.EqualFold(h.Name, name) {
			return h.Value, nil
		}
	}
	return "", nil
}

// joinedHeader is $http_name: every header of the name (underscores
// read as dashes, case folded), joined as nginx 1.23 and later join
// them.
func (st *state) joinedHeader(name, sep string) (string, error) {
	if strings.EqualFold(name, "host") {
		if st.req.NoHost {
			return "", nil
		}
		return st.req.Host, nil
	}
	var vals []string
	for _, h := range st.req.Headers {
		if strings.EqualFold(strings.ReplaceAll(h.Name, "_", "-"), name) && !strings.Contains(h.Name, "_") {
			vals = append(vals, h.Value)
		}
	}
	return strings.Join(vals, sep), nil
}

// argValue is $arg_name (ngx_http_arg): the value of the first
// "name=value" of the query string, the name compared without case.
func argValue(args, name string) string {
	for args != "" {
		var seg string
		seg, args, _ = strings.Cut(args, "&")
		if len(seg) > len(name) && seg[len(name)] == '=' && strings.EqualFold(seg[:len(name)], name) {
			return seg[len(name)+1:]
		}
	}
	return ""
}

// cookie is $cookie_name (ngx_http_parse_cookie_lines): the value of
// the first "name=value" of the Cookie headers, separated by ";".
func (st *state) cookie(name string) string {
	for _, h := range st.req.Headers {
		if !strings.EqualFold(h.Name, "cookie") {
			continue
		}
		v := h.Value
		for v != "" {
			if len(v) >= len(name) && strings.EqualFold(v[:len(name)], name) {
				rest := strings.TrimLeft(v[len(name):], " ")
				if strings.HasPrefix(rest, "=") {
					rest = strings.TrimLeft(rest[1:], " ")
					if i := strings.IndexByte(rest, ';'); i >= 0 {
						rest = rest[:i]
					}
					return rest
				}
			}
			i := strings.IndexByte(v, ';')
			if i < 0 {
				break
			}
			v = strings.TrimLeft(v[i+1:], " ")
		}
	}
	return ""
}

// mapValue evaluates a map for the request: its value is kept for the
// rest of the request (an internal redirect included) unless the map is
// volatile, as nginx caches variables.
func (st *state) mapValue(md *mapDef) (string, error) {
	if v, ok := st.mapCache[md.name]; ok {
		return v, nil
	}
	if st.mapDepth > 8 {
		return "", &unsure{fmt.Sprintf("map $%s refers to itself", md.name)}
	}
	st.mapDepth++
	defer func() { st.mapDepth-- }()
	src, err := md.source.value(st)
	if err != nil {
		return "", err
	}
	if md.hostnames && strings.HasSuffix(src, ".") {
		src = src[:len(src)-1]
	}
	val := md.find(src, st)
	if u, ok := val.(*unsure); ok {
		return "", u
	}
	var out string
	if s, ok := val.(*Script); ok && s != nil {
		if out, err = s.value(st); err != nil {
			return "", err
		}
	}
	if !md.volatile {
		if st.mapCache == nil {
			st.mapCache = map[string]string{}
		}
		st.mapCache[md.name] = out
	}
	return out, nil
}

// find looks a value up as ngx_http_map_find does: exact (without case),
// the wildcards with hostnames, then the regexes in order, else the
// default. It returns the value's script (nil for no default) or an
// *unsure.
func (md *mapDef) find(src string, st *state) any {
	low := strings.ToLower(src)
	if v, ok := md.exact[low]; ok {
		return v
	}
	if md.hostnames {
		best, bestLen := (*Script)(nil), -1
		for _, w := range md.head {
			if len(low) > len(w.domain) && strings.HasSuffix(low, w.domain) && low[len(low)-len(w.domain)-1] == '.' && len(w.domain) > bestLen {
				best, bestLen = w.value, len(w.domain)
			}
		}
		if best != nil {
			return best
		}
		for _, w := range md.tail {
			if len(low) > len(w.domain)+1 && strings.HasPrefix(low, w.domain) && low[len(w.domain)] == '.' && len(w.domain) > bestLen {
				best, bestLen = w.value, len(w.domain)
			}
		}
		if best != nil {
			return best
		}
	}
	if src != "" {
		for _, r := range md.regex {
			c, ok, why := r.re.Match(src)
			if why != "" {
				return &unsure{why}
			}
			if ok {
				if len(c.Values) > 1 || hasNames(c) {
					st.setCaptures(c)
				}
				return r.value
			}
		}
	}
	return md.def
}

func hasNames(c *regex.Captures) bool {
	for _, n := range c.Names {
		if n != "" {
			return true
		}
	}
	return false
}
