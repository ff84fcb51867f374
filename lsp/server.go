package lsp

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/lint"
	"github.com/nginx-lint/nginx-lint/analyzer/symbols"
	"github.com/nginx-lint/nginx-lint/parser"
)

// Name is the server's name in the initialize handshake.
const Name = "nginx-lint"

// MaxDocumentSize is the largest document the server parses. A larger
// one is kept (edits still apply) but not analysed: its diagnostics say it
// is too large, and editor features answer nothing for it.
const MaxDocumentSize = 16 << 20

// DefaultDebounce is how long edits must pause before the server lints
// again while a lint is already under way or just done (see Server.Debounce).
const DefaultDebounce = 150 * time.Millisecond

// Server is a language server over the lint core. It keeps the text of
// every open document, lays it over the disk for the loader (so unsaved
// edits are what gets linted, includes too), and reuses the loader's cache,
// so an edit re-parses only the edited file.
//
// Work is split so that nothing slow holds the lock the message loop
// needs: lints run on a goroutine per document under lintMu with their
// own loader; editor features read an immutable view of the document
// (the last lint's, or one parsed for them under viewMu).
type Server struct {
	// Version is reported to the client.
	Version string
	// Debounce: an edit to a document that is not being linted is linted
	// at once; edits that arrive while a lint runs are gathered, and the
	// next lint starts once they have paused this long. Zero lints every
	// time the previous lint ends.
	Debounce time.Duration
	// FS is the disk as the server reads it (nil: parser.OSFS). Tests
	// wrap it to see what is read.
	FS parser.FileSystem

	mu     sync.Mutex
	docs   map[protocol.DocumentUri]*document
	roots  []string // workspace folders, clean absolute paths
	init   initOptions
	notify notifier
	logw   io.Writer
	// busy counts scheduled lints; idle is signalled when it drops to 0.
	busy    int
	idle    *sync.Cond
	stopped bool
	// life ends with the session (shutdown, exit, end of input): every
	// lint's context derives from it.
	life    context.Context
	endLife context.CancelFunc

	settings lint.Cache

	lintMu     sync.Mutex // held by a lint; guards lintLoader
	lintLoader *parser.Loader
	viewMu     sync.Mutex // guards viewLoader
	viewLoader *parser.Loader

	reg *analyzer.Registry

	// wsyms keeps the symbols of the workspace's files (workspacesymbols.go).
	wsyms workspaceSymbolCache
	// shares keeps the servers' shares of a cost model (inlayhints.go).
	shares sharesCache
}

// document is an open editor buffer. Its fields are guarded by Server.mu.
type document struct {
	uri     protocol.DocumentUri
	path    string
	version protocol.Integer
	text    string
	src     []byte // text as laid over the disk (nil when too large)
	// gen counts changes; a view or lint of an older gen is stale.
	gen uint64
	// view is the newest analysis of the document (maybe stale).
	view *view
	// Lint scheduling: dirty when text changed since the last lint
	// started; linting while a goroutine owns the document's lints;
	// lastEdit for the debounce; notify where to publish.
	dirty   bool
	linting bool
	// inLint while a lint of d runs; burst when an edit came during it,
	// so the next lint waits for the edits to pause.
	inLint   bool
	burst    bool
	closed   bool
	lastEdit time.Time
	notify   notifier
	// linted is closed when a lint of the current gen publishes; waiters
	// (quick fixes) re-check after it.
	linted chan struct{}
	// cancelLint stops the lint under way (nil when none): its text is
	// stale once the document, or one it reads, changes.
	cancelLint context.CancelFunc
}

