package playground

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/layout"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/internal/report"
	"github.com/nginx-lint/nginx-lint/parser"
)

// CostResult is the answer of cost: an estimate per configuration with
// server blocks, as nginx-lint cost DIR gives them.
type CostResult struct {
	Estimates []CostEstimate `json:"estimates"`
	Warnings  []string       `json:"warnings"`
}

// CostEstimate is the startup estimate of one configuration in the
// command line's words and shapes: the three times as every report names
// them (report.Estimates), the layout's size, the text and JSON of
// nginx-lint cost (the phases, hashes, limits and the "what if" table in
// what_ifs), and the chart of --svg.
type CostEstimate struct {
	File   string          `json:"file"`
	Times  []CostTime      `json:"times"`
	Layout string          `json:"layout"`
	Text   string          `json:"text"`
	Report json.RawMessage `json:"report"`
	SVG    string          `json:"svg"`
}

// CostTime is one of the model's times.
type CostTime struct {
	Term    string  `json:"term"`
	Seconds float64 `json:"seconds"`
	Note    string  `json:"note,omitempty"`
}

func (s *Session) cost(req Request) (CostResult, error) {
	res := CostResult{Estimates: []CostEstimate{}, Warnings: []string{}}
	w, targets, err := s.workspace(&req, func(msg string) { res.Warnings = append(res.Warnings, msg) })
	if err != nil {
		return res, errorOf(err)
	}
	ests, _, err := w.Estimate(targets)
	if err != nil {
		return res, errorOf(err)
	}
	dir := req.dir()
	for _, est := range ests {
		if est.Model.Counts.Servers == 0 {
			continue // a snippet of directives: nothing worth a report
		}
		name := report.DisplayPath(est.Unit.Config.Main.Path, dir)
		c := report.Cost{Name: name, Result: est.Model, Findings: est.Findings, NoFileGiven: est.NoFileGiven}
		var text, js bytes.Buffer
		if err := report.CostText(&text, c, dir); err != nil {
			return res, err
		}
		if err := report.CostJSON(&js, c, dir); err != nil {
			return res, err
		}
		e := CostEstimate{File: name, Layout: report.LayoutSize(est.Model.Counts), Text: text.String(),
			Report: json.RawMessage(bytes.TrimSpace(js.Bytes())), SVG: report.CostSVG(est.Model, name, rules.DefaultStartupBudget)}
		for _, t := range report.Estimates(est.Model) {
			e.Times = append(e.Times, CostTime{Term: t.Term, Seconds: t.Seconds, Note: t.Note})
		}
		res.Estimates = append(res.Estimates, e)
	}
	return res, nil
}

// RouteRequest asks which server and location answer each URL. The
// request options are those of nginx-lint route's flags, under the names
// of the language server's nginx-lint.route command.
type RouteRequest struct {
	Request
	// Config is the main configuration (relative to Root or absolute;
	// default: the first configuration under Root that no other
	// includes).
	Config string `json:"config,omitempty"`
	// URLs are http[s]://HOST[:PORT]/path?query, as nginx-lint route
	// takes them.
	URLs []string `json:"urls"`
	// Method is the request method (default GET; --method).
	Method string `json:"method,omitempty"`
	// Local is the address and port the connection arrives at,
	// ADDR:PORT or unix:PATH (default: the URL's port on an address the
	// configuration listens on; --local).
	Local string `json:"local,omitempty"`
	// Headers are request headers, "Name: value" (--header); a Host
	// header replaces the URL's host.
	Headers []string `json:"headers,omitempty"`
	// NoHost sends no Host header, an HTTP/1.0 request (--no-host).
	NoHost bool `json:"noHost,omitempty"`
	// Remote is the client's address for $remote_addr, allow and deny
	// (default unknown, and what depends on it is unsure; --remote).
	Remote string `json:"remote,omitempty"`
}

// RouteResult is the answer of route: each URL's answer in the shape of
// nginx-lint route's JSON, and as its text.
type RouteResult struct {
	Routes []report.Route `json:"routes"`
	Text   []string       `json:"text"`
}

