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
	return exchange(addr, fmt.Sprintf("GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", path, host))
}

// GetNoHost is Get without a Host header, in HTTP/1.0 (where the header
// is optional): nginx answers it from the default server of the address.
func GetNoHost(addr, path string) (string, error) {
	return exchange(addr, fmt.Sprintf("GET %s HTTP/1.0\r\n\r\n", path))
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
