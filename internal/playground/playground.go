package playground

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer/directives"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/internal/report"
	"github.com/nginx-lint/nginx-lint/parser"
)

// DefaultRoot is where the page keeps its files: a copy of /etc/nginx, as
// a repository holds one, so that an absolute include of /etc/nginx/...
// reads the page's files and a missing mime.types is the nginx package's
// file of the deployment host, not an error (lint's mirrored prefixes).
const DefaultRoot = "/playground/etc/nginx"

// MaxTotalSize bounds what one call reads, as the command line's default
// --max-total-size does.
const MaxTotalSize = 256 << 20

// Request names the files a call works on and how they are linted.
type Request struct {
	// Root is the directory the files are in (default DefaultRoot).
	Root string `json:"root,omitempty"`
	// Targets are what to lint, as paths given on the command line,
	// relative to Root or absolute (default: Root itself, every
	// configuration under it that no other includes, as `nginx-lint ROOT`
	// finds them).
	Targets []string `json:"targets,omitempty"`
	// Dir is the directory paths are shown relative to (default Root),
	// as the command line shows them relative to its working directory.
	Dir string `json:"dir,omitempty"`
	// Version is the nginx version to lint for, X.Y.Z ("": the newest
	// release, every module possible).
	Version string `json:"version,omitempty"`
	// CPUs is what worker_processes auto resolves to for the cost model,
	// over the settings' host: cpus (0: the settings', else this
	// machine's, as nginx-lint cost takes them; in the browser that is
	// 1, runtime.NumCPU on js/wasm).
	CPUs int `json:"cpus,omitempty"`
}

func (r *Request) root() string {
	if r.Root == "" {
		return DefaultRoot
	}
	return filepath.Clean(r.Root)
}

func (r *Request) dir() string {
	if r.Dir == "" {
		return r.root()
	}
	return filepath.Clean(r.Dir)
}

// path resolves a path of the request against Root.
func (r *Request) path(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(r.root(), p)
}

// Session keeps what is worth keeping from one call to the next: the
// parsed files (a file whose text did not change is not parsed again) and
// the settings files read. Its calls are made one at a time.
type Session struct {
	loader parser.Loader
	cache  lint.Cache
}

// NewSession returns a session with nothing read yet.
func NewSession() *Session { return &Session{} }

