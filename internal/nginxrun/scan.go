package nginxrun

import (
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
)

// ErrNotLoopback is wrapped by the errors of CheckLoopback, Test and
// Start when a configuration could make nginx listen on, or send logs to,
// something other than the local machine.
var ErrNotLoopback = errors.New("nginxrun: configuration is not loopback-only")

// CheckLoopback reads the configuration at confPath, following includes
// the way nginx resolves them for `-c confPath`, and reports whether every
// socket nginx would open stays on this machine: each listen of an http,
// stream or mail server must be a loopback IP (127.0.0.0/8, ::1),
// "localhost" or a unix socket, each http server must have a listen (nginx
// would otherwise listen on *:80 or *:8000), and syslog targets of
// error_log and access_log must be loopback or unix sockets.
//
// The scan is lenient about syntax: nginx opens sockets only after the
// whole configuration has parsed, so a configuration the scan cannot read
// to the end is one nginx rejects before binding anything.
func CheckLoopback(confPath string) error {
	sc, err := scanConfig(confPath)
	if err != nil {
		return err
	}
	return sc.loopbackErr()
}

// scan is what Test and Start need to know about a configuration before
// running nginx on it.
type scan struct {
	// main holds the arguments of the first occurrence of each directive
	// in the main context, to learn whether pid or daemon are set.
	main map[string][]string
	// problems lists every non-loopback socket found, with its location.
	problems []string
}

func (s *scan) loopbackErr() error {
	if len(s.problems) == 0 {
		return nil
	}
	return fmt.Errorf("%w:\n\t%s", ErrNotLoopback, strings.Join(s.problems, "\n\t"))
}

// maxIncludeDepth stops include cycles, which nginx itself would follow
// until it runs out of file descriptors.
const maxIncludeDepth = 32

func scanConfig(confPath string) (*scan, error) {
	abs, err := filepath.Abs(confPath)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, err
	}
	s := &scan{main: map[string][]string{}}
	w := walker{scan: s, confDir: filepath.Dir(abs)}
	w.file(abs, data, 0)
	return s, nil
}

// frame is one open block while walking a configuration.
type frame struct {
	name      string
	file      string
	line      int
	hasListen bool
}

type walker struct {
	*scan
	// confDir is nginx's conf prefix: the directory of the -c file, which
	// relative include paths are resolved against.
	confDir string
	// stack holds the open blocks, innermost last.
	stack []frame
}

// file walks one file. Its statements start inside the blocks already on
// w.stack, which an include shares with the file that includes it, so a
// listen in an included file counts for the server around the include.
func (w *walker) file(path string, data []byte, depth int) {
	base := len(w.stack)
	tokenize(data, func(ev event) bool {
		switch ev.kind {
		case evClose:
			// nginx rejects an unmatched "}", so nothing after it binds;
			// ignoring it keeps the scan going over the rest.
			if len(w.stack) > base {
				w.closeFrame()
				w.stack = w.stack[:len(w.stack)-1]
			}
		case evBlock:
			w.stack = append(w.stack, frame{name: ev.args[0], file: path, line: ev.line})
		case evSimple:
			w.simple(path, ev, depth)
		}
		return true
	})
	// Blocks left open make nginx fail with "unexpected end of file".
	w.stack = w.stack[:base]
}

func parentIs(stack []frame, names ...string) bool {
	if len(stack) == 0 {
		return false
	}
	for _, n := range names {
		if stack[len(stack)-1].name == n {
			return true
		}
	}
	return false
}

// isServer reports whether the innermost block of stack is a server of a
// module that listens.
func isServer(stack []frame) bool {
	n := len(stack)
	return n >= 2 && stack[n-1].name == "server" && parentIs(stack[:n-1], "http", "stream", "mail")
}

func (w *walker) closeFrame() {
	stack := w.stack
	f := stack[len(stack)-1]
	if isServer(stack) && !f.hasListen && stack[len(stack)-2].name == "http" {
		w.problems = append(w.problems, fmt.Sprintf("%s:%d: http server without listen would listen on *:80 (or *:8000)", f.file, f.line))
	}
}

func (w *walker) simple(path string, ev event, depth int) {
	stack := w.stack
	name, args := ev.args[0], ev.args[1:]
	where := fmt.Sprintf("%s:%d", path, ev.line)
	if len(stack) == 0 {
		if _, ok := w.main[name]; !ok {
			w.main[name] = args
		}
	}
	switch name {
	case "include":
		if len(args) == 1 && depth < maxIncludeDepth {
			w.include(args[0], depth)
		}
	case "listen":
		if isServer(stack) && len(args) > 0 {
			stack[len(stack)-1].hasListen = true
			if !loopbackListen(args[0]) {
				w.problems = append(w.problems, fmt.Sprintf("%s: listen %s is not loopback", where, args[0]))
			}
		}
	case "error_log", "access_log":
		if len(args) > 0 && !loopbackSyslog(args[0]) {
			w.problems = append(w.problems, fmt.Sprintf("%s: %s %s is not loopback", where, name, args[0]))
		}
	}
}

// include follows an include the way nginx does: relative to the conf
// prefix, and as a glob when the name has glob characters. Missing files
// are skipped because nginx fails on them before binding.
func (w *walker) include(name string, depth int) {
	if !filepath.IsAbs(name) {
		name = filepath.Join(w.confDir, name)
	}
	files := []string{name}
	if strings.ContainsAny(name, "*?[") {
		files, _ = filepath.Glob(name)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		w.file(f, data, depth+1)
	}
}

