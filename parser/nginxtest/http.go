package nginxtest

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"
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

// Send writes one raw HTTP request to addr (a loopback address of a
// test's nginx): the target as given, undecoded, so that non-normalized
// paths reach nginx's parser; an HTTP/1.1 request with the Host and the
// headers ("Name: value" each), or without host an HTTP/1.0 request
// without Host. It reads the whole response.
func Send(addr, host, target string, headers ...string) (Response, error) {
	return SendMethod("GET", addr, host, target, headers...)
}

// SendMethod is Send with another method than GET. A HEAD response's
// body is empty.
func SendMethod(method, addr, host, target string, headers ...string) (Response, error) {
	c, err := net.DialTimeout("tcp", addr, 3*time.Second)
	if err != nil {
		return Response{}, err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	var b strings.Builder
	if host == "" {
		fmt.Fprintf(&b, "%s %s HTTP/1.0\r\n", method, target)
	} else {
		fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", method, target, host)
	}
	if method == "POST" || method == "PUT" {
		b.WriteString("Content-Length: 0\r\n")
	}
	for _, h := range headers {
		b.WriteString(h + "\r\n")
	}
	b.WriteString("\r\n")
	if _, err := io.WriteString(c, b.String()); err != nil {
		return Response{}, err
	}
	br := bufio.NewReader(c)
	line, err := br.ReadString('\n')
	if err != nil {
		return Response{}, fmt.Errorf("status line: %w", err)
	}
	f := strings.Fields(line)
	if len(f) < 2 {
		return Response{}, fmt.Errorf("status line %q", line)
	}
	var r Response
	if r.Status, err = strconv.Atoi(f[1]); err != nil {
		return r, fmt.Errorf("status line %q", line)
	}
	for {
		h, err := br.ReadString('\n')
		if err != nil {
			return r, fmt.Errorf("headers: %w", err)
		}
		h = strings.TrimRight(h, "\r\n")
		if h == "" {
			break
		}
		if k, v, ok := strings.Cut(h, ":"); ok && strings.EqualFold(k, "location") {
			r.Location = strings.TrimSpace(v)
		}
	}
	body, err := io.ReadAll(br)
	r.Body = string(body)
	return r, err
}
