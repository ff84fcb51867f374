package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// This file is the message loop: it reads messages in order, answers
// protocol errors, runs notifications in order on the loop (they only
// record text and schedule work) and requests on goroutines of their own,
// so a slow request never holds up the next message.

// notifier sends a notification to the client.
type notifier func(method string, params any)

// method is one protocol method the server handles. prepare decodes the
// params on the loop, so invalid params are answered at once and the
// handler sees the state as of its message; run does the work.
type method struct {
	notification bool
	prepare      func(s *Server, params json.RawMessage) (func(ctx context.Context, n notifier) (any, error), error)
}

// request adapts a request handler.
func request[P, R any](f func(*Server, context.Context, *P) (R, error)) method {
	return method{prepare: func(s *Server, raw json.RawMessage) (func(context.Context, notifier) (any, error), error) {
		p := new(P)
		if err := decodeParams(raw, p); err != nil {
			return nil, err
		}
		return func(ctx context.Context, _ notifier) (any, error) { return f(s, ctx, p) }, nil
	}}
}

// notification adapts a notification handler.
func notification[P any](f func(*Server, notifier, *P) error) method {
	return method{notification: true, prepare: func(s *Server, raw json.RawMessage) (func(context.Context, notifier) (any, error), error) {
		p := new(P)
		if err := decodeParams(raw, p); err != nil {
			return nil, err
		}
		return func(_ context.Context, n notifier) (any, error) { return nil, f(s, n, p) }, nil
	}}
}

// decodeParams reads params into p: missing params, or params of the
// wrong shape, are invalid params (-32602).
func decodeParams(raw json.RawMessage, p any) error {
	if len(raw) == 0 {
		return errorf(codeInvalidParams, "invalid params: params are required")
	}
	if err := json.Unmarshal(raw, p); err != nil {
		return errorf(codeInvalidParams, "invalid params: %v", err)
	}
	return nil
}

// methods is every method the server answers, besides the lifecycle
// (initialize, shutdown, exit) and $/cancelRequest, which the loop
// handles itself.
var methods = map[string]method{
	"initialized":                         notification((*Server).initialized),
	"textDocument/didOpen":                notification((*Server).didOpen),
	"textDocument/didChange":              notification((*Server).didChange),
	"textDocument/didClose":               notification((*Server).didClose),
	"textDocument/didSave":                notification((*Server).didSave),
	"workspace/didRenameFiles":            notification((*Server).didRenameFiles),
	"$/setTrace":                          notification(ignore[protocol.SetTraceParams]),
	"workspace/didChangeWatchedFiles":     notification((*Server).didChangeWatchedFiles),
	"workspace/didChangeConfiguration":    notification((*Server).didChangeConfiguration),
	"workspace/didChangeWorkspaceFolders": notification((*Server).didChangeWorkspaceFolders),
	"textDocument/hover":                  request((*Server).hover),
	"textDocument/completion":             request((*Server).completion),
	"textDocument/documentSymbol":         request((*Server).documentSymbol),
	"textDocument/codeAction":             request((*Server).codeAction),
	"textDocument/definition":             request((*Server).definition),
	"textDocument/formatting":             request((*Server).formatting),
	"textDocument/foldingRange":           request((*Server).foldingRange),
	"textDocument/documentLink":           request((*Server).documentLink),
	"textDocument/references":             request((*Server).references),
	"textDocument/documentHighlight":      request((*Server).documentHighlight),
	"textDocument/prepareRename":          request((*Server).prepareRename),
	"textDocument/rename":                 request((*Server).rename),
	"textDocument/signatureHelp":          request((*Server).signatureHelp),
	// The features of issue 30, each in a file of its own.
	"workspace/symbol":                  request((*Server).workspaceSymbol),
	"textDocument/semanticTokens/full":  request((*Server).semanticTokensFull),
	"textDocument/semanticTokens/range": request((*Server).semanticTokensRange),
	"textDocument/inlayHint":            request((*Server).inlayHint),
	"inlayHint/resolve":                 request((*Server).inlayHintResolve),
	"textDocument/codeLens":             request((*Server).codeLens),
	"textDocument/rangeFormatting":      request((*Server).rangeFormatting),
	"textDocument/selectionRange":       request((*Server).selectionRange),
	"textDocument/declaration":          request((*Server).declaration),
	"workspace/executeCommand":          request((*Server).executeCommand),
}

func ignore[P any](*Server, notifier, *P) error { return nil }

// conn is the state of one session of the loop.
type conn struct {
	s   *Server
	w   *writer
	log io.Writer

	mu          sync.Mutex
	initialized bool
	shutdown    bool
	inflight    map[string]*call
	wg          sync.WaitGroup
	// seq numbers the server's own requests.
	seq int
}

// call is a request being worked on.
type call struct {
	cancel   context.CancelFunc
	answered bool
}