// view is an analysis of one text of a document. It is never changed
// after it is made (its unit builds the cost model on first use, once).
type view struct {
	gen     uint64
	uri     protocol.DocumentUri
	path    string
	version protocol.Integer
	text    string
	config  *parser.Config
	file    *parser.File
	// diags is set for a view made by a lint: the findings of this text.
	diags  []*parser.Diagnostic
	linted bool
	// dumpLines is set for nginx -T output: the line of the document
	// where each dumped file starts. Such a view has no tree for editor
	// features (file is nil).
	dumpLines map[*parser.File]int
	// unit is the configuration analysed (the nginx.conf that includes
	// the document, or the document's own), unitFile the document in it:
	// its cost model is the lint's, or is made on demand (a hover on
	// listen needs it, typing does not).
	unit     *lint.Unit
	unitFile *parser.File
	// ix indexes the configuration references and rename search, made
	// on first use, once.
	ixOnce sync.Once
	ix     *analyzer.Index
	// syms is the symbol table of that configuration, made on first use.
	symOnce sync.Once
	syms    *symbols.Table
}

// index returns the index of c, the view's configuration or its unit's
// (a view asks for one of them only, always the same).
func (v *view) index(c *parser.Config) *analyzer.Index {
	v.ixOnce.Do(func() { v.ix = analyzer.NewIndex(c) })
	return v.ix
}

// New returns a server with every rule enabled.
func New() *Server {
	s := &Server{
		Version:  "dev",
		Debounce: DefaultDebounce,
		docs:     map[protocol.DocumentUri]*document{},
		reg:      allRules(),
		logw:     io.Discard,
	}
	s.idle = sync.NewCond(&s.mu)
	s.life, s.endLife = context.WithCancel(context.Background())
	s.lintLoader = &parser.Loader{Kinds: analyzer.Kinds}
	s.viewLoader = &parser.Loader{Kinds: analyzer.Kinds}
	return s
}

func (s *Server) base() parser.FileSystem {
	if s.FS == nil {
		return parser.OSFS{}
	}
	return s.FS
}

// initialize records the workspace and the client's options and returns
// the capabilities.
func (s *Server) initialize(p *protocol.InitializeParams) initializeResult {
	var roots []string
	for _, f := range p.WorkspaceFolders {
		if r := rootPath(f.URI); r != "" {
			roots = append(roots, r)
		}
	}
	if len(roots) == 0 && p.RootURI != nil {
		if r := rootPath(*p.RootURI); r != "" {
			roots = append(roots, r)
		}
	}
	if len(roots) == 0 && p.RootPath != nil && filepath.IsAbs(*p.RootPath) {
		roots = append(roots, filepath.Clean(*p.RootPath))
	}
	opts, err := parseInitOptions(p.InitializationOptions)
	s.mu.Lock()
	s.roots = roots
	s.init = opts
	s.mu.Unlock()
	if err != nil {
		s.logf("initializationOptions: %v", err)
	}

	// Whole-document sync: nginx configs are small next to the cost of
	// getting incremental UTF-16 edits wrong; incremental edits are still
	// applied correctly if a client sends them.
	full := protocol.TextDocumentSyncKindFull
	yes := true
	caps := protocol.ServerCapabilities{
		TextDocumentSync: &protocol.TextDocumentSyncOptions{OpenClose: &yes, Change: &full,
			Save: true},
		HoverProvider:              true,
		CompletionProvider:         &protocol.CompletionOptions{TriggerCharacters: []string{"$"}},
		DocumentSymbolProvider:     true,
		CodeActionProvider:         &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix}},
		DefinitionProvider:         true,
		DocumentFormattingProvider: true,
		FoldingRangeProvider:       true,
		DocumentLinkProvider:       &protocol.DocumentLinkOptions{},
		ReferencesProvider:         true,
		DocumentHighlightProvider:  true,
		RenameProvider:             &protocol.RenameOptions{PrepareProvider: &yes},
		SignatureHelpProvider:      &protocol.SignatureHelpOptions{TriggerCharacters: []string{" "}},
		ExecuteCommandProvider:     &protocol.ExecuteCommandOptions{Commands: []string{RouteCommand}},
		Workspace: &protocol.ServerCapabilitiesWorkspace{WorkspaceFolders: &protocol.WorkspaceFoldersServerCapabilities{
			Supported: &yes, ChangeNotifications: &protocol.BoolOrString{Value: true}}},
		WorkspaceSymbolProvider:         true,
		SemanticTokensProvider:          semanticTokensOptions(),
		CodeLensProvider:                &protocol.CodeLensOptions{},
		DocumentRangeFormattingProvider: true,
		SelectionRangeProvider:          true,
		DeclarationProvider:             true,
	}
	version := s.Version
	return initializeResult{
		Capabilities: serverCapabilities{ServerCapabilities: caps, InlayHintProvider: inlayHintOptions()},
		ServerInfo:   &protocol.InitializeResultServerInfo{Name: Name, Version: &version},
	}
}

