package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// This file is the transport: Content-Length framing, JSON-RPC 2.0
// messages and their error answers. It is ours rather than a library's
// because the protocol's promises (a malformed message is answered and
// the loop goes on, an id comes back byte for byte, a request before
// initialize gets -32002) are the server's own guarantees.

// JSON-RPC 2.0 and LSP error codes.
const (
	codeParseError           = -32700
	codeInvalidRequest       = -32600
	codeMethodNotFound       = -32601
	codeInvalidParams        = -32602
	codeInternalError        = -32603
	codeServerNotInitialized = -32002
	codeRequestCancelled     = -32800
)

// MaxMessageSize is the largest message body the server reads. A larger
// one is skipped unread (its bytes are discarded, never buffered) and
// answered with an error. It is above MaxDocumentSize with room for JSON
// escaping, so an oversized document still arrives and is reported as
// too large rather than lost.
const MaxMessageSize = 128 << 20

// maxHeaderLine bounds the part of a header line that is kept; longer
// lines are consumed without being buffered.
const maxHeaderLine = 4096

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%s (%d)", e.Message, e.Code) }

func errorf(code int, format string, args ...any) *rpcError {
	return &rpcError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// frameError is a message whose header block could not be used; the
// reader has skipped it and is ready for the next one.
type frameError struct{ msg string }

func (e *frameError) Error() string { return e.msg }

// frameReader reads Content-Length framed message bodies.
type frameReader struct {
	r   *bufio.Reader
	max int
}

func newFrameReader(r io.Reader) *frameReader {
	return &frameReader{r: bufio.NewReaderSize(r, maxHeaderLine), max: MaxMessageSize}
}

// line reads one line without its line ending. Only the first
// maxHeaderLine bytes are kept in head; tail holds the last bytes of a
// longer line (where a Content-Length glued to garbage would be).
func (fr *frameReader) line() (head, tail []byte, long bool, err error) {
	chunk, err := fr.r.ReadSlice('\n')
	head = append([]byte(nil), chunk...)
	for errors.Is(err, bufio.ErrBufferFull) {
		long = true
		chunk, err = fr.r.ReadSlice('\n')
		tail = append(tail, chunk...)
		if len(tail) > 256 {
			tail = append(tail[:0:0], tail[len(tail)-256:]...)
		}
	}
	if err != nil && (len(head) == 0 || !errors.Is(err, io.EOF)) {
		return nil, nil, false, err
	}
	if err != nil {
		// A last line without a newline: nothing can follow it.
		return nil, nil, false, io.EOF
	}
	trim := func(b []byte) []byte { return bytes.TrimRight(b, "\r\n") }
	return trim(head), trim(tail), long, nil
}

// isHeaderLine reports whether b has the shape "Name: value".
func isHeaderLine(b []byte) bool {
	i := bytes.IndexByte(b, ':')
	if i <= 0 {
		return false
	}
	for _, c := range b[:i] {
		if !(c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

var contentLength = []byte("content-length:")

// indexFold is bytes.Index with ASCII letters of b compared in lower case
// (pat must be lower case). Unlike searching bytes.ToLower(b), the index
// is one into b: ToLower turns each invalid UTF-8 byte into three.
func indexFold(b, pat []byte) int {
	for i := 0; i+len(pat) <= len(b); i++ {
		j := 0
		for ; j < len(pat); j++ {
			c := b[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != pat[j] {
				break
			}
		}
		if j == len(pat) {
			return i
		}
	}
	return -1
}

// next returns the next message body. Bytes before a header block that
// are not headers are skipped, up to a Content-Length even in the middle
// of a line (a client that lost count resynchronises on the next
// header); a header block without a usable length,
// with a malformed line, or announcing a body over the limit gives a
// *frameError after the block (and the body, when its length is known)
// has been consumed. Other errors (io.EOF) end the stream.
func (fr *frameReader) next() ([]byte, error) {
	length, started := -1, false
	var over int64
	var bad []string
	for {
		head, tail, long, err := fr.line()
		if err != nil {
			return nil, err
		}
		if !started {
			if len(head) == 0 && !long {
				continue // blank lines between messages
			}
			switch i := indexFold(head, contentLength); {
			case i == 0 && !long || i < 0 && !long && isHeaderLine(head):
			case i > 0 && !long:
				// A body without a header, then a header glued to it:
				// the lost bytes are dropped, the message is read.
				head = head[i:]
			case long && indexFold(tail, contentLength) >= 0:
				head, long = tail[indexFold(tail, contentLength):], false
			default:
				continue // not a header: skip the line
			}
			started = true
		}
		if len(head) == 0 && !long {
			break // end of the header block
		}
		if long {
			bad = append(bad, "header line too long")
			continue
		}
		name, value, ok := bytes.Cut(head, []byte(":"))
		if !ok || !isHeaderLine(head) {
			bad = append(bad, fmt.Sprintf("malformed header line %q", head))
			continue
		}
		value = bytes.TrimSpace(value)
		switch strings.ToLower(string(name)) {
		case "content-length":
			n, err := strconv.ParseUint(string(value), 10, 63)
			switch {
			case err != nil:
				bad = append(bad, fmt.Sprintf("bad Content-Length %q", value))
			case length >= 0 && uint64(length) != n:
				bad = append(bad, "two different Content-Length headers")
			case n > uint64(fr.max):
				bad = append(bad, fmt.Sprintf("message of %d bytes is over the limit of %d", n, fr.max))
				length, over = -2, int64(n) // discarded after the headers
			default:
				length = int(n)
			}
		case "content-type":
			// Only UTF-8 is defined; "utf8" is accepted for old clients.
			if _, cs, ok := strings.Cut(strings.ToLower(string(value)), "charset="); ok {
				cs = strings.Trim(strings.TrimSpace(cs), `"`)
				if cs != "utf-8" && cs != "utf8" {
					bad = append(bad, fmt.Sprintf("unsupported charset %q", cs))
				}
			}
		}
	}
	if length == -1 {
		return nil, &frameError{strings.Join(append(bad, "no Content-Length header"), "; ")}
	}
	if length == -2 {
		if _, err := io.CopyN(io.Discard, fr.r, over); err != nil {
			return nil, err
		}
		return nil, &frameError{strings.Join(bad, "; ")}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(fr.r, body); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = io.EOF
		}
		return nil, err
	}
	if len(bad) > 0 {
		return nil, &frameError{strings.Join(bad, "; ")}
	}
	return body, nil
}

// incoming is a decoded message. ID keeps the id's raw JSON, so it goes
// back exactly as it came (18446744073709551615, -2147483648, 1.5 and
// "x" alike); hasID tells a request (even with id null) from a
// notification.
type incoming struct {
	ID     json.RawMessage
	hasID  bool
	Method string
	Params json.RawMessage
	// response is set for a message that answers a request of ours.
	response bool
}

var nullID = json.RawMessage("null")

// decode classifies a body. On error it returns the id to answer with
// (null when none could be read) and the error to send.
func decode(body []byte) (*incoming, json.RawMessage, *rpcError) {
	if !json.Valid(body) {
		return nil, nullID, errorf(codeParseError, "parse error: the message is not JSON")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return nil, nullID, errorf(codeInvalidRequest, "invalid request: the message is not a JSON object")
	}
	m := &incoming{}
	if id, ok := fields["id"]; ok {
		switch c := id[0]; {
		case c == '"', c == '-', c >= '0' && c <= '9', c == 'n':
			m.ID, m.hasID = id, true
		default:
			return nil, nullID, errorf(codeInvalidRequest, "invalid request: id must be a number, a string or null")
		}
	}
	answerID := m.ID
	if !m.hasID {
		answerID = nullID
	}
	if v, ok := fields["jsonrpc"]; !ok || string(v) != `"2.0"` {
		return nil, answerID, errorf(codeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
	}
	method, ok := fields["method"]
	if !ok {
		_, result := fields["result"]
		_, rerr := fields["error"]
		if (result || rerr) && m.hasID {
			m.response = true
			return m, nil, nil
		}
		return nil, answerID, errorf(codeInvalidRequest, "invalid request: no method")
	}
	if err := json.Unmarshal(method, &m.Method); err != nil {
		return nil, answerID, errorf(codeInvalidRequest, "invalid request: method must be a string")
	}
	if p, ok := fields["params"]; ok && string(p) != "null" {
		if p[0] != '{' && p[0] != '[' {
			return nil, answerID, errorf(codeInvalidParams, "invalid params: params must be an object or an array")
		}
		m.Params = p
	}
	return m, nil, nil
}

// writer sends framed messages; one message at a time.
type writer struct {
	mu  sync.Mutex
	w   io.Writer
	err error
	// closed drops every later message: the session is over.
	closed bool
}

// close makes every later send a no-op.
func (w *writer) close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
}

// marshal encodes v without HTML escaping (ids and texts go out as they
// came).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

func (w *writer) send(body []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	if w.err != nil {
		return w.err
	}
	if _, err := fmt.Fprintf(w.w, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		w.err = err
	}
	return w.err
}

// reply answers the request id with result, or with err when non-nil.
func (w *writer) reply(id json.RawMessage, result any, err *rpcError) error {
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	b.Write(id)
	if err != nil {
		e, _ := marshal(err)
		b.WriteString(`,"error":`)
		b.Write(e)
	} else {
		r, merr := marshal(result)
		if merr != nil {
			e, _ := marshal(errorf(codeInternalError, "internal error: %v", merr))
			b.WriteString(`,"error":`)
			b.Write(e)
		} else {
			b.WriteString(`,"result":`)
			b.Write(r)
		}
	}
	b.WriteByte('}')
	return w.send(b.Bytes())
}

// notify sends a notification.
func (w *writer) notify(method string, params any) error {
	body, err := marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}{"2.0", method, params})
	if err != nil {
		return err
	}
	return w.send(body)
}

// request sends a request with id (raw JSON).
func (w *writer) request(id json.RawMessage, method string, params any) error {
	body, err := marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  any             `json:"params"`
	}{"2.0", id, method, params})
	if err != nil {
		return err
	}
	return w.send(body)
}
