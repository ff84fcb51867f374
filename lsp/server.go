package lsp

import (
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
	glspserver "github.com/tliron/glsp/server"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Name is the server's name in the initialize handshake.
const Name = "nginx-lint"

// Server is a language server over the lint core. It keeps the text of
// every open document, lays it over the disk for the loader (so unsaved
// edits are what gets linted, includes too), and reuses the loader's cache,
// so an edit re-parses only the edited file.
type Server struct {
	// Version is reported to the client.
	Version string

	mu      sync.Mutex
	docs    map[protocol.DocumentUri]*document
	overlay *parser.Overlay
	loader  *parser.Loader
	reg     *analyzer.Registry
	handler protocol.Handler
	// configs caches the settings file of each directory (nil: none).
	configs map[string]*config.File
}

// document is an open editor buffer and the last analysis of it.
type document struct {
	uri     protocol.DocumentUri
	path    string
	version protocol.Integer
	text    string
	// Set by lint:
	config *parser.Config
	file   *parser.File
	diags  []*parser.Diagnostic
	// cost is the startup cost model of config, made on demand with
	// costOpts (the settings' options of the cost rules).
	cost     *costmodel.Result
	costOpts costmodel.Options
}

// New returns a server with every rule enabled.
func New() *Server {
	s := &Server{
		Version: "dev",
		docs:    map[protocol.DocumentUri]*document{},
		configs: map[string]*config.File{},
		reg:     rules.All(),
	}
	s.overlay = &parser.Overlay{Base: parser.OSFS{}, Files: map[string][]byte{}}
	s.loader = &parser.Loader{FS: s.overlay, Kinds: analyzer.Kinds}
	s.handler = protocol.Handler{
		Initialize:                     s.initialize,
		Initialized:                    func(*glsp.Context, *protocol.InitializedParams) error { return nil },
		Shutdown:                       func(*glsp.Context) error { return nil },
		SetTrace:                       func(*glsp.Context, *protocol.SetTraceParams) error { return nil },
		TextDocumentDidOpen:            s.didOpen,
		TextDocumentDidChange:          s.didChange,
		TextDocumentDidClose:           s.didClose,
		TextDocumentDidSave:            func(*glsp.Context, *protocol.DidSaveTextDocumentParams) error { return nil },
		TextDocumentHover:              s.hover,
		TextDocumentCompletion:         s.completion,
		TextDocumentDocumentSymbol:     s.documentSymbol,
		TextDocumentCodeAction:         s.codeAction,
		TextDocumentDefinition:         s.definition,
		TextDocumentFormatting:         s.formatting,
		WorkspaceDidChangeWatchedFiles: func(*glsp.Context, *protocol.DidChangeWatchedFilesParams) error { return nil },
	}
	return s
}

// Handler returns the protocol handler, for tests and custom transports.
func (s *Server) Handler() *protocol.Handler { return &s.handler }

// RunStdio serves the protocol on standard input and output until the
// client exits.
func (s *Server) RunStdio() error {
	return glspserver.NewServer(&s.handler, Name, false).RunStdio()
}

func (s *Server) initialize(_ *glsp.Context, _ *protocol.InitializeParams) (any, error) {
	caps := s.handler.CreateServerCapabilities()
	// Whole-document sync: nginx configs are small next to the cost of
	// getting incremental UTF-16 edits wrong; incremental edits are still
	// applied correctly if a client sends them.
	full := protocol.TextDocumentSyncKindFull
	if opts, ok := caps.TextDocumentSync.(*protocol.TextDocumentSyncOptions); ok {
		opts.Change = &full
	}
	caps.CompletionProvider = &protocol.CompletionOptions{TriggerCharacters: []string{"$"}}
	caps.CodeActionProvider = &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix}}
	version := s.Version
	return protocol.InitializeResult{
		Capabilities: caps,
		ServerInfo:   &protocol.InitializeResultServerInfo{Name: Name, Version: &version},
	}, nil
}

func (s *Server) didOpen(ctx *glsp.Context, p *protocol.DidOpenTextDocumentParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := &document{uri: p.TextDocument.URI, path: uriToPath(p.TextDocument.URI), version: p.TextDocument.Version, text: p.TextDocument.Text}
	s.docs[d.uri] = d
	s.update(ctx, d)
	return nil
}

func (s *Server) didChange(ctx *glsp.Context, p *protocol.DidChangeTextDocumentParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		return nil
	}
	for _, ch := range p.ContentChanges {
		switch c := ch.(type) {
		case protocol.TextDocumentContentChangeEventWhole:
			d.text = c.Text
		case protocol.TextDocumentContentChangeEvent:
			if c.Range == nil {
				d.text = c.Text
				continue
			}
			start := offsetOf(d.text, c.Range.Start)
			end := offsetOf(d.text, c.Range.End)
			if end < start {
				start, end = end, start
			}
			d.text = d.text[:start] + c.Text + d.text[end:]
		}
	}
	d.version = p.TextDocument.Version
	s.update(ctx, d)
	return nil
}

