package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/internal/report"
	"github.com/nginx-lint/nginx-lint/parser"
)

// routeCmd is `nginx-lint route CONFIG URL...`: which server and
// location answer each URL, through which redirects, with what.
type routeCmd struct {
	loadFlags
	Config string   `arg:"" name:"config" help:"Main configuration file, or \"-\" for standard input."`
	URLs   []string `arg:"" name:"url" help:"Requests as http[s]://HOST[:PORT]/path?query: HOST is the Host header (and for https the SNI name), the path is sent as written, undecoded."`
	Format string   `short:"f" enum:"text,json" default:"text" help:"Output format: ${enum}."`
	requestFlags
}

// requestFlags describe the requests and the machine nginx runs on, for
// route and diff.
type requestFlags struct {
	Local   string   `help:"The address and port the connection arrives at, ADDR:PORT or unix:PATH (default: the URL's port on an address the configuration listens on, the one whose servers name the host if any)." placeholder:"ADDR:PORT"`
	Header  []string `short:"H" help:"A request header, NAME:VALUE; repeatable." placeholder:"NAME:VALUE"`
	NoHost  bool     `name:"no-host" help:"Send no Host header (an HTTP/1.0 request)."`
	Method  string   `default:"GET" help:"The request method."`
	Remote  string   `help:"The client's address ($remote_addr, allow and deny); unknown by default, and what depends on it is reported unsure." placeholder:"ADDR"`
	RootMap []string `name:"root-map" help:"Look the files of a directory of the nginx host up in a directory here, FROM=TO (try_files, index, static files); repeatable. Files under a root that is no directory here are taken as missing, and the answer says so." placeholder:"FROM=TO"`
	NoFiles bool     `name:"no-files" help:"Take every file as missing (try_files, index, static files) without looking."`
}

// options are the routing model's options the flags give.
func (f requestFlags) options(prefix string) (routing.Options, error) {
	o := routing.Options{NoFiles: f.NoFiles, Roots: map[string]string{}}
	if prefix != "" {
		o.Prefix = prefix
	}
	for _, m := range f.RootMap {
		from, to, ok := strings.Cut(m, "=")
		if !ok || from == "" || to == "" {
			return o, &lint.UsageError{Msg: fmt.Sprintf("--root-map %q: want FROM=TO", m)}
		}
		o.Roots[from] = to
	}
	return o, nil
}

// request applies the flags to a request made from a URL.
func (f requestFlags) request(t *routing.Table, raw string) (routing.HTTPRequest, error) {
	r, err := routing.ParseURL(raw)
	if err != nil {
		return r, &lint.UsageError{Msg: err.Error()}
	}
	o := routing.RequestOptions{Method: f.Method, NoHost: f.NoHost, Headers: f.Header, Remote: f.Remote, Local: f.Local}
	if err := o.Apply(&r); err != nil {
		var oe *routing.OptionError
		if !errors.As(err, &oe) {
			return r, &lint.UsageError{Msg: err.Error()}
		}
		want := map[string]string{"header": "want NAME:VALUE", "remote": "not an address", "local": "want ADDR:PORT or unix:PATH"}[oe.Option]
		return r, &lint.UsageError{Msg: fmt.Sprintf("--%s %q: %s", oe.Option, oe.Value, want)}
	}
	// When nothing listens on the port, the address stays unset and
	// the answer is Refused.
	_ = t.Arrive(&r)
	return r, nil
}

// loadRoutes reads one configuration and makes its request model; it
// says how many bytes it read, for sizing the garbage collector
// (routeGC).
func loadRoutes(e *env, lf loadFlags, path string, o routing.Options) (*routing.Model, int64, error) {
	w, err := lf.workspace(e)
	if err != nil {
		return nil, 0, err
	}
	w.NoSettings = true
	rep, err := w.Load([]lint.Target{lint.FileTarget(path)})
	if err != nil {
		return nil, 0, err
	}
	if len(rep.Unreadable) > 0 {
		return nil, rep.Read, fmt.Errorf("%s: %s", path, readError(rep.Unreadable[0].Err))
	}
	if len(rep.Units) == 0 {
		return nil, rep.Read, fmt.Errorf("%s: nothing to route", path)
	}
	c := rep.Units[0].Config
	// nginx starts with none of a configuration it cannot read (an
	// unterminated block, a stray "}"): answer for what could be read,
	// but say so and exit 1.
	for _, d := range c.AllDiagnostics() {
		if d.Severity >= parser.Error {
			cwd, _ := os.Getwd()
			fmt.Fprintf(e.stderr, "nginx-lint: %s: nginx refuses this configuration: %s:%d:%d: %s (%s); the answers are for what could be read\n",
				report.TerminalSafe(report.DisplayPath(path, cwd)), report.TerminalSafe(report.DisplayPath(d.FilePath(), cwd)),
				d.Start().Line, d.Start().Column, report.TerminalSafe(d.Message), d.Name)
			e.unread = true
			break
		}
	}
	return modelOf(c, o), rep.Read, nil
}

// unreadExit is a route or diff run's exit code: 1 rather than 0 when
// it answered for a configuration nginx cannot read.
func unreadExit(e *env, code int, err error) (int, error) {
	if err == nil && code == exitClean && e.unread {
		code = exitFindings
	}
	return code, err
}

// routeGC undoes batchGC's GOGC=400 for route and diff on a big
// configuration: a request model holds several times what a lint does
// (every server's locations, twice for diff), and five times its live
// heap would be gigabytes for 19,900 servers. bigInputGC's memory limit
// is sized for a lint's heap and would collect without end here.
func routeGC(read int64) {
	if _, set := os.LookupEnv("GOGC"); !set && read > 8<<20 {
		debug.SetGCPercent(100)
	}
}

// modelOf is the request model of a loaded configuration.
func modelOf(c *parser.Config, o routing.Options) *routing.Model {
	m := parser.BuildModel(c)
	return routing.New(m, costmodel.Compute(m, costmodel.Options{}), o)
}

// Run answers the URLs.
func (cmd *routeCmd) Run(e *env) error {
	code, err := cmd.run(e)
	return e.exit(unreadExit(e, code, err))
}

func (cmd *routeCmd) run(e *env) (int, error) {
	o, err := cmd.requestFlags.options(cmd.Prefix)
	if err != nil {
		return 0, err
	}
	m, read, err := loadRoutes(e, cmd.loadFlags, cmd.Config, o)
	if err != nil {
		return exitError, err
	}
	routeGC(read)
	var reqs []routing.HTTPRequest
	for _, u := range cmd.URLs {
		r, err := cmd.requestFlags.request(m.Table, u)
		if err != nil {
			return 0, err
		}
		reqs = append(reqs, r)
	}
	cwd, _ := os.Getwd()
	var out []report.Route
	for i, r := range reqs {
		a := m.Route(r)
		j := report.RouteOf(m, cmd.URLs[i], r, a, cwd)
		if cmd.Format == "json" {
			out = append(out, j)
			continue
		}
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		report.WriteRouteText(e.stdout, j)
	}
	if cmd.Format == "json" {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if out == nil {
			out = []report.Route{}
		}
		if err := enc.Encode(out); err != nil {
			return exitError, err
		}
	}
	return exitClean, nil
}