func (s *Session) route(req RouteRequest) (RouteResult, error) {
	res := RouteResult{Routes: []report.Route{}, Text: []string{}}
	if req.Config != "" {
		req.Targets = []string{req.Config}
	}
	// The request options are checked before the configuration is read:
	// a mistake in them is said at once, whatever the configuration.
	var reqs []routing.HTTPRequest
	var urls []string
	for _, raw := range req.URLs {
		raw = strings.TrimSpace(raw)
		if raw == "" {
			continue
		}
		r, err := req.request(raw)
		if err != nil {
			return res, err
		}
		reqs, urls = append(reqs, r), append(urls, raw)
	}
	if len(reqs) == 0 {
		return res, nil
	}
	w, targets, err := s.workspace(&req.Request, func(string) {})
	if err != nil {
		return res, errorOf(err)
	}
	// As nginx-lint route: the configuration alone, no settings.
	w.NoSettings = true
	rep, err := w.Load(targets)
	if err != nil {
		return res, errorOf(err)
	}
	if len(rep.Unreadable) > 0 {
		return res, fmt.Errorf("%s: cannot read it: %v", report.DisplayPath(rep.Unreadable[0].Path, req.dir()), rep.Unreadable[0].Err)
	}
	if len(rep.Units) == 0 {
		return res, fmt.Errorf("nothing to route")
	}
	u := rep.Units[0]
	// The page holds configuration files only, no web roots: every file
	// try_files, index or a static handler looks for is missing, and the
	// answer says so (nginx-lint route --no-files).
	model := parser.BuildModel(u.Config)
	m := routing.New(model, costmodel.Compute(model, costmodel.Options{}), routing.Options{NoFiles: true})
	for i, r := range reqs {
		// When nothing listens on the port, the address stays unset and
		// the answer is Refused.
		_ = m.Table.Arrive(&r)
		j := report.RouteOf(m, urls[i], r, m.Route(r), req.dir())
		var b bytes.Buffer
		report.WriteRouteText(&b, j)
		res.Routes = append(res.Routes, j)
		res.Text = append(res.Text, b.String())
	}
	return res, nil
}

// request is the request of a URL with the options, as nginx-lint route
// makes it from its flags; the local address is left for Table.Arrive.
func (req *RouteRequest) request(raw string) (routing.HTTPRequest, error) {
	r, err := routing.ParseURL(raw)
	if err != nil {
		return r, err
	}
	o := routing.RequestOptions{Method: req.Method, NoHost: req.NoHost, Headers: req.Headers, Remote: req.Remote, Local: req.Local}
	if err := o.Apply(&r); err != nil {
		var oe *routing.OptionError
		if errors.As(err, &oe) && oe.Option != "header" {
			// The page's fields are named so.
			what := map[string]string{"remote": "client address %q: not an address", "local": "local address %q: want ADDR:PORT or unix:PATH"}[oe.Option]
			return r, fmt.Errorf(what, oe.Value)
		}
		return r, err
	}
	return r, nil
}

// ExampleRequest names a layout of the many-servers benchmark
// (layout.Names: L1a ... L3c) and its size.
type ExampleRequest struct {
	Layout string `json:"layout"`
	// N is the number of server blocks (default 20,000, the seed's).
	N int `json:"n,omitempty"`
}

// ExampleResult is the generated configuration.
type ExampleResult struct {
	Text string `json:"text"`
}

// MaxExampleServers bounds the layouts the page generates.
const MaxExampleServers = 100000

func (s *Session) example(req ExampleRequest) (ExampleResult, error) {
	l, err := layout.ParseName(req.Layout)
	if err != nil {
		return ExampleResult{}, err
	}
	n := req.N
	if n == 0 {
		n = 20000
	}
	if n < 1 || n > MaxExampleServers {
		return ExampleResult{}, fmt.Errorf("%d servers: give 1 to %d", n, MaxExampleServers)
	}
	var b bytes.Buffer
	if err := layout.Write(&b, layout.Options{Layout: l, N: n}); err != nil {
		return ExampleResult{}, err
	}
	return ExampleResult{Text: b.String()}, nil
}
