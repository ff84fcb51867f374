// Package buildinfo reads the output of "nginx -V": how the binary was
// built (compiler flags, debug, profiling) and which modules it has. The
// module list tells the linter which directives this nginx knows, so a
// directive of a module the build lacks is reported before nginx refuses
// to start.
//
// The audit is honest about effect sizes: the benchmark behind this
// project measured -O2 and -O3 within about 1% of nginx's default -O, so
// optimisation flags are reported, not sold.
package buildinfo

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Info is what "nginx -V" says about a binary.
type Info struct {
	// Version is the nginx version ("1.22.1"); Variant the product name
	// before the slash ("nginx", "openresty", "freenginx").
	Version, Variant string
	// Compiler is the "built by" line, OpenSSL the "built with" line.
	Compiler, OpenSSL string
	// Args are the configure arguments, split as a shell would.
	Args []string
	// CCOpt, LDOpt and CPUOpt are the values of --with-cc-opt,
	// --with-ld-opt and --with-cpu-opt.
	CCOpt, LDOpt, CPUOpt string
	// Optimization is the last -O flag of CCOpt, or "-O" (nginx's own
	// default for gcc and clang) when CCOpt has none.
	Optimization string
	// Debug is --with-debug; PerfTools is --with-google_perftools_module.
	Debug, PerfTools bool
	// Static and Dynamic are the modules compiled in and built as
	// loadable objects, by source name (ngx_http_ssl_module). Without
	// lists the default modules turned off. ThirdParty lists the paths of
	// --add-module and --add-dynamic-module.
	Static, Dynamic, Without, ThirdParty []string
}

var versionLine = regexp.MustCompile(`(?m)^(?:nginx: )?(?:\S+ )?version: (\S+?)/(\S+)`)

// Parse reads "nginx -V" output (stderr, where nginx writes it).
func Parse(out string) (*Info, error) {
	m := versionLine.FindStringSubmatch(out)
	if m == nil {
		return nil, fmt.Errorf("not nginx -V output: no \"nginx version:\" line")
	}
	info := &Info{Variant: m[1], Version: m[2]}
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(line, "nginx: "))
		switch {
		case strings.HasPrefix(line, "built by "):
			info.Compiler = strings.TrimPrefix(line, "built by ")
		case strings.HasPrefix(line, "built with "):
			info.OpenSSL = strings.TrimPrefix(line, "built with ")
		case strings.HasPrefix(line, "configure arguments:"):
			args, err := splitShell(strings.TrimPrefix(line, "configure arguments:"))
			if err != nil {
				return nil, err
			}
			info.Args = args
		}
	}
	info.readArgs()
	return info, nil
}

