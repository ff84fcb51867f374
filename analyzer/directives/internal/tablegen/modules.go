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

// Names of the tables of third-party modules that the generator writes
// beside the handlers file from module source checkouts, and reads from
// there. They are nginx-lint's own (the shared data directory covers
// nginx, njs, nginx-acme, lua-nginx-module and headers-more only).
const (
	ModulesFile   = "modules.tsv"
	ModVarsFile   = "modvars.tsv"
	modulesHeader = "name\tmodule\tcontexts\targs\tblock\tsyntax\tdefault\tsince\turl\tsrc_module\tnotes"
	modVarsHeader = "name\tmodule\turl\tsrc_module\tnotes"
)

// maskContexts maps the context bits of an ngx_command_t type mask to the
// context words of the tables. Bits of blocks the tables do not model
// (rtmp {}, for one) have no word: a directive with only such bits is
// left out.
var maskContexts = map[string]string{
	"NGX_MAIN_CONF":        "main",
	"NGX_EVENT_CONF":       "events",
	"NGX_HTTP_MAIN_CONF":   "http",
	"NGX_HTTP_SRV_CONF":    "server",
	"NGX_HTTP_LOC_CONF":    "location",
	"NGX_HTTP_SIF_CONF":    "if-in-server",
	"NGX_HTTP_LIF_CONF":    "if-in-location",
	"NGX_HTTP_LMT_CONF":    "limit_except",
	"NGX_HTTP_UPS_CONF":    "upstream",
	"NGX_STREAM_MAIN_CONF": "stream",
	"NGX_STREAM_SRV_CONF":  "stream-server",
	"NGX_STREAM_UPS_CONF":  "stream-upstream",
	"NGX_MAIL_MAIN_CONF":   "mail",
	"NGX_MAIL_SRV_CONF":    "mail-server",
	"NGX_ANY_CONF":         "any",
}

// maskArgs maps the argument bits of a type mask to the args words.
var maskArgs = map[string]string{
	"NGX_CONF_NOARGS": "NOARGS", "NGX_CONF_TAKE1": "TAKE1", "NGX_CONF_TAKE2": "TAKE2",
	"NGX_CONF_TAKE3": "TAKE3", "NGX_CONF_TAKE4": "TAKE4", "NGX_CONF_TAKE5": "TAKE5",
	"NGX_CONF_TAKE6": "TAKE6", "NGX_CONF_TAKE7": "TAKE7", "NGX_CONF_TAKE12": "TAKE12",
	"NGX_CONF_TAKE13": "TAKE13", "NGX_CONF_TAKE23": "TAKE23", "NGX_CONF_TAKE123": "TAKE123",
	"NGX_CONF_TAKE1234": "TAKE1234", "NGX_CONF_FLAG": "FLAG", "NGX_CONF_1MORE": "1MORE",
	"NGX_CONF_2MORE": "2MORE", "NGX_CONF_ANY": "ANY",
}

// maskIgnored are bits that say nothing about contexts or arguments.
var maskIgnored = map[string]bool{"NGX_DIRECT_CONF": true, "NGX_CONF_BLOCK": true, "0": true}

// ModuleDirective is one command of a third-party module's ngx_command_t
// table.
type ModuleDirective struct {
	Name, Module string
	Contexts     []string // context words, in contextWords order
	Args         string   // args word(s), "|"-joined as in the tables
	Block        bool
	// Defines is the index of the argument that names a variable the
	// directive defines ("$name"), -1 for none, DefinesBlockLines when
	// each line of its block defines the variable its first word names
	// (geoip2). It is read from the handler: a call of
	// ngx_http_add_variable (or the stream one, or NDK's set_var
	// functions) on value[N]; NDK's ndk_set_var_* handlers, whose first
	// argument is the variable set; a block line handler (cf->handler)
	// that requires a "$" at the start of value[0].
	Defines int
}

// DefinesBlockLines is ModuleDirective.Defines for a block whose lines
// each define a variable.
const DefinesBlockLines = -2

