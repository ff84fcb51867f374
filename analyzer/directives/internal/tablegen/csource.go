package tablegen

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Handler is what the C source says about one directive of one module:
// the set handler named in its ngx_command_t entry and, for the generic
// handlers, what they accept.
type Handler struct {
	Name, Module string
	// Kind is the generic handler without its ngx_conf_set_ prefix and
	// _slot suffix ("flag", "size", "enum", ...), or "custom" for any
	// other function, including wrappers that call a generic one.
	Kind string
	// Values are the names of the ngx_conf_enum_t or ngx_conf_bitmask_t
	// array of an enum or bitmask handler, in source order.
	Values []string
	// Bounds is "low:high" from an ngx_conf_num_bounds_t post (high is
	// -1 for no upper bound), "" without one.
	Bounds string
	// Post names the post handler of any other ngx_conf_post_t, or
	// "deprecated" for ngx_conf_deprecated_t.
	Post string
}

// key is the (name, module) pair a Handler is stored under.
func (h *Handler) key() string { return h.Name + "\t" + h.Module }

// genericKinds maps the generic set handlers nginx's ngx_conf_file.c and
// ngx_file.c define to the kind words of the handlers file.
var genericKinds = map[string]string{
	"ngx_conf_set_flag_slot":      "flag",
	"ngx_conf_set_str_slot":       "str",
	"ngx_conf_set_str_array_slot": "str_array",
	"ngx_conf_set_keyval_slot":    "keyval",
	"ngx_conf_set_num_slot":       "num",
	"ngx_conf_set_size_slot":      "size",
	"ngx_conf_set_off_slot":       "off",
	"ngx_conf_set_msec_slot":      "msec",
	"ngx_conf_set_sec_slot":       "sec",
	"ngx_conf_set_bufs_slot":      "bufs",
	"ngx_conf_set_enum_slot":      "enum",
	"ngx_conf_set_bitmask_slot":   "bitmask",
	"ngx_conf_set_path_slot":      "path",
	"ngx_conf_set_access_slot":    "access",
}

// cFile is one C source file with comments and preprocessor lines
// removed. Both branches of every #if stay, as in the data extractor: a
// directive defined in two branches is seen twice and merged.
type cFile struct {
	name string
	text string
}

// stripC removes comments and preprocessor lines (with their backslash
// continuations), keeping string literals and line structure intact.
func stripC(src string) string {
	var b strings.Builder
	b.Grow(len(src))
	lineStart := true
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case lineStart && (c == ' ' || c == '\t'):
			b.WriteByte(c)
			continue
		case lineStart && c == '#':
			// Skip to the end of the line, following continuations.
			for i < len(src) && src[i] != '\n' {
				if src[i] == '\\' && i+1 < len(src) && src[i+1] == '\n' {
					i++
				}
				i++
			}
			b.WriteByte('\n')
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			b.WriteByte(' ')
			i += end + 3
			lineStart = false
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			b.WriteByte('\n')
			lineStart = true
			continue
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(src) && src[j] != c && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(src) {
				j = len(src) - 1
			}
			b.WriteString(src[i : j+1])
			i = j
			lineStart = false
			continue
		}
		b.WriteByte(c)
		lineStart = c == '\n'
	}
	return b.String()
}

// braceBody returns the text between the '{' at text[open] and its
// matching '}', skipping string literals.
func braceBody(text string, open int) (string, bool) {
	depth := 0
	for i := open; i < len(text); i++ {
		switch text[i] {
		case '"':
			for i++; i < len(text) && text[i] != '"'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return text[open+1 : i], true
			}
		}
	}
	return "", false
}

// splitTop splits s at the commas outside braces, parentheses and
// strings, trimming each part; an empty last part (a trailing comma) is
// dropped.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '{', '(':
			depth++
		case '}', ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if last := strings.TrimSpace(s[start:]); last != "" {
		out = append(out, last)
	}
	return out
}