func (info *Info) readArgs() {
	without := map[string]bool{}
	static := map[string]bool{}
	dynamic := map[string]bool{}
	for _, a := range info.Args {
		name, value, hasValue := strings.Cut(a, "=")
		switch {
		case name == "--with-cc-opt":
			info.CCOpt = value
		case name == "--with-ld-opt":
			info.LDOpt = value
		case name == "--with-cpu-opt":
			info.CPUOpt = value
		case name == "--with-debug":
			info.Debug = true
		case name == "--with-threads":
			static["ngx_thread_pool_module"] = true
		case name == "--add-module" || name == "--add-dynamic-module":
			info.ThirdParty = append(info.ThirdParty, value)
		case strings.HasPrefix(name, "--without-") && strings.HasSuffix(name, "_module"):
			without["ngx_"+strings.TrimPrefix(name, "--without-")] = true
		case name == "--with-mail" || name == "--with-stream":
			group := strings.TrimPrefix(name, "--with-")
			target := static
			if hasValue && value == "dynamic" {
				target = dynamic
			}
			target["ngx_"+group+"_module"] = true
		case strings.HasPrefix(name, "--with-") && strings.HasSuffix(name, "_module"):
			mod := "ngx_" + strings.TrimPrefix(name, "--with-")
			if mod == "ngx_google_perftools_module" {
				info.PerfTools = true
			}
			if hasValue && value == "dynamic" {
				dynamic[mod] = true
			} else {
				static[mod] = true
			}
		}
	}
	info.Optimization = "-O"
	for _, f := range strings.Fields(info.CCOpt) {
		if strings.HasPrefix(f, "-O") {
			info.Optimization = f
		}
	}
	for _, m := range defaultModules {
		group := strings.SplitN(strings.TrimPrefix(m, "ngx_"), "_", 2)[0]
		if without[m] {
			continue
		}
		switch group {
		case "mail", "stream":
			// Their default modules come with the group, statically or
			// as part of the dynamic group module.
			switch {
			case static["ngx_"+group+"_module"]:
				static[m] = true
			case dynamic["ngx_"+group+"_module"]:
				dynamic[m] = true
			}
		default:
			static[m] = true
		}
	}
	for m := range without {
		info.Without = append(info.Without, m)
	}
	info.Static, info.Dynamic = keys(static), keys(dynamic)
	sort.Strings(info.Without)
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Modules returns the set of modules in the build, by source name, with
// the spellings the directive tables use (a "--with-http_sub_module" flag
// builds ngx_http_sub_filter_module). Dynamic modules count: a config that
// uses one loads it with load_module.
func (info *Info) Modules() map[string]bool {
	out := map[string]bool{}
	for _, m := range alwaysModules {
		out[m] = true
	}
	for _, list := range [][]string{info.Static, info.Dynamic} {
		for _, m := range list {
			out[m] = true
			base := strings.TrimSuffix(m, "_module")
			out[base+"_filter_module"] = true
			if alias, ok := moduleAliases[m]; ok {
				for _, a := range alias {
					out[a] = true
				}
			}
		}
	}
	for _, p := range info.ThirdParty {
		for marker, mods := range thirdPartyMarkers {
			if strings.Contains(p, marker) {
				for _, m := range mods {
					out[m] = true
				}
			}
		}
	}
	return out
}

// DynamicModules returns the modules of the build that are shared
// objects, by source name as Modules spells them, each with the object
// that holds it (its base name without ".so"): present only where a
// load_module loads that object. A module configure builds as its own
// object (--with-http_geoip_module=dynamic) is in ngx_http_geoip_module.so;
// the other mail and stream modules of a dynamic group
// (--with-stream=dynamic) are in the group's object, ngx_stream_module.so,
// whichever way configure was told to build them.
func (info *Info) DynamicModules() map[string]string {
	out := map[string]string{}
	groups := map[string]string{}
	for _, m := range info.Dynamic {
		if m == "ngx_stream_module" || m == "ngx_mail_module" {
			groups[strings.TrimSuffix(m, "module")] = m
		}
	}
	for m := range info.Modules() {
		for prefix, g := range groups {
			if strings.HasPrefix(m, prefix) {
				out[m] = g
			}
		}
	}
	explicit := map[string]bool{}
	for _, a := range info.Args {
		if name, ok := strings.CutSuffix(a, "=dynamic"); ok {
			explicit["ngx_"+strings.TrimPrefix(name, "--with-")] = true
		}
	}
	inGroup := func(m string) bool {
		for prefix := range groups {
			if strings.HasPrefix(m, prefix) {
				return true
			}
		}
		return false
	}
	for _, m := range info.Dynamic {
		if inGroup(m) && !explicit[m] {
			continue // a default module of the group, in its object
		}
		own := []string{m, strings.TrimSuffix(m, "_module") + "_filter_module"}
		own = append(own, moduleAliases[m]...)
		for _, n := range own {
			out[n] = m
		}
	}
	for _, g := range groups {
		out[g] = g
	}
	// ngx_openssl_module comes with ngx_http_ssl_module too, which is
	// never dynamic.
	if !slices.Contains(info.Dynamic, "ngx_http_ssl_module") {
		delete(out, "ngx_openssl_module")
	}
	return out
}

// ObjectNames returns the names a load_module path of module's shared
// object can have (its base name without ".so"): the module itself, its
// name without or with "_filter" (configure says http_xslt_module, the
// object is ngx_http_xslt_filter_module.so), and its group's object for
// the mail and stream modules (ngx_stream_module.so holds them all).
func ObjectNames(module string) []string {
	names := []string{module}
	if n := strings.Replace(module, "_filter_module", "_module", 1); n != module {
		names = append(names, n)
	} else if base, ok := strings.CutSuffix(module, "_module"); ok {
		// configure's ngx_http_xslt_module is ngx_http_xslt_filter_module.so
		names = append(names, base+"_filter_module")
	}
	for _, g := range []string{"ngx_stream_", "ngx_mail_"} {
		if strings.HasPrefix(module, g) {
			names = append(names, g+"module")
		}
	}
	return names
}

// UnrecognizedThirdParty returns the --add-module and
// --add-dynamic-module paths of modules nginx-lint does not know: such a
// build may define directives and variables no table lists.
func (info *Info) UnrecognizedThirdParty() []string {
	var out []string
	for _, p := range info.ThirdParty {
		known := false
		for marker := range thirdPartyMarkers {
			known = known || strings.Contains(p, marker)
		}
		if !known {
			out = append(out, p)
		}
	}
	return out
}

// HasModule reports whether the build has the module (source name).
func (info *Info) HasModule(name string) bool { return info.Modules()[name] }

// Severity of an audit finding.
type Severity string

// Audit severities.
const (
	Note    Severity = "info"
	Warning Severity = "warning"
)

// Finding is one observation about the build.
type Finding struct {
	Severity Severity
	Message  string
	Detail   string
}

// Audit reviews the build flags.
func (info *Info) Audit() []Finding {
	var out []Finding
	switch o := info.Optimization; o {
	case "-O0":
		out = append(out, Finding{Warning, "built without optimisation (" + o + ")",
			"-O0 is for debugging; rebuild with nginx's default -O or -O2"})
	default:
		out = append(out, Finding{Note, "optimisation level " + o,
			"the benchmark behind nginx-lint measured -O2 and -O3 within about 1% of nginx's default -O: recompiling for this alone is not worth it"})
	}
	if info.CPUOpt != "" {
		out = append(out, Finding{Note, "tuned for CPU " + info.CPUOpt + " (--with-cpu-opt)",
			"only adds gcc's -mcpu/-march flags; the gain is small and the binary may not run on older CPUs"})
	}
	if info.Debug {
		out = append(out, Finding{Note, "debug logging compiled in (--with-debug)",
			"costs little unless an error_log is set to the debug level, which is very verbose and slow; make sure none is in production"})
	}
	if info.PerfTools {
		out = append(out, Finding{Note, "google_perftools_module built in",
			"it profiles workers when google_perftools_profiles is set; profiling slows every request, so leave that directive out in production"})
	}
	if info.Variant == "nginx" && info.Version != "" {
		out = append(out, Finding{Note, "nginx " + info.Version,
			"with server_tokens on (the default) every response and error page says this version; set server_tokens off"})
	}
	return out
}

// splitShell splits configure arguments the way nginx prints them: single
// or double quotes group, backslashes escape.
func splitShell(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' && i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated %c in configure arguments", quote)
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}
