package nginxtest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/internal/nginxrun"
)

// Response is what nginx answered a request sent by Send.
type Response struct {
	Status int
	// Location is the Location header ("" for none).
	Location string
	// Body is the body as received (a chunked one with its chunk
	// lines).
	Body string
}

// Send sends a GET to addr (a loopback address of a test's nginx) with
// nginxrun.Do, the target as given, undecoded, so that non-normalized
// paths reach nginx's parser; an HTTP/1.1 request with the Host and the
// headers ("Name: value" each), or without host an HTTP/1.0 request
// without Host. It reads the whole response.
func Send(addr, host, target string, headers ...string) (Response, error) {
	return SendMethod("GET", addr, host, target, headers...)
}

// SendMethod is Send with another method than GET. A HEAD response's
// body is empty.
func SendMethod(method, addr, host, target string, headers ...string) (Response, error) {
	raw, err := nginxrun.Do(addr, method, host, target, headers...)
	if err != nil {
		return Response{}, err
	}
	head, body, ok := strings.Cut(raw, "\r\n\r\n")
	if !ok {
		return Response{}, fmt.Errorf("no end of the headers in %q", raw)
	}
	lines := strings.Split(head, "\r\n")
	f := strings.Fields(lines[0])
	var r Response
	if len(f) < 2 {
		return r, fmt.Errorf("status line %q", lines[0])
	}
	if r.Status, err = strconv.Atoi(f[1]); err != nil {
		return r, fmt.Errorf("status line %q", lines[0])
	}
	for _, h := range lines[1:] {
		if k, v, ok := strings.Cut(h, ":"); ok && strings.EqualFold(k, "location") {
			r.Location = strings.TrimSpace(v)
		}
	}
	r.Body = body
	return r, nil
}
