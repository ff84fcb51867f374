package lsp

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
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
	// lintsRun counts the lints started (tests read it).
	lintsRun atomic.Int64
	// buffers are the open documents' texts by path, as the last
	// snapshot took them; nil after any document changed.
	buffers map[string][]byte

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
	// PollInterval is how often the server looks at the files the open
	// documents read, when the client cannot watch them for it (zero:
	// DefaultPollInterval).
	PollInterval time.Duration

	mu     sync.Mutex
	docs   map[protocol.DocumentUri]*document
	roots  []string // workspace folders, clean absolute paths
	init   initOptions
	notify notifier
	// call sends a request to the client (its answer is not waited for).
	call notifier
	logw io.Writer
	// File watching (watch.go): whether the client watches files for the
	// server (dynamic registration of workspace/didChangeWatchedFiles),
	// whether watching has started, the registrations sent, the patterns
	// they cover beyond the base ones.
	clientWatches bool
	watching      bool
	watchSeq      int
	watched       map[string]bool
	// busy counts scheduled lints; idle is signalled when it drops to 0.
	busy int
	idle *sync.Cond
	// idleSeq counts the times busy dropped to 0 (see releaseLocked).
	idleSeq int
	// gcBatch is set while the collector runs at GOGC=400 (RunStdio); a
	// configuration over 32 MiB sets it back to 100, as the command line
	// does: the heap would grow to five times a tree of hundreds of MB.
	gcBatch atomic.Bool
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
	// buf is the text. Edits change it in place until an analysis takes
	// it (frozen: a snapshot, a view or a parsed tree holds it); the next
	// edit then copies it. A burst of typing makes no garbage per
	// keystroke of a document megabytes long.
	buf    []byte
	frozen bool
	// lines indexes buf for the positions of edits, nil until an edit
	// needs it; it is the document's alone, and edits update it in place.
	lines lineStarts
	// gen counts changes; a view or lint of an older gen is stale.
	gen uint64
	// view is the newest analysis of the document (maybe stale).
	view *view
	// touched are the paths other documents changed while the first lint
	// of d ran (d had no view to tell whether it reads them): its
	// findings are checked against them when it ends, rather than every
	// such lint being cancelled by every edit or open of any document.
	touched []touch
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
	// hurry is set by a request that waits for the lint (a quick fix):
	// the worker lints without waiting for the edits to pause, and is
	// woken through wake.
	hurry bool
	wake  chan struct{}
	// waiters counts the requests waiting for a lint of d (lintedView);
	// hurried is set while a lint runs that started early because one
	// asked. When the last of them is cancelled ($/cancelRequest), that
	// lint is cancelled too and d waits for the edits to pause again.
	waiters int
	hurried bool
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
	// deps are the files the analysis read or looked for (clean paths),
	// globs the include patterns it expanded: a change to one of them
	// makes the view stale.
	deps  map[string]bool
	globs map[string]bool
	// stamps are what deps and globs were on disk when read, for a
	// server that looks at the disk itself (nil when the client watches).
	stamps map[string]stamp
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
	// One parse cache: a text the lint parsed, editor features need not
	// parse again, and the other way round.
	cache := &parser.ParseCache{}
	s.lintLoader = &parser.Loader{Kinds: analyzer.Kinds, Cache: cache}
	s.viewLoader = &parser.Loader{Kinds: analyzer.Kinds, Cache: cache}
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
	watches := false
	if w := p.Capabilities.Workspace; w != nil && w.DidChangeWatchedFiles != nil && w.DidChangeWatchedFiles.DynamicRegistration != nil {
		watches = *w.DidChangeWatchedFiles.DynamicRegistration
	}
	s.mu.Lock()
	s.roots = roots
	s.init = opts
	s.clientWatches = watches
	s.mu.Unlock()
	if err != nil {
		s.logf("initializationOptions: %v", err)
	}

	// Incremental sync: a keystroke in a large configuration sends the
	// edit, not the document (sync.go applies it, UTF-16 positions).
	incremental := protocol.TextDocumentSyncKindIncremental
	yes := true
	caps := protocol.ServerCapabilities{
		TextDocumentSync: &protocol.TextDocumentSyncOptions{OpenClose: &yes, Change: &incremental,
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
		Workspace: &protocol.ServerCapabilitiesWorkspace{
			WorkspaceFolders: &protocol.WorkspaceFoldersServerCapabilities{
				Supported: &yes, ChangeNotifications: &protocol.BoolOrString{Value: true}},
			// Renames of any file or directory: an include may name it.
			FileOperations: &protocol.ServerCapabilitiesWorkspaceFileOperations{
				DidRename: &protocol.FileOperationRegistrationOptions{Filters: []protocol.FileOperationFilter{
					{Pattern: protocol.FileOperationPattern{Glob: "**/*"}}}},
			},
		},
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

// initialized starts watching the files the documents read (watch.go).
func (s *Server) initialized(notifier, *protocol.InitializedParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.watchLocked()
	return nil
}

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
		hurried := false
		if d.dirty && d.burst {
			// Edits came during the lint: wait for them to pause.
			for {
				wait := time.Until(d.lastEdit.Add(s.Debounce))
				if wait <= 0 || d.closed || s.stopped {
					break
				}
				if d.hurry {
					hurried = true
					break
				}
				hurry := d.wake
				s.mu.Unlock()
				t := time.NewTimer(wait)
				select {
				case <-t.C:
				case <-hurry:
					t.Stop()
				}
				s.mu.Lock()
			}
		}
		d.burst, d.hurry = false, false
		if !d.dirty || d.closed || s.stopped {
			d.linting = false
			// Nothing more will be linted for now: waiters re-check.
			wakeLocked(d)
			s.busy--
			if s.busy == 0 {
				s.idle.Broadcast()
				s.releaseLocked()
			}
			s.mu.Unlock()
			return
		}
		d.dirty = false
		d.inLint = true
		d.hurried = hurried
		d.touched = nil
		snap := s.snapshotLocked(d)
		ctx, cancel := context.WithCancel(s.life)
		d.cancelLint = cancel
		s.mu.Unlock()

		v := s.lint(ctx, snap)

		s.mu.Lock()
		d.inLint = false
		d.hurried = false
		d.cancelLint = nil
		cancelled := ctx.Err() != nil
		cancel()
		publish := !d.closed && d.gen == v.gen && !s.stopped && !cancelled
		if publish && v.readsAny(d.touched) {
			// It read a file another document changed while it ran:
			// stale, lint it again.
			publish = false
			d.gen++
			d.dirty = true
		}
		d.touched = nil
		var n notifier
		if publish {
			d.view = v
			wakeLocked(d)
			n = d.notify
			s.watchMoreLocked(v)
		}
		s.mu.Unlock()
		if publish && n != nil {
			s.publish(n, v)
		}
	}
}