func (s *Server) initialized(notifier, *protocol.InitializedParams) error { return nil }

// logf logs to the log writer Serve was given.
func (s *Server) logf(format string, args ...any) {
	s.mu.Lock()
	w := s.logw
	s.mu.Unlock()
	fmt.Fprintf(w, "nginx-lint lsp: "+format+"\n", args...)
}

// didChangeConfiguration applies the editor's changed settings as
// initializationOptions are applied, and re-lints every open document.
// The settings come under "nginx-lint" ({"settings": {"nginx-lint":
// {...}}}, as VS Code sends them) or, from clients that send the section
// alone, at the top. Anything else (null: the client wants them pulled)
// leaves the settings as they are.
func (s *Server) didChangeConfiguration(n notifier, p *protocol.DidChangeConfigurationParams) error {
	m, ok := p.Settings.(map[string]any)
	if !ok {
		return nil
	}
	if sub, ok := m[Name].(map[string]any); ok {
		m = sub
	} else if _, nested := m[Name]; nested {
		return fmt.Errorf("settings: %q is not an object", Name)
	} else if !hasOptionKey(m) {
		return nil // other tools' settings only
	}
	opts, err := parseInitOptions(m)
	if err != nil {
		// The settings as they were stay in force.
		return fmt.Errorf("settings: %v", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init = opts
	for _, d := range s.docs {
		d.gen++
		s.scheduleLocked(d, n)
	}
	return nil
}

// hasOptionKey reports whether m holds one of the keys parseInitOptions
// reads.
func hasOptionKey(m map[string]any) bool {
	for _, k := range []string{"rules", "custom-directives", "customDirectives", "custom-variables", "customVariables", "nginx-build", "nginxBuild", "nginx-version", "nginxVersion", "inlayHints", "inlay-hints", "cost-profile", "costProfile"} {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

func (s *Server) didChangeWorkspaceFolders(_ notifier, p *protocol.DidChangeWorkspaceFoldersParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	gone := map[string]bool{}
	for _, f := range p.Event.Removed {
		gone[rootPath(f.URI)] = true
	}
	var roots []string
	for _, r := range s.roots {
		if !gone[r] {
			roots = append(roots, r)
		}
	}
	for _, f := range p.Event.Added {
		if r := rootPath(f.URI); r != "" {
			roots = append(roots, r)
		}
	}
	s.roots = roots
	return nil
}

// didChangeWatchedFiles re-lints the open documents: a settings file or an
// included file may have changed on disk.
func (s *Server) didChangeWatchedFiles(n notifier, _ *protocol.DidChangeWatchedFilesParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.docs {
		d.gen++
		s.scheduleLocked(d, n)
	}
	return nil
}

func (s *Server) didOpen(n notifier, p *protocol.DidOpenTextDocumentParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := &document{uri: p.TextDocument.URI, path: uriToPath(p.TextDocument.URI), linted: make(chan struct{})}
	if old := s.docs[d.uri]; old != nil {
		old.closed = true
		wakeLocked(old)
	}
	s.docs[d.uri] = d
	s.setTextLocked(d, p.TextDocument.Text, p.TextDocument.Version)
	s.scheduleLocked(d, n)
	return nil
}

func (s *Server) didChange(n notifier, p *protocol.DidChangeTextDocumentParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		return fmt.Errorf("didChange for %s, which is not open", p.TextDocument.URI)
	}
	text := d.text
	for _, ch := range p.ContentChanges {
		switch c := ch.(type) {
		case protocol.TextDocumentContentChangeEventWhole:
			text = c.Text
		case protocol.TextDocumentContentChangeEvent:
			if c.Range == nil {
				text = c.Text
				continue
			}
			start := offsetOf(text, c.Range.Start)
			end := offsetOf(text, c.Range.End)
			if end < start {
				start, end = end, start
			}
			text = text[:start] + c.Text + text[end:]
		}
	}
	s.setTextLocked(d, text, p.TextDocument.Version)
	s.scheduleLocked(d, n)
	return nil
}

// setTextLocked records a new text of d.
func (s *Server) setTextLocked(d *document, text string, version protocol.Integer) {
	d.text, d.version = text, version
	d.src = nil
	if len(text) <= MaxDocumentSize {
		d.src = []byte(text)
	}
	d.gen++
}

func (s *Server) didClose(n notifier, p *protocol.DidCloseTextDocumentParams) error {
	s.mu.Lock()
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		s.mu.Unlock()
		return nil
	}
	delete(s.docs, d.uri)
	d.closed = true
	wakeLocked(d)
	// Other documents may include this one: they now see the disk.
	for _, o := range s.docs {
		o.gen++
		s.scheduleLocked(o, n)
	}
	s.mu.Unlock()
	if n != nil {
		n(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: d.uri, Diagnostics: []protocol.Diagnostic{}})
	}
	return nil
}

// scheduleLocked makes sure the current text of d gets linted and
// published to n.
func (s *Server) scheduleLocked(d *document, n notifier) {
	d.dirty = true
	d.lastEdit = time.Now()
	if n != nil {
		d.notify = n
	}
	if d.inLint {
		d.burst = true
		if d.cancelLint != nil {
			// Its findings would be dropped as stale: stop it now, so the
			// next lint need not wait for it.
			d.cancelLint()
			d.cancelLint = nil
		}
	}
	if d.linting || s.stopped {
		return // the running worker picks the edit up
	}
	d.linting = true
	s.busy++
	go s.lintWorker(d)
}

// lintWorker lints d until it is clean: at once after an edit to a
// document at rest; when edits came while a lint ran, once they have
// paused for Debounce (typing is not linted keystroke by keystroke).
func (s *Server) lintWorker(d *document) {
	for {
		s.mu.Lock()
		if d.dirty && d.burst {
			// Edits came during the lint: wait for them to pause.
			for {
				wait := time.Until(d.lastEdit.Add(s.Debounce))
				if wait <= 0 || d.closed || s.stopped {
					break
				}
				s.mu.Unlock()
				time.Sleep(wait)
				s.mu.Lock()
			}
		}
		d.burst = false
		if !d.dirty || d.closed || s.stopped {
			d.linting = false
			// Nothing more will be linted for now: waiters re-check.
			wakeLocked(d)
			s.busy--
			if s.busy == 0 {
				s.idle.Broadcast()
			}
			s.mu.Unlock()
			return
		}
		d.dirty = false
		d.inLint = true
		snap := s.snapshotLocked(d)
		ctx, cancel := context.WithCancel(s.life)
		d.cancelLint = cancel
		s.mu.Unlock()

		v := s.lint(ctx, snap)

		s.mu.Lock()
		d.inLint = false
		d.cancelLint = nil
		cancelled := ctx.Err() != nil
		cancel()
		publish := !d.closed && d.gen == v.gen && !s.stopped && !cancelled
		var n notifier
		if publish {
			d.view = v
			wakeLocked(d)
			n = d.notify
		}
		s.mu.Unlock()
		if publish && n != nil {
			s.publish(n, v)
		}
	}
}

// wakeLocked wakes the requests waiting for a lint of d (quick fixes),
// so they look again.
func wakeLocked(d *document) {
	close(d.linted)
	d.linted = make(chan struct{})
}

// publish sends the findings of a linted view.
func (s *Server) publish(n notifier, v *view) {
	defer func() {
		if r := recover(); r != nil {
			s.logf("publishing %s panicked: %v", v.path, r)
		}
	}()
	version := protocol.UInteger(v.version)
	out := make([]protocol.Diagnostic, 0, len(v.diags))
	for _, diag := range v.diags {
		pd := toProtocolDiagnostic(diag)
		if v.dumpLines != nil {
			inDump(&pd.Range, v.dumpLines[diag.File])
			for i := range pd.RelatedInformation {
				loc := &pd.RelatedInformation[i].Location
				for f, start := range v.dumpLines {
					if loc.URI == pathToURI(f.Path) {
						loc.URI = v.uri
						inDump(&loc.Range, start)
						break
					}
				}
			}
		}
		out = append(out, pd)
	}
	n(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: v.uri, Version: &version, Diagnostics: out})
}