// entries returns the fields of each {...} element of an array body;
// elements written as macros (ngx_null_command) are skipped.
func entries(body string) [][]string {
	var out [][]string
	for _, part := range splitTop(body) {
		if !strings.HasPrefix(part, "{") {
			continue
		}
		inner, ok := braceBody(part, 0)
		if !ok {
			continue
		}
		out = append(out, splitTop(inner))
	}
	return out
}

var (
	declRE      = regexp.MustCompile(`\b(ngx_command_t|ngx_conf_enum_t|ngx_conf_bitmask_t|ngx_conf_num_bounds_t|ngx_conf_post_t|ngx_conf_deprecated_t|ngx_module_t)\s+(\w+)\s*(\[\s*\])?\s*=\s*\{`)
	ngxStringRE = regexp.MustCompile(`^ngx_string\s*\(\s*"((?:[^"\\]|\\.)*)"\s*\)$`)
	identRE     = regexp.MustCompile(`^&?\s*(\w+)$`)
	// postPtrRE is the other way to write a post: a bare handler pointer
	// (static ngx_conf_post_handler_pt x_p = x;), which nginx reads as
	// an ngx_conf_post_t through cmd->post.
	postPtrRE = regexp.MustCompile(`\bngx_conf_post_handler_pt\s+(\w+)\s*=\s*(\w+)\s*;`)
)

// scanned holds the declarations of one source tree.
type scanned struct {
	// commands maps a commands array to its entries; arrays are named
	// per file because they are static.
	commands map[string][][]string
	// modules maps file+"\x00"+array to the module that lists it.
	modules map[string]string
	// lists holds enum and bitmask names, bounds "low:high", posts the
	// handler of ngx_conf_post_t and "deprecated"; keyed per file first,
	// then by bare name as a fallback for extern declarations.
	lists  map[string][]string
	bounds map[string]string
	posts  map[string]string
	order  []string // command arrays in file order, for stable output
}

func ident(field string) string {
	if m := identRE.FindStringSubmatch(strings.TrimSpace(field)); m != nil {
		return m[1]
	}
	return ""
}

func (s *scanned) addFile(f cFile) error {
	for _, m := range postPtrRE.FindAllStringSubmatch(f.text, -1) {
		s.posts[f.name+"\x00"+m[1]], s.posts[m[1]] = m[2], m[2]
	}
	locs := declRE.FindAllStringSubmatchIndex(f.text, -1)
	for _, l := range locs {
		typ, name := f.text[l[2]:l[3]], f.text[l[4]:l[5]]
		body, ok := braceBody(f.text, l[1]-1)
		if !ok {
			return fmt.Errorf("%s: unterminated initializer of %s", f.name, name)
		}
		key := f.name + "\x00" + name
		switch typ {
		case "ngx_command_t":
			if _, seen := s.commands[key]; !seen {
				s.order = append(s.order, key)
			}
			s.commands[key] = append(s.commands[key], entries(body)...)
		case "ngx_conf_enum_t", "ngx_conf_bitmask_t":
			var names []string
			for _, e := range entries(body) {
				if len(e) == 0 {
					continue
				}
				if m := ngxStringRE.FindStringSubmatch(e[0]); m != nil {
					names = append(names, m[1])
				}
			}
			s.lists[key] = names
			s.lists[name] = names
		case "ngx_conf_num_bounds_t":
			fields := splitTop(body)
			if len(fields) != 3 || ident(fields[0]) != "ngx_conf_check_num_bounds" {
				s.posts[key], s.posts[name] = "custom-bounds", "custom-bounds"
				continue
			}
			lo, err1 := strconv.ParseInt(fields[1], 10, 64)
			hi, err2 := strconv.ParseInt(fields[2], 10, 64)
			if err1 != nil || err2 != nil {
				// Named constants (a module's BROTLI_MIN_QUALITY): the
				// bounds exist but cannot be read here.
				s.posts[key], s.posts[name] = "custom-bounds", "custom-bounds"
				continue
			}
			b := fmt.Sprintf("%d:%d", lo, hi)
			s.bounds[key], s.bounds[name] = b, b
		case "ngx_conf_post_t":
			if fields := splitTop(body); len(fields) >= 1 {
				s.posts[key], s.posts[name] = ident(fields[0]), ident(fields[0])
			}
		case "ngx_conf_deprecated_t":
			s.posts[key], s.posts[name] = "deprecated", "deprecated"
		case "ngx_module_t":
			// NGX_MODULE_V1 is one macro token, then the context, then
			// the commands array.
			fields := splitTop(body)
			if len(fields) >= 3 {
				if arr := ident(fields[2]); arr != "" && arr != "NULL" {
					s.modules[f.name+"\x00"+arr] = name
				}
			}
		}
	}
	return nil
}