// ModuleVariable is one variable a third-party module registers by name.
type ModuleVariable struct {
	Name, Module string
	Prefix       bool // NGX_HTTP_VAR_PREFIX: a family such as $foo_*
	// IfUsed marks a variable the module registers only when the
	// configuration uses one of its directives: the function registering
	// it returns early unless a "used" or "enabled" flag is set (memc's
	// variables exist only with memc_pass).
	IfUsed bool
}

// ModuleScan is what one module source tree defines.
type ModuleScan struct {
	Directives []ModuleDirective
	Variables  []ModuleVariable
}

var (
	defineRE   = regexp.MustCompile(`(?m)^#\s*define\s+(\w+)\s+(.+)$`)
	varArrayRE = regexp.MustCompile(`\b(ngx_http_variable_t|ngx_stream_variable_t|\w+_variable_t)\s+(\w+)\s*\[\s*\]\s*=\s*\{`)
	strDeclRE  = regexp.MustCompile(`\bngx_str_t\s+(\w+)\s*=\s*ngx_string\s*\(\s*"([^"]*)"\s*\)`)
	// addVarRE finds a module-level registration of a named variable
	// through a static ngx_str_t (ngx_http_add_variable(cf, &name, ...),
	// or a module's own wrapper of it).
	addVarRE = regexp.MustCompile(`\b\w*add_variable\s*\(\s*cf\s*,\s*&(\w+)\s*[,)]`)
	// addArgVarRE finds a registration of the variable a directive's
	// argument names: &value[N] or value + N.
	addArgVarRE = regexp.MustCompile(`\b\w*(?:add_variable|set_var\w*)\s*\(\s*cf\s*,\s*(?:&value\[(\d+)\]|value\s*\+\s*(\d+))`)
	// blockHandlerRE finds a block directive's handler of the lines
	// inside its block (cf->handler = f).
	blockHandlerRE = regexp.MustCompile(`\bcf->handler\s*=\s*(\w+)\s*;`)
	// firstWordVarRE finds a block line handler that takes a line's first
	// word as a variable name ("$name ...": geoip2's block).
	firstWordVarRE = regexp.MustCompile(`value\[0\]\.data\[0\]\s*[!=]=\s*'\$'`)
	// usedGuardRE finds the early return of a registering function that
	// runs only when the module is used.
	usedGuardRE = regexp.MustCompile(`if\s*\(\s*!\s*[\w>.-]*(?:used|enabled)\s*\)\s*\{?\s*return\s+NGX_OK`)
	// funcRE finds a function definition in nginx's style: the name at
	// the start of a line, its parameters, then the body.
	funcRE = regexp.MustCompile(`(?m)^(\w+)\s*\(([^;{)]*)\)\s*\{`)
)

// ScanModule reads the ngx_command_t tables, variable arrays and variable
// registrations of a third-party module's source tree (every .c file
// under dir).
func ScanModule(dir string) (*ModuleScan, error) {
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "t" || d.Name() == "test" || d.Name() == "tests" || d.Name() == "examples" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".c") || strings.HasSuffix(path, ".h")) {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, path)
			files[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ScanModuleFiles(files)
}

// guardedIncludeRE finds a header included right after the file defines
// the guard that selects part of it: NDK's generated ndk_config.c lists
// its commands as "#define NDK_UPSTREAM_LIST_CMDS 1" then "#include
// <ndk_upstream_list.h>", whose command entries stand under "#if
// (NDK_UPSTREAM_LIST_CMDS)".
var guardedIncludeRE = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+1[ \t]*\n[ \t]*#[ \t]*include[ \t]+[<"]([^>"]+)[>"][^\n]*$`)