// inDump moves a range of a dumped file to the dump's lines (start is the
// 1-based line where the file's text begins; 0: not a dumped file).
func inDump(r *protocol.Range, start int) {
	if start <= 0 {
		return
	}
	r.Start.Line += protocol.UInteger(start - 1)
	r.End.Line += protocol.UInteger(start - 1)
}

// Settle waits until every scheduled lint has been published. Tests call
// it to wait for diagnostics without sleeping.
func (s *Server) Settle() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.busy > 0 {
		s.idle.Wait()
	}
}

// stopLints ends lint scheduling (the session is over) and cancels the
// lints under way, without waiting for them.
func (s *Server) stopLints() {
	s.mu.Lock()
	s.stopped = true
	s.mu.Unlock()
	s.endLife()
}

// snapshot is what a lint or a view needs of the server's state, copied
// under the lock so the work runs without it.
type snapshot struct {
	uri     protocol.DocumentUri
	path    string
	gen     uint64
	version protocol.Integer
	text    string
	src     []byte
	// files are the open documents' texts, laid over the disk.
	files map[string][]byte
	// bound is the directory above which nothing is looked for.
	bound string
	init  initOptions
}

func (s *Server) snapshotLocked(d *document) *snapshot {
	files := make(map[string][]byte, len(s.docs))
	for _, o := range s.docs {
		if o.src != nil {
			files[o.path] = o.src
		}
	}
	return &snapshot{uri: d.uri, path: d.path, gen: d.gen, version: d.version, text: d.text, src: d.src,
		files: files, bound: s.boundLocked(d.path), init: s.init}
}