// unhurryLocked is called when the last request waiting for a lint of
// d was cancelled: a lint that started before the edits paused, only
// because such a request asked, is cancelled (it holds the one lint slot
// every document shares), and d is linted once the edits pause, as if no
// one had asked. A lint that would have run anyway goes on: its findings
// are published.
func unhurryLocked(d *document) {
	d.hurry = false
	if !d.hurried || d.cancelLint == nil {
		return
	}
	d.cancelLint()
	d.cancelLint = nil
	d.hurried = false
	d.dirty, d.burst = true, true
}

// ReleaseDelay is how long the server must have linted nothing before it
// returns the memory that lints left behind to the system.
const ReleaseDelay = time.Second

// releaseLocked returns the garbage of a burst of lints to the system
// once the server has been idle for ReleaseDelay: the runtime keeps a
// heap grown during typing for minutes, and a language server lives as
// long as the editor. It costs one full collection per pause in typing.
func (s *Server) releaseLocked() {
	s.idleSeq++
	seq := s.idleSeq
	time.AfterFunc(ReleaseDelay, func() {
		s.mu.Lock()
		idle := s.busy == 0 && s.idleSeq == seq && !s.stopped
		s.mu.Unlock()
		if idle {
			debug.FreeOSMemory()
		}
	})
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
	// poll is set when the server looks at the disk itself: views record
	// what they read as it was.
	poll bool
	// bound is the directory above which nothing is looked for.
	bound string
	init  initOptions
}

func (s *Server) snapshotLocked(d *document) *snapshot {
	// The open buffers, shared by every snapshot until a document
	// changes (touchLocked drops them): a lint that copied every buffer
	// made n open documents cost n² (the buffers are frozen, so no edit
	// writes into what a snapshot holds).
	files := s.buffers
	if files == nil {
		files = make(map[string][]byte, len(s.docs))
		for _, o := range s.docs {
			if src := o.srcLocked(); src != nil {
				files[o.path] = src
			}
		}
		s.buffers = files
	}
	return &snapshot{uri: d.uri, path: d.path, gen: d.gen, version: d.version, text: d.textLocked(), src: d.srcLocked(),
		files: files, bound: s.boundLocked(d.path), init: s.init, poll: s.watching && !s.clientWatches}
}

// viewOf returns an analysis of the current text of the document at uri:
// the last lint's when it is current, else a parse made now (without
// waiting for a lint under way), with the configuration the document is
// read in. It returns nil for a document that is not open or is too
// large to analyse.
func (s *Server) viewOf(uri protocol.DocumentUri) *view {
	if v, d := s.currentLocked(uri); d == nil || v != nil {
		return usable(v)
	}
	// One parse at a time; a request that waited for another's finds it.
	s.viewMu.Lock()
	defer s.viewMu.Unlock()
	v, d := s.currentLocked(uri)
	if d == nil || v != nil {
		return usable(v)
	}
	s.mu.Lock()
	snap := s.snapshotLocked(d)
	s.mu.Unlock()

	v = s.load(snap)

	s.mu.Lock()
	if d.gen == v.gen && (d.view == nil || d.view.gen < v.gen) {
		d.view = v
		s.watchMoreLocked(v)
	}
	s.mu.Unlock()
	return usable(v)
}

// currentLocked returns the document at uri (nil when it is not open or
// too large) and its view when that is of its current state.
func (s *Server) currentLocked(uri protocol.DocumentUri) (*view, *document) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[uri]
	if d == nil || d.tooLarge() {
		return nil, nil
	}
	if v := d.view; v != nil && v.gen == d.gen {
		return v, d
	}
	return nil, d
}

// usable returns v when it has a tree to show: not for nginx -T output,
// an unreadable document, or one whose lint failed.
func usable(v *view) *view {
	if v == nil || v.file == nil {
		return nil
	}
	return v
}

// currentView is the view the editor features that follow names read:
// the newest text of the document and of every file its configuration
// reads, with that configuration's symbol table, without waiting for
// the lint (typing is linted once it pauses; navigation answers at once).
// nil for a document not open or too large; the context's error when the
// request is cancelled.
func (s *Server) currentView(ctx context.Context, uri protocol.DocumentUri) (*view, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return s.viewOf(uri), nil
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