// inlineGuardedIncludes replaces each such include of a header of the
// tree with the part of the header the guard selects (up to its #else or
// #endif), so that the entries it holds are read where it is included.
func inlineGuardedIncludes(text string, files map[string]string) string {
	return guardedIncludeRE.ReplaceAllStringFunc(text, func(m string) string {
		sm := guardedIncludeRE.FindStringSubmatch(m)
		guard, header := sm[1], filepath.Base(sm[2])
		for name, h := range files {
			if filepath.Base(name) != header {
				continue
			}
			ifRE := regexp.MustCompile(`(?m)^[ \t]*#[ \t]*if[ \t]*\(?[ \t]*` + regexp.QuoteMeta(guard) + `[ \t]*\)?[ \t]*$`)
			loc := ifRE.FindStringIndex(h)
			if loc == nil {
				return m
			}
			rest := h[loc[1]:]
			if end := regexp.MustCompile(`(?m)^[ \t]*#[ \t]*(else|endif)\b`).FindStringIndex(rest); end != nil {
				rest = rest[:end[0]]
			}
			return rest
		}
		return m
	})
}

// ScanModuleFiles is ScanModule over file contents by path.
func ScanModuleFiles(files map[string]string) (*ModuleScan, error) {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)

	// Macros of the tree, for masks written with them (#define
	// NGX_X_CONF (NGX_HTTP_MAIN_CONF|...)).
	macros := map[string]string{}
	for _, n := range names {
		for _, m := range defineRE.FindAllStringSubmatch(files[n], -1) {
			macros[m[1]] = strings.TrimSpace(m[2])
		}
	}

	s := &scanned{
		commands: map[string][][]string{}, modules: map[string]string{},
		lists: map[string][]string{}, bounds: map[string]string{}, posts: map[string]string{},
	}
	stripped := map[string]string{}
	funcs := map[string]string{} // function name -> body
	for _, n := range names {
		if !strings.HasSuffix(n, ".c") {
			continue
		}
		text := stripC(inlineGuardedIncludes(files[n], files))
		stripped[n] = text
		if err := s.addFile(cFile{name: n, text: text}); err != nil {
			return nil, err
		}
		for _, l := range funcRE.FindAllStringSubmatchIndex(text, -1) {
			name := text[l[2]:l[3]]
			if body, ok := braceBody(text, l[1]-1); ok {
				funcs[name] = body
			}
		}
	}

	// A commands array in a file that another one #includes (nchan's
	// nchan_config_commands.c) is listed by a module of that other file:
	// match those by the array's name.
	byArray := map[string]string{}
	for key, module := range s.modules {
		_, arr, _ := strings.Cut(key, "\x00")
		byArray[arr] = module
	}
	out := &ModuleScan{}
	seen := map[string]bool{}
	for _, key := range s.order {
		file, arr, _ := strings.Cut(key, "\x00")
		module, ok := s.modules[key]
		if !ok {
			module, ok = byArray[arr]
		}
		if !ok {
			continue
		}
		for _, e := range s.commands[key] {
			if len(e) < 3 {
				return nil, fmt.Errorf("%s: %s: entry with %d fields", file, arr, len(e))
			}
			m := ngxStringRE.FindStringSubmatch(e[0])
			if m == nil {
				return nil, fmt.Errorf("%s: %s: entry name %q", file, arr, e[0])
			}
			d := ModuleDirective{Name: m[1], Module: module, Defines: -1}
			if err := d.readMask(e[1], macros); err != nil {
				return nil, fmt.Errorf("%s: %s: %s: %v", file, arr, d.Name, err)
			}
			if len(d.Contexts) == 0 {
				continue // only in blocks the tables do not model
			}
			fn := ident(e[2])
			switch {
			case strings.HasPrefix(fn, "ndk_set_var_"):
				d.Defines = 0
			default:
				body := funcs[fn]
				if sm := addArgVarRE.FindStringSubmatch(body); sm != nil {
					n := sm[1] + sm[2]
					if i, err := strconv.Atoi(n); err == nil && i >= 1 {
						d.Defines = i - 1
					}
				} else if bm := blockHandlerRE.FindStringSubmatch(body); bm != nil && d.Block && firstWordVarRE.MatchString(funcs[bm[1]]) {
					d.Defines = DefinesBlockLines
				}
			}
			if k := d.Name + "\t" + d.Module; !seen[k] {
				seen[k] = true
				out.Directives = append(out.Directives, d)
			}
		}
	}

	// The module a file's variables belong to: the module that lists the
	// file's commands, else the tree's only module of the family.
	fileModule := map[string]string{}
	for key, module := range s.modules {
		file, _, _ := strings.Cut(key, "\x00")
		fileModule[file] = module
	}
	var family = func(stream bool) string {
		var only string
		for _, m := range fileModule {
			if strings.HasPrefix(m, "ngx_stream_") == stream {
				if only != "" && only != m {
					return ""
				}
				only = m
			}
		}
		return only
	}
	varSeen := map[string]bool{}
	addVar := func(v ModuleVariable) {
		if v.Name == "" || v.Module == "" || varSeen[v.Name+"\t"+v.Module] {
			return
		}
		varSeen[v.Name+"\t"+v.Module] = true
		out.Variables = append(out.Variables, v)
	}
	// guarded reports whether every function that names ident (an array
	// of variables) registers it only when the module is used.
	// A function is guarded when it has the early return, or when every
	// function that calls it is (memc registers its variables in a helper
	// that its guarded postconfiguration calls).
	var guarded func(ident string, depth int) bool
	guarded = func(ident string, depth int) bool {
		seen := false
		for name, body := range funcs {
			if name == ident || !strings.Contains(body, ident) {
				continue
			}
			if !usedGuardRE.MatchString(body) && (depth == 0 || !guarded(name+"(", depth-1)) {
				return false
			}
			seen = true
		}
		return seen
	}
	decls := map[string]string{}
	for _, n := range names {
		if text, ok := stripped[n]; ok {
			for _, m := range strDeclRE.FindAllStringSubmatch(text, -1) {
				decls[m[1]] = m[2]
			}
		}
	}
	for _, n := range names {
		text, ok := stripped[n]
		if !ok {
			continue
		}
		for _, l := range varArrayRE.FindAllStringSubmatchIndex(text, -1) {
			stream := strings.Contains(text[l[2]:l[3]], "stream")
			module := fileModule[n]
			if module == "" || strings.HasPrefix(module, "ngx_stream_") != stream {
				module = family(stream)
			}
			body, ok := braceBody(text, l[1]-1)
			if !ok {
				return nil, fmt.Errorf("%s: unterminated variable array", n)
			}
			ifUsed := guarded(text[l[4]:l[5]], 2)
			for _, e := range entries(body) {
				if len(e) == 0 {
					continue
				}
				m := ngxStringRE.FindStringSubmatch(e[0])
				if m == nil {
					continue
				}
				prefix := len(e) > 4 && strings.Contains(e[4], "_VAR_PREFIX")
				addVar(ModuleVariable{Name: strings.ToLower(m[1]), Module: module, Prefix: prefix, IfUsed: ifUsed})
			}
		}
	}
	for _, n := range names {
		text, ok := stripped[n]
		if !ok {
			continue
		}
		for _, l := range funcRE.FindAllStringSubmatchIndex(text, -1) {
			body, ok := braceBody(text, l[1]-1)
			if !ok {
				continue
			}
			ifUsed := usedGuardRE.MatchString(body)
			for _, m := range addVarRE.FindAllStringSubmatch(body, -1) {
				name, ok := decls[m[1]]
				if !ok {
					continue
				}
				module := fileModule[n]
				if module == "" {
					module = family(strings.Contains(m[0], "stream"))
				}
				addVar(ModuleVariable{Name: strings.ToLower(name), Module: module, IfUsed: ifUsed})
			}
		}
	}
	sort.Slice(out.Variables, func(i, j int) bool {
		a, b := out.Variables[i], out.Variables[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Module < b.Module
	})
	return out, nil
}