// viewOf returns an analysis of the current text of the document at uri:
// the last lint's when it is current, else a parse made now (without
// waiting for a lint under way). It returns nil for a document that is
// not open or is too large to analyse.
func (s *Server) viewOf(uri protocol.DocumentUri) *view {
	s.mu.Lock()
	d := s.docs[uri]
	if d == nil || d.src == nil {
		s.mu.Unlock()
		return nil
	}
	if v := d.view; v != nil && v.gen == d.gen {
		s.mu.Unlock()
		if v.file == nil {
			return nil // the lint of this text failed: nothing to show
		}
		return v
	}
	snap := s.snapshotLocked(d)
	s.mu.Unlock()

	v := s.load(snap)

	s.mu.Lock()
	if d.gen == v.gen && (d.view == nil || d.view.gen < v.gen) {
		d.view = v
	}
	s.mu.Unlock()
	if v.file == nil {
		return nil // nginx -T output, or unreadable: no tree to show
	}
	return v
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
	if p == "" {
		p = string(filepath.Separator)
	}
	return filepath.Clean(filepath.FromSlash(p))
}

// rootPath is the directory of a workspace folder URI, "" for a URI that
// names no local directory.
func rootPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return ""
	}
	return uriToPath(protocol.DocumentUri(uri))
}

// pathToURI is the inverse of uriToPath for real files.
func pathToURI(path string) protocol.DocumentUri {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	return protocol.DocumentUri(u.String())
}