// Serve runs the protocol on in and out until the client sends exit or
// closes in, and returns the process exit status the protocol asks for:
// 0 when a shutdown request came before, else 1. Log lines go to log
// (nil: discarded), never to out.
func (s *Server) Serve(in io.Reader, out io.Writer, log io.Writer) int {
	if log == nil {
		log = io.Discard
	}
	c := &conn{s: s, w: &writer{w: out}, log: log, inflight: map[string]*call{}}
	s.mu.Lock()
	s.notify = c.notify
	s.call = c.request
	s.logw = log
	s.mu.Unlock()
	fr := newFrameReader(in)
	code := 1
	for {
		body, err := fr.next()
		var fe *frameError
		switch {
		case errors.As(err, &fe):
			c.logf(protocol.MessageTypeWarning, "skipped a message: %s", fe.msg)
			continue
		case err != nil:
			if !errors.Is(err, io.EOF) {
				c.logf(protocol.MessageTypeError, "reading: %v", err)
			}
			code = c.exitCode()
		default:
			if done, exit := c.handle(body); done {
				code = exit
			} else {
				continue
			}
		}
		break
	}
	c.end()
	return code
}

// exitGrace is how long the end of a session waits for the requests
// under way to answer: a client that sends a request and closes its
// input still reads the reply, and exit ends the process within a
// second whatever runs.
const exitGrace = 300 * time.Millisecond

// end closes the session: lints stop at once (their findings would reach
// nobody), requests under way get exitGrace to answer and are then
// cancelled, and nothing is written after end returns, so the process
// can exit while a rule still runs.
func (c *conn) end() {
	c.s.stopLints()
	answered := make(chan struct{})
	go func() {
		c.wg.Wait()
		close(answered)
	}()
	select {
	case <-answered:
	case <-time.After(exitGrace):
		c.cancelAll()
	}
	c.w.close()
}

// cancelAll cancels every request under way; their answers are dropped.
func (c *conn) cancelAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for key, cl := range c.inflight {
		cl.answered = true
		cl.cancel()
		delete(c.inflight, key)
	}
}

func (c *conn) exitCode() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.shutdown {
		return 0
	}
	return 1
}

// notify sends a notification; a closed output is not an error worth
// more than a log line, since the client is gone.
func (c *conn) notify(method string, params any) {
	if err := c.w.notify(method, params); err != nil {
		fmt.Fprintf(c.log, "nginx-lint lsp: sending %s: %v\n", method, err)
	}
}

// request sends a request to the client; its answer is read and
// dropped (the server asks for nothing it must wait for).
func (c *conn) request(method string, params any) {
	c.mu.Lock()
	c.seq++
	id := fmt.Sprintf(`"nginx-lint/%d"`, c.seq)
	c.mu.Unlock()
	if err := c.w.request(json.RawMessage(id), method, params); err != nil {
		fmt.Fprintf(c.log, "nginx-lint lsp: sending %s: %v\n", method, err)
	}
}

// logf writes a line to the log and, once the session is up, to the
// client's log (window/logMessage).
func (c *conn) logf(typ protocol.MessageType, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintf(c.log, "nginx-lint lsp: %s\n", msg)
	c.mu.Lock()
	up := c.initialized
	c.mu.Unlock()
	if up {
		c.notify(protocol.ServerWindowLogMessage, protocol.LogMessageParams{Type: typ, Message: msg})
	}
}

func (c *conn) reply(id json.RawMessage, result any, err *rpcError) {
	if werr := c.w.reply(id, result, err); werr != nil {
		fmt.Fprintf(c.log, "nginx-lint lsp: replying: %v\n", werr)
	}
}