// loopbackListen reports whether the address of a listen directive is
// local. nginx reads a bare number as a port on the wildcard address and
// a bare host as host:80.
func loopbackListen(addr string) bool {
	if strings.HasPrefix(addr, "unix:") {
		return true
	}
	host := addr
	if strings.HasPrefix(addr, "[") {
		end := strings.IndexByte(addr, ']')
		if end < 0 {
			return false
		}
		host = addr[1:end]
	} else if i := strings.LastIndexByte(addr, ':'); i >= 0 {
		host = addr[:i]
	} else if strings.Trim(addr, "0123456789") == "" {
		return false
	}
	return loopbackHost(host)
}

func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// loopbackSyslog reports whether a log target stays local; files and
// stderr do, and "syslog:server=ADDR[:PORT],..." does when ADDR is.
func loopbackSyslog(target string) bool {
	rest, ok := strings.CutPrefix(target, "syslog:")
	if !ok {
		return true
	}
	for _, p := range strings.Split(rest, ",") {
		if srv, ok := strings.CutPrefix(p, "server="); ok {
			if strings.HasPrefix(srv, "unix:") {
				return true
			}
			if strings.HasPrefix(srv, "[") || strings.Count(srv, ":") == 1 {
				return loopbackListen(srv)
			}
			return loopbackHost(srv)
		}
	}
	// nginx requires server=; without it the directive fails to parse.
	return true
}

// eventKind tells statements from block ends.
type eventKind int

const (
	evSimple eventKind = iota // a directive ended by ";"
	evBlock                   // a directive ended by "{"
	evClose                   // a "}"
)

type event struct {
	kind eventKind
	args []string
	line int
}

// tokenize splits nginx configuration text into statements following the
// rules of nginx's own reader (ngx_conf_read_token): quotes and
// backslashes, "#" comments only at the start of a word, "}" ending a
// word only at its start, and "${" not opening a block. It stops at the
// first syntax error, where nginx stops too. emit returns false to stop.
func tokenize(data []byte, emit func(event) bool) {
	var (
		args                       []string
		word                       []byte
		line, startLine            = 1, 1
		lastSpace                  = true
		needSpace, quoted, comment bool
		sQuoted, dQuoted, variable bool
	)
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
	finish := func(k eventKind) bool {
		ev := event{kind: k, args: args, line: startLine}
		args = nil
		return emit(ev)
	}
	for i := 0; i < len(data); i++ {
		c := data[i]
		if c == '\n' {
			line++
			if comment {
				comment = false
			}
		}
		if comment {
			continue
		}
		if quoted {
			quoted = false
			word = appendEscaped(word, c)
			continue
		}
		if needSpace {
			switch {
			case isSpace(c):
				lastSpace, needSpace = true, false
				continue
			case c == ';':
				if !finish(evSimple) {
					return
				}
				lastSpace, needSpace = true, false
				continue
			case c == '{':
				if !finish(evBlock) {
					return
				}
				lastSpace, needSpace = true, false
				continue
			case c == ')':
				lastSpace, needSpace = true, false
			default:
				return
			}
		}
		if lastSpace {
			if isSpace(c) {
				continue
			}
			if len(args) == 0 {
				startLine = line
			}
			switch c {
			case ';', '{':
				if len(args) == 0 {
					return
				}
				k := evSimple
				if c == '{' {
					k = evBlock
				}
				if !finish(k) {
					return
				}
				continue
			case '}':
				if len(args) != 0 || !emit(event{kind: evClose, line: line}) {
					return
				}
				continue
			case '#':
				comment = true
				continue
			case '\\':
				quoted, lastSpace = true, false
				word = word[:0]
				continue
			case '"':
				dQuoted, lastSpace = true, false
				word = word[:0]
				continue
			case '\'':
				sQuoted, lastSpace = true, false
				word = word[:0]
				continue
			}
			lastSpace = false
			word = append(word[:0], c)
			variable = c == '$'
			continue
		}

		if c == '{' && variable {
			word = append(word, c)
			continue
		}
		variable = false
		found := false
		switch {
		case c == '\\':
			quoted = true
			continue
		case c == '$':
			variable = true
		case dQuoted:
			if c == '"' {
				dQuoted, needSpace, found = false, true, true
			}
		case sQuoted:
			if c == '\'' {
				sQuoted, needSpace, found = false, true, true
			}
		case isSpace(c) || c == ';' || c == '{':
			lastSpace, found = true, true
		}
		if !found {
			word = append(word, c)
			continue
		}
		args = append(args, string(word))
		word = word[:0]
		switch {
		case c == ';' && !needSpace:
			if !finish(evSimple) {
				return
			}
		case c == '{' && !needSpace:
			if !finish(evBlock) {
				return
			}
		}
	}
}

// appendEscaped appends the character after a backslash the way nginx
// copies words: quotes and backslashes lose the backslash, \t \r \n
// become control characters, and anything else keeps the backslash.
func appendEscaped(word []byte, c byte) []byte {
	switch c {
	case '"', '\'', '\\':
		return append(word, c)
	case 't':
		return append(word, '\t')
	case 'r':
		return append(word, '\r')
	case 'n':
		return append(word, '\n')
	}
	return append(word, '\\', c)
}