var versionPattern = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`)

// hostRules are the rules whose findings depend on the machine the lint
// runs on (analyzer.Rule.Host): the page has no such machine.
var hostRules = func() []string {
	var out []string
	for _, r := range rules.All().Rules() {
		if r.Host {
			out = append(out, r.Name)
		}
	}
	return out
}()

// workspace is the lint session of a request, as the command line's lint
// sets it up, and the targets it names; settings problems go to warn.
func (s *Session) workspace(req *Request, warn func(string)) (*lint.Workspace, []lint.Target, error) {
	if req.Version != "" && !versionPattern.MatchString(req.Version) {
		return nil, nil, fmt.Errorf("nginx version %q: not a version such as 1.22.1", req.Version)
	}
	w := &lint.Workspace{
		Registry:     rules.All(),
		Loader:       &s.loader,
		Cache:        &s.cache,
		Version:      req.Version,
		MaxTotalSize: MaxTotalSize,
		Disable:      hostRules,
		Warn:         warn,
		// A settings file that does not parse is said, and the lint goes
		// on without it, as in an editor.
		Tolerate: func(err error) { warn(err.Error()) },
	}
	w.Cost.CPUs = req.CPUs
	paths := []string{req.root()}
	if len(req.Targets) > 0 {
		paths = paths[:0]
		for _, t := range req.Targets {
			paths = append(paths, req.path(t))
		}
	}
	targets, err := lint.Targets(paths)
	if err != nil {
		return nil, nil, err
	}
	return w, targets, nil
}

// Info is what the page shows about the build it runs.
type Info struct {
	// Version is nginx-lint's module version and commit, as the build
	// recorded them.
	Version string `json:"version"`
	// Nginx is the newest nginx release the tables know, the default
	// target.
	Nginx string `json:"nginx"`
	// Rules is the number of rules.
	Rules int `json:"rules"`
	// Root is DefaultRoot.
	Root string `json:"root"`
}

func (s *Session) info(struct{}) (Info, error) {
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		v = bi.Main.Version
		for _, kv := range bi.Settings {
			if kv.Key == "vcs.revision" && len(kv.Value) >= 12 {
				v += " " + kv.Value[:12]
			}
		}
	}
	return Info{Version: v, Nginx: directives.NginxVersion, Rules: len(rules.All().Rules()), Root: DefaultRoot}, nil
}

// Explanation is a rule's documentation, as nginx-lint explain prints
// it.
type Explanation struct {
	Code     string `json:"code"`
	Name     string `json:"name"`
	Title    string `json:"title"`
	Severity string `json:"severity"`
	Category string `json:"category"`
	Fixable  bool   `json:"fixable"`
	// Markdown is the rule's page (report.RuleMarkdown).
	Markdown string `json:"markdown"`
	URL      string `json:"url"`
	NginxURL string `json:"nginx_url,omitempty"`
}

// ExplainRequest names a rule by code or name.
type ExplainRequest struct {
	Rule string `json:"rule"`
}

func (s *Session) explain(req ExplainRequest) (Explanation, error) {
	r := rules.All().Lookup(req.Rule)
	if r == nil {
		return Explanation{}, fmt.Errorf("no rule %q", req.Rule)
	}
	return Explanation{Code: r.Code, Name: r.Name, Title: r.Title, Severity: r.Severity.String(), Category: r.Category().String(),
		Fixable: r.Fixable, Markdown: report.RuleMarkdown(r), URL: report.RuleURL(r.Name), NginxURL: r.Doc.URL}, nil
}

// failure is the answer of a call that failed.
type failure struct {
	Error string `json:"error"`
}

// op is one call: its request decoded from JSON, its answer encoded.
type op func(s *Session, in []byte) (any, error)

// handle adapts a typed call to op.
func handle[In, Out any](f func(*Session, In) (Out, error)) op {
	return func(s *Session, in []byte) (any, error) {
		var req In
		if len(bytes.TrimSpace(in)) > 0 {
			dec := json.NewDecoder(bytes.NewReader(in))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&req); err != nil {
				return nil, fmt.Errorf("request: %w", err)
			}
		}
		return f(s, req)
	}
}

// ops are the calls by name.
var ops = map[string]op{
	"info":    handle((*Session).info),
	"lint":    handle((*Session).lint),
	"fix":     handle((*Session).fix),
	"format":  handle((*Session).format),
	"cost":    handle((*Session).cost),
	"route":   handle((*Session).route),
	"explain": handle((*Session).explain),
	"example": handle((*Session).example),
}

// Ops are the names Call answers, sorted.
func Ops() []string {
	names := make([]string, 0, len(ops))
	for n := range ops {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Call runs the call named name on the JSON request in and returns its
// JSON answer: the call's result, or {"error": "..."} when the request
// is malformed, the call fails, or nginx-lint itself panics (the page
// keeps running and says so).
func (s *Session) Call(name string, in []byte) (out []byte) {
	defer func() {
		if r := recover(); r != nil {
			out = encode(failure{Error: fmt.Sprintf("nginx-lint failed (a bug; please report it): %v\n%s", r, debug.Stack())})
		}
	}()
	f, ok := ops[name]
	if !ok {
		return encode(failure{Error: fmt.Sprintf("no call %q (calls: %s)", name, strings.Join(Ops(), ", "))})
	}
	res, err := f(s, in)
	if err != nil {
		return encode(failure{Error: err.Error()})
	}
	return encode(res)
}

func encode(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return encode(failure{Error: "encoding the answer: " + err.Error()})
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// errorOf words an error of the lint session for the page.
func errorOf(err error) error {
	var ue *lint.UsageError
	if errors.As(err, &ue) {
		return errors.New(ue.Msg)
	}
	return err
}
