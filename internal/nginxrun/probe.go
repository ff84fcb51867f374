package nginxrun

import (
	"fmt"
	"net"
	"strings"
	"time"
)

// probeTimeout bounds a probe's connection and its whole exchange.
const probeTimeout = 5 * time.Second

// Get sends one HTTP/1.1 GET for path with the given Host header to addr
// (an nginx started on loopback, or in a private network namespace) and
// returns the whole response, read until the server closes the
// connection or 5 seconds pass. A refused connection is an error that
// errors.Is matches to syscall.ECONNREFUSED.
func Get(addr, host, path string) (string, error) {
	return Do(addr, "GET", host, path)
}

// GetNoHost is Get without a Host header, in HTTP/1.0 (where the header
// is optional): nginx answers it from the default server of the address.
func GetNoHost(addr, path string) (string, error) {
	return Do(addr, "GET", "", path)
}

// Do is Get with any method, the target as given (undecoded, so that a
// path nginx normalizes reaches it as written) and more headers
// ("Name: value" each); without host, an HTTP/1.0 request without Host.
// A POST or PUT says its body is empty.
func Do(addr, method, host, target string, headers ...string) (string, error) {
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
	return exchange(addr, b.String())
}

// exchange writes req to addr and reads the answer until the server
// closes the connection or the time is up; what came before either is the
// answer.
func exchange(addr, req string) (string, error) {
	c, err := net.DialTimeout("tcp", addr, probeTimeout)
	if err != nil {
		return "", err
	}
	defer c.Close()
	if err := c.SetDeadline(time.Now().Add(probeTimeout)); err != nil {
		return "", err
	}
	if _, err := c.Write([]byte(req)); err != nil {
		return "", err
	}
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := c.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return b.String(), nil
}