// readMask sets d's contexts, arguments and block from an ngx_command_t
// type field, expanding the tree's macros.
func (d *ModuleDirective) readMask(mask string, macros map[string]string) error {
	ctx := map[string]bool{}
	var args []string
	var walk func(expr string, depth int) error
	walk = func(expr string, depth int) error {
		if depth > 8 {
			return fmt.Errorf("macro %q nests too deep", expr)
		}
		expr = strings.NewReplacer("(", " ", ")", " ", "\n", " ", "\t", " ").Replace(expr)
		for _, part := range strings.Split(expr, "|") {
			bit := strings.TrimSpace(part)
			switch {
			case bit == "" || maskIgnored[bit]:
				if bit == "NGX_CONF_BLOCK" {
					d.Block = true
				}
			case maskContexts[bit] != "":
				ctx[maskContexts[bit]] = true
			case maskArgs[bit] != "":
				args = append(args, maskArgs[bit])
			case macros[bit] != "":
				if err := walk(macros[bit], depth+1); err != nil {
					return err
				}
			case strings.HasPrefix(bit, "NGX_") && strings.HasSuffix(bit, "_CONF"):
				// A block of its own (NGX_RTMP_MAIN_CONF): not modelled.
			default:
				return fmt.Errorf("unknown mask bit %q", bit)
			}
		}
		return nil
	}
	if err := walk(mask, 0); err != nil {
		return err
	}
	for _, c := range contextWords {
		if ctx[c.word] {
			d.Contexts = append(d.Contexts, c.word)
		}
	}
	d.Args = canonicalArgs(args)
	if d.Block {
		d.Args = "BLOCK+" + d.Args
	}
	return nil
}

