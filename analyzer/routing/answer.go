package routing

import (
	"fmt"
	"net/netip"

	"github.com/nginx-lint/nginx-lint/parser"
)

// HTTPRequest is one request as a client sends it.
type HTTPRequest struct {
	// Request is the connection and the Host header: the local address
	// and port, Host (for https also the SNI name) or none.
	Request
	// Method is the request method ("" is GET).
	Method string
	// Target is the request target as sent, "/path?query", undecoded:
	// "//a/../b" and "%2F" reach nginx's normalization as they would.
	Target string
	// Headers are the other request headers.
	Headers []Header
	// HTTPS says the connection is TLS ($scheme https).
	HTTPS bool
	// Remote is the client's address ($remote_addr); the zero value
	// means unknown, and what depends on it is unsure.
	Remote netip.Addr
}

// Header is one request header.
type Header struct{ Name, Value string }

// Answer is what nginx does with one request.
type Answer struct {
	// Server is the number of the server in Table that handles the
	// request, Refused when no server listens where it arrives.
	Server int
	// Location is the location that answers, nil when the server level
	// does (no location matched, or the request never reached the
	// location search).
	Location *Location
	// Status is the status of the response, 0 when another program
	// decides it (a proxied request) or the model cannot tell.
	Status int
	// Steps are the locations the request went through, in order: each
	// with the URI it was searched with and the directive that sent it
	// on (nil for the last).
	Steps []Step
	// Handler is what produces the response.
	Handler Handler
	// URI and Args are the request's URI and query string when it was
	// answered ($uri and $args there).
	URI, Args string
	// LocationHeader is the Location header of a response that is not
	// a redirect's own: a redirect set it before its status went to an
	// error_page, whose response nginx sends with it ("" for none; a
	// redirect's Location is Handler.Target).
	LocationHeader string
	// Notes say why nginx answers as it does where the blocks the
	// answer names do not: the cause of a 400 or 414 given before any
	// location (an invalid Host, a plain HTTP request on an ssl port),
	// nginx's own code (497) answered as 400, a rewrite or internal
	// redirection cycle, a named location that does not exist. They are
	// as sure as the rest of the answer.
	Notes []string
	// Unsure lists what the model could not evaluate or assumed (files
	// taken as missing, a variable it does not know); when the handler
	// is HandlerUnknown the request stops at the first of them.
	Unsure []string
}

// Step is one location on a request's way.
type Step struct {
	// URI and Args are the request's URI and query string when the step
	// began.
	URI, Args string
	// Location is where the request was handled (nil: the server level).
	Location *Location
	// Via is the directive that sent the request on to the next step
	// (rewrite, try_files, index, error_page), nil for the last step.
	Via *parser.Directive
	// How says what Via did: "rewrite", "internal redirect", "named
	// location", "error_page".
	How string
}

// HandlerKind says what produces a response.
type HandlerKind uint8

// The handlers.
const (
	// HandlerUnknown: the model stopped before knowing (see Unsure).
	HandlerUnknown HandlerKind = iota
	// HandlerReturn: a return directive with a text (Target) or none.
	HandlerReturn
	// HandlerRedirect: a redirect to Target (the Location header) by
	// return, rewrite or error_page, or nginx's own (a directory asked
	// without its slash, a proxied prefix location asked without its
	// slash).
	HandlerRedirect
	// HandlerStatic: a file (Target is its path on the nginx host).
	HandlerStatic
	// HandlerError: nginx's own error response for Status.
	HandlerError
	// HandlerAutoindex: a directory listing.
	HandlerAutoindex
	// HandlerProxy and the others pass the request to another server
	// (Target is the address as evaluated, Upstream the block it names).
	HandlerProxy
	HandlerFastCGI
	HandlerUWSGI
	HandlerSCGI
	HandlerGRPC
	HandlerMemcached
	// HandlerModule: a module's content handler (stub_status, empty_gif,
	// Lua, njs, ...).
	HandlerModule
	// HandlerClose: the connection is closed without a response
	// ("return 444", or a try_files "=code" below 300 other than 201
	// and 204, which nginx finalizes as done).
	HandlerClose
)

var handlerNames = [...]string{
	HandlerUnknown: "unknown", HandlerReturn: "return", HandlerRedirect: "redirect", HandlerStatic: "static", HandlerError: "error",
	HandlerAutoindex: "autoindex", HandlerProxy: "proxy", HandlerFastCGI: "fastcgi", HandlerUWSGI: "uwsgi",
	HandlerSCGI: "scgi", HandlerGRPC: "grpc", HandlerMemcached: "memcached", HandlerModule: "module",
	HandlerClose: "close",
}

// String is the handler's name in the JSON output.
func (k HandlerKind) String() string {
	if int(k) < len(handlerNames) {
		return handlerNames[k]
	}
	return "unknown"
}

// Handler is what produces a response.
type Handler struct {
	Kind HandlerKind
	// Directive is the directive that answers (return, rewrite,
	// proxy_pass, try_files's =code, error_page, ...), nil for nginx's
	// own handlers.
	Directive *parser.Directive
	// Target is a redirect's Location, a return's text, a passed
	// request's address, or a static file's path.
	Target string
	// Upstream is the upstream block a *_pass names, nil for none.
	Upstream *parser.Upstream
}

// Describe words the handler in one line.
func (a *Answer) Describe() string {
	h := a.Handler
	switch h.Kind {
	case HandlerRedirect:
		return fmt.Sprintf("%d redirect to %s", a.Status, h.Target)
	case HandlerReturn:
		if h.Target != "" {
			return fmt.Sprintf("%d with the text %q", a.Status, h.Target)
		}
		return fmt.Sprintf("%d", a.Status)
	case HandlerStatic:
		return fmt.Sprintf("%d static file %s", a.Status, h.Target)
	case HandlerError:
		return fmt.Sprintf("%d (nginx's error page)", a.Status)
	case HandlerAutoindex:
		return fmt.Sprintf("%d directory listing of %s", a.Status, h.Target)
	case HandlerClose:
		return "connection closed without a response (444)"
	case HandlerProxy, HandlerFastCGI, HandlerUWSGI, HandlerSCGI, HandlerGRPC, HandlerMemcached, HandlerModule:
		s := h.Kind.String()
		if h.Directive != nil {
			s = h.Directive.Name().Value
		}
		if h.Target != "" {
			s = "passed by " + s + " to " + h.Target
		}
		if a.Status != 0 {
			s = fmt.Sprintf("%d from %s", a.Status, s)
		}
		return s
	}
	return "unknown"
}

func isRedirect(status int) bool {
	switch status {
	case 301, 302, 303, 307, 308:
		return true
	}
	return false
}