// handle processes one message body; done is true when the session
// ends, with the exit status.
func (c *conn) handle(body []byte) (done bool, code int) {
	m, id, rerr := decode(body)
	if rerr != nil {
		c.reply(id, nil, rerr)
		return false, 0
	}
	if m.response {
		return false, 0 // the server waits for no answer to its requests
	}
	c.mu.Lock()
	initialized, shutdown := c.initialized, c.shutdown
	c.mu.Unlock()
	switch {
	case m.Method == "exit":
		return true, c.exitCode()
	case m.Method == "initialize" && m.hasID:
		if initialized {
			c.reply(m.ID, nil, errorf(codeInvalidRequest, "invalid request: initialize was already sent"))
			return false, 0
		}
		p := new(protocol.InitializeParams)
		if err := decodeParams(m.Params, p); err != nil {
			c.reply(m.ID, nil, asRPC(err))
			return false, 0
		}
		res := c.s.initialize(p)
		c.mu.Lock()
		c.initialized = true
		c.mu.Unlock()
		c.reply(m.ID, res, nil)
		return false, 0
	case !initialized:
		// Notifications before initialize are dropped, as the protocol
		// says; requests get -32002.
		if m.hasID {
			c.reply(m.ID, nil, errorf(codeServerNotInitialized, "server not initialized: send initialize first"))
		}
		return false, 0
	case shutdown:
		if m.hasID {
			c.reply(m.ID, nil, errorf(codeInvalidRequest, "invalid request: the server is shut down (only exit is accepted)"))
		}
		return false, 0
	case m.Method == "shutdown" && m.hasID:
		c.mu.Lock()
		c.shutdown = true
		c.mu.Unlock()
		// Nothing is linted after shutdown: the lints under way stop.
		c.s.stopLints()
		c.reply(m.ID, nil, nil)
		return false, 0
	case m.Method == "$/cancelRequest":
		var p struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(m.Params, &p) == nil && len(p.ID) > 0 {
			c.cancel(p.ID)
		}
		return false, 0
	}
	meth, ok := methods[m.Method]
	if !ok || meth.notification && m.hasID || !meth.notification && !m.hasID {
		if m.hasID {
			c.reply(m.ID, nil, errorf(codeMethodNotFound, "method not found: %s", m.Method))
		} else if !strings.HasPrefix(m.Method, "$/") {
			fmt.Fprintf(c.log, "nginx-lint lsp: ignored notification %s\n", m.Method)
		}
		return false, 0
	}
	run, err := meth.prepare(c.s, m.Params)
	if err != nil {
		if m.hasID {
			c.reply(m.ID, nil, asRPC(err))
		} else {
			c.logf(protocol.MessageTypeWarning, "%s: %v", m.Method, err)
		}
		return false, 0
	}
	if meth.notification {
		// On the loop, in order: a didChange must be applied before the
		// request that follows it is read.
		if _, err := c.protect(m.Method, func() (any, error) { return run(context.Background(), c.notify) }); err != nil {
			c.logf(protocol.MessageTypeError, "%s: %v", m.Method, err)
		}
		return false, 0
	}
	c.start(m.ID, m.Method, run)
	return false, 0
}

// start runs a request on its own goroutine and answers it, unless it
// was cancelled first.
func (c *conn) start(id json.RawMessage, method string, run func(context.Context, notifier) (any, error)) {
	ctx, cancel := context.WithCancel(context.Background())
	cl := &call{cancel: cancel}
	key := string(id)
	c.mu.Lock()
	c.inflight[key] = cl
	c.mu.Unlock()
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer cancel()
		res, err := c.protect(method, func() (any, error) { return run(ctx, c.notify) })
		c.mu.Lock()
		answered := cl.answered
		cl.answered = true
		if c.inflight[key] == cl {
			delete(c.inflight, key)
		}
		c.mu.Unlock()
		if answered {
			return
		}
		if err != nil {
			c.reply(id, nil, asRPC(err))
			return
		}
		c.reply(id, res, nil)
	}()
}

// cancel answers a request in flight with RequestCancelled at once and
// tells its handler to stop; its own answer, if it comes, is dropped. A
// request already answered (or unknown) is left alone, as the protocol
// says.
func (c *conn) cancel(id json.RawMessage) {
	c.mu.Lock()
	cl := c.inflight[string(id)]
	if cl == nil || cl.answered {
		c.mu.Unlock()
		return
	}
	cl.answered = true
	delete(c.inflight, string(id))
	c.mu.Unlock()
	cl.cancel()
	c.reply(id, nil, errorf(codeRequestCancelled, "request cancelled"))
}

// protect runs f, turning a panic into an internal error, so one bad
// input never takes the server down.
func (c *conn) protect(method string, f func() (any, error)) (res any, err error) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(c.log, "nginx-lint lsp: %s panicked: %v\n%s", method, v, debug.Stack())
			res, err = nil, errorf(codeInternalError, "internal error in %s: %v", method, v)
		}
	}()
	return f()
}

// asRPC turns a handler's error into the error sent: its own code when it
// has one, else an internal error; a cancelled context is RequestCancelled.
func asRPC(err error) *rpcError {
	var re *rpcError
	if errors.As(err, &re) {
		return re
	}
	if errors.Is(err, context.Canceled) {
		return errorf(codeRequestCancelled, "request cancelled")
	}
	return errorf(codeInternalError, "internal error: %v", err)
}

// RunStdio serves the protocol on standard input and output and returns
// the exit status (see Serve). Anything else that writes to os.Stdout
// while it runs goes to standard error instead: the protocol owns the
// real standard output.
//
// It sets the garbage collector as the command line does (GOGC=400 unless
// GOGC is set): a lint allocates about as much as it keeps, and each
// collection marks every open configuration's tree; the memory a burst
// of edits leaves behind is returned once the edits pause (releaseLocked).
func (s *Server) RunStdio() int {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(400)
		s.gcBatch.Store(true)
	}
	out := os.Stdout
	os.Stdout = os.Stderr
	defer func() { os.Stdout = out }()
	return s.Serve(os.Stdin, out, os.Stderr)
}