// update lays the document's text over the disk, so includes of it see
// the edit, then lints it and publishes the findings.
func (s *Server) update(ctx *glsp.Context, d *document) {
	s.overlay.Files[d.path] = []byte(d.text)
	s.lintAndPublish(ctx, d)
}

func (s *Server) didClose(ctx *glsp.Context, p *protocol.DidCloseTextDocumentParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		return nil
	}
	delete(s.docs, d.uri)
	delete(s.overlay.Files, d.path)
	if ctx != nil && ctx.Notify != nil {
		ctx.Notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: d.uri, Diagnostics: []protocol.Diagnostic{}})
	}
	return nil
}

// lint runs the same core as the command line on the document: a main
// configuration with its includes, or a fragment in the context its
// top-level directives suggest.
func (s *Server) lint(d *document) {
	src := []byte(d.text)
	opts := analyzer.Options{ReadFile: s.overlay.ReadFile}
	s.loader.Prefix = ""
	if cfg := s.settings(filepath.Dir(d.path)); cfg != nil {
		// The same .nginx-lint.yaml as the command line; a broken one is
		// ignored here (the command line reports it).
		if err := cfg.Apply(&opts, s.reg.Lookup); err != nil {
			opts = analyzer.Options{ReadFile: s.overlay.ReadFile}
		}
		s.loader.Prefix = cfg.Prefix
	}
	c := analyzer.LoadInferred(s.loader, d.path, src)
	d.config, d.file, d.cost = c, c.Main, nil
	d.costOpts = rules.CostOptions(opts.RuleOptions[rules.ListenPortAggregation.Name])
	d.diags = d.diags[:0]
	// An included file is checked where nginx reads it: in the main
	// configuration that includes it, if there is one nearby. Editor
	// features (hover, completion) keep the file's own tree.
	lintC, mine := c, c.Main
	if root, f := s.rootOf(d.path); root != nil {
		lintC, mine = root, f
	}
	for _, diag := range lint.Run(lintC, s.reg, opts) {
		if diag.File == mine || diag.File == nil && diag.FilePath() == mine.Path {
			d.diags = append(d.diags, diag)
		}
	}
}

// rootOf finds the main configuration that includes path: an nginx.conf
// in path's directory or up to three directories above whose includes
// (read through the overlay, unsaved buffers included) reach path, a
// symlink (sites-enabled) counting as the file it points at. It returns
// that configuration and path's file in it, or nil.
func (s *Server) rootOf(path string) (*parser.Config, *parser.File) {
	want := parser.RealPath(path)
	dir := filepath.Dir(path)
	for range 4 {
		cand := filepath.Join(dir, "nginx.conf")
		if cand != path {
			// Load fails at once where there is no nginx.conf.
			if c, err := s.loader.Load(cand); err == nil {
				for _, f := range c.Files[1:] {
					if f.Path == path || parser.RealPath(f.Path) == want {
						return c, f
					}
				}
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return nil, nil
}

func (s *Server) lintAndPublish(ctx *glsp.Context, d *document) {
	s.lint(d)
	if ctx == nil || ctx.Notify == nil {
		return
	}
	version := protocol.UInteger(d.version)
	out := make([]protocol.Diagnostic, 0, len(d.diags))
	for _, diag := range d.diags {
		out = append(out, toProtocolDiagnostic(diag))
	}
	ctx.Notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: d.uri, Version: &version, Diagnostics: out})
}

// settings returns the .nginx-lint.yaml that applies in dir, read once.
func (s *Server) settings(dir string) *config.File {
	if cfg, ok := s.configs[dir]; ok {
		return cfg
	}
	var cfg *config.File
	if path, err := config.Find(dir); err == nil && path != "" {
		cfg, _ = config.Load(path)
	}
	s.configs[dir] = cfg
	return cfg
}

// uriToPath turns a file URI into a path; other schemes (untitled:) get a
// stable pseudo path so includes still resolve against something.
func uriToPath(uri protocol.DocumentUri) string {
	u, err := url.Parse(string(uri))
	if err != nil || u.Scheme != "file" {
		return filepath.Join(string(filepath.Separator), "untitled", strings.NewReplacer("/", "_", ":", "_").Replace(string(uri)))
	}
	p := u.Path
	if runtime.GOOS == "windows" {
		p = strings.TrimPrefix(p, "/")
	}
	return filepath.Clean(filepath.FromSlash(p))
}

// pathToURI is the inverse of uriToPath for real files.
func pathToURI(path string) protocol.DocumentUri {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	return protocol.DocumentUri(u.String())
}

// doc returns the open document for uri, linted.
func (s *Server) doc(uri protocol.DocumentUri) *document {
	d := s.docs[uri]
	if d != nil && d.file == nil {
		s.lint(d)
	}
	return d
}