// canonicalArgs writes argument bits the way the tables do (and
// directives.ArgRule.String): ANY, FLAG, 1MORE, 2MORE, NOARGS, then one
// TAKE word with every count. No bit at all means no argument: nginx's
// check of argument_number[0] is NOARGS.
func canonicalArgs(words []string) string {
	set := map[string]bool{}
	digits := ""
	for _, w := range words {
		if d, ok := strings.CutPrefix(w, "TAKE"); ok {
			digits += d
			continue
		}
		set[w] = true
	}
	var parts []string
	for _, w := range []string{"ANY", "FLAG", "1MORE", "2MORE", "NOARGS"} {
		if set[w] {
			parts = append(parts, w)
		}
	}
	if digits != "" {
		take := "TAKE"
		for c := '1'; c <= '7'; c++ {
			if strings.ContainsRune(digits, c) {
				take += string(c)
			}
		}
		parts = append(parts, take)
	}
	if len(parts) == 0 {
		return "NOARGS"
	}
	return strings.Join(parts, "|")
}

// WriteModules writes the directive and variable tables of the scanned
// modules into dir (ModulesFile and ModVarsFile). sources are the "# "
// lines that say where each tree came from; known holds the (name,
// module) keys the shared tables already have, which are left out.
//
// The tables already in dir are merged with the scans: the rows of the
// modules the scans define, and the source line of each tree scanned
// again, are replaced; the others stay, so a run over some of the
// checkouts (one new module) keeps the rows of the rest.
func WriteModules(dir string, sources []string, scans []*ModuleScan, known map[string]bool) error {
	rescanned := map[string]bool{} // modules the scans define
	for _, s := range scans {
		for _, x := range s.Directives {
			rescanned[x.Module] = true
		}
		for _, x := range s.Variables {
			rescanned[x.Module] = true
		}
	}
	oldSources, oldDirs, err := readModuleRows(filepath.Join(dir, ModulesFile), rescanned)
	if err != nil {
		return err
	}
	_, oldVars, err := readModuleRows(filepath.Join(dir, ModVarsFile), rescanned)
	if err != nil {
		return err
	}
	// Source lines by tree ("github.com/owner/repo"), in the order the
	// checkouts' directory names sort (owner+repo).
	byTree := map[string]string{}
	for _, l := range append(oldSources, sources...) {
		tree, _, _ := strings.Cut(l, " ")
		byTree[tree] = l
	}
	trees := make([]string, 0, len(byTree))
	for t := range byTree {
		trees = append(trees, t)
	}
	sort.Slice(trees, func(i, j int) bool {
		return strings.Replace(trees[i], "/", "+", 2) < strings.Replace(trees[j], "/", "+", 2)
	})
	var d, v strings.Builder
	for _, t := range trees {
		fmt.Fprintf(&d, "# %s\n", byTree[t])
		fmt.Fprintf(&v, "# %s\n", byTree[t])
	}
	d.WriteString("# generated by go run ./analyzer/directives/internal/gen -modules-src ...; notes tag defines=N: argument N names the variable the directive sets (block: each line's first word)\n")
	v.WriteString("# generated by go run ./analyzer/directives/internal/gen -modules-src ...\n")
	d.WriteString(modulesHeader + "\n")
	v.WriteString(modVarsHeader + "\n")
	type row struct{ module, name, line string }
	var dirs []row
	for _, l := range oldDirs {
		f := strings.SplitN(l, "\t", 3)
		dirs = append(dirs, row{f[1], f[0], l})
	}
	var vars []ModuleVariable
	for _, s := range scans {
		for _, x := range s.Directives {
			if known[x.Name+"\t"+x.Module] {
				continue
			}
			block := "no"
			if x.Block {
				block = "yes"
			}
			notes := "source-only"
			switch {
			case x.Defines >= 0:
				notes += ";defines=" + strconv.Itoa(x.Defines)
			case x.Defines == DefinesBlockLines:
				notes += ";defines=block"
			}
			dirs = append(dirs, row{x.Module, x.Name, fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t\t\t\t\t%s\t%s",
				x.Name, x.Module, strings.Join(x.Contexts, ","), x.Args, block, x.Module, notes)})
		}
		vars = append(vars, s.Variables...)
	}
	sort.SliceStable(dirs, func(i, j int) bool {
		if dirs[i].module != dirs[j].module {
			return dirs[i].module < dirs[j].module
		}
		return dirs[i].name < dirs[j].name
	})
	for _, x := range dirs {
		d.WriteString(x.line + "\n")
	}
	for _, l := range oldVars {
		v.WriteString(l + "\n")
	}
	for _, x := range vars {
		name := "$" + x.Name
		if x.Prefix {
			name += "*"
		}
		notes := "source-only"
		if x.IfUsed {
			notes += ";if-module-used"
		}
		fmt.Fprintf(&v, "%s\t%s\t\t%s\t%s\n", name, x.Module, x.Module, notes)
	}
	if err := os.WriteFile(filepath.Join(dir, ModulesFile), []byte(d.String()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ModVarsFile), []byte(v.String()), 0o644)
}

// readModuleRows reads a table WriteModules wrote: its source lines
// (without "# ") and the rows of modules not in drop. A missing file has
// none.
func readModuleRows(path string, drop map[string]bool) (sources, rows []string, err error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	header := true
	for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "# github.com/"):
			sources = append(sources, strings.TrimPrefix(l, "# "))
		case strings.HasPrefix(l, "#"):
		case header:
			header = false // the column names
		default:
			if f := strings.SplitN(l, "\t", 3); len(f) >= 2 && !drop[f[1]] {
				rows = append(rows, l)
			}
		}
	}
	return sources, rows, nil
}

// SharedKeys returns the (name, module) keys of the directive tables in
// the shared data directory, "name\tmodule".
func SharedKeys(dataDir string) (map[string]bool, error) {
	keys := map[string]bool{}
	for _, f := range []string{DirectivesFile, ThirdPartyFile} {
		t, err := readTable(dataDir, f)
		if err != nil {
			return nil, err
		}
		for i := range t.rows {
			keys[t.cell(i, "name")+"\t"+t.cell(i, "module")] = true
		}
	}
	return keys, nil
}