// lookup finds a per-file declaration, then a global one.
func lookup[T any](m map[string]T, file, name string) (T, bool) {
	if v, ok := m[file+"\x00"+name]; ok {
		return v, true
	}
	v, ok := m[name]
	return v, ok
}

// handlers resolves every command entry into a Handler.
func (s *scanned) handlers() ([]*Handler, error) {
	byKey := map[string]*Handler{}
	var out []*Handler
	for _, key := range s.order {
		file, arr, _ := strings.Cut(key, "\x00")
		module, ok := s.modules[key]
		if !ok {
			// A commands array no module lists is dead code or a
			// template; it defines nothing nginx reads.
			continue
		}
		for _, e := range s.commands[key] {
			if len(e) < 6 {
				return nil, fmt.Errorf("%s: %s: entry with %d fields", file, arr, len(e))
			}
			m := ngxStringRE.FindStringSubmatch(e[0])
			if m == nil {
				return nil, fmt.Errorf("%s: %s: entry name %q", file, arr, e[0])
			}
			h := &Handler{Name: m[1], Module: module, Kind: "custom"}
			fn := ident(e[2])
			post := ident(e[5])
			if post == "NULL" || e[5] == "0" {
				post = ""
			}
			if kind, ok := genericKinds[fn]; ok {
				h.Kind = kind
				switch {
				case kind == "enum" || kind == "bitmask":
					vals, ok := lookup(s.lists, file, post)
					if !ok || len(vals) == 0 {
						// The values live somewhere the scan cannot
						// see; nothing can be said about them.
						h.Kind = "custom"
						break
					}
					h.Values = vals
				case post == "":
				default:
					if b, ok := lookup(s.bounds, file, post); ok {
						h.Bounds = b
					} else if p, ok := lookup(s.posts, file, post); ok {
						h.Post = p
					} else {
						h.Post = "unknown"
					}
				}
			}
			if prev, dup := byKey[h.key()]; dup {
				// Two #if branches define the same directive; a
				// disagreement makes it custom, as nothing is sure.
				if !sameHandler(prev, h) {
					prev.Kind, prev.Values, prev.Bounds, prev.Post = "custom", nil, "", ""
				}
				continue
			}
			byKey[h.key()] = h
			out = append(out, h)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].Module < out[j].Module
	})
	return out, nil
}

func sameHandler(a, b *Handler) bool {
	return a.Kind == b.Kind && strings.Join(a.Values, ",") == strings.Join(b.Values, ",") && a.Bounds == b.Bounds && a.Post == b.Post
}

// ScanFiles reads the handlers of every ngx_command_t array in the given
// C files (path -> contents).
func ScanFiles(files map[string]string) ([]*Handler, error) {
	s := &scanned{
		commands: map[string][][]string{}, modules: map[string]string{},
		lists: map[string][]string{}, bounds: map[string]string{}, posts: map[string]string{},
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := s.addFile(cFile{name: n, text: stripC(files[n])}); err != nil {
			return nil, err
		}
	}
	return s.handlers()
}

// ScanDir scans every .c file under dir (a source checkout of nginx or
// of a module).
func ScanDir(dir string) ([]*Handler, error) {
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != dir && (d.Name() == ".git" || d.Name() == "t" || d.Name() == "test") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".c") {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, path)
			files[rel] = string(data)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no .c files", dir)
	}
	return ScanFiles(files)
}
