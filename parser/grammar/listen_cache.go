package grammar

import (
	"strings"
	"sync"
)

// ListenCache memoises ParseListen by argument list, so that a
// configuration repeating the same listen in many servers (or including
// the same snippet many times) parses each distinct list once.
//
// The *Listen it returns is shared between all callers that passed equal
// arguments and must be treated as immutable. Its Params entries keep the
// argument indices and text of the first caller, which are equal for every
// caller by construction.
//
// A ListenCache is safe for concurrent use: a mutex guards it, which costs
// far less than a parse when uncontended. The zero value is ready to use;
// the cache only grows, so drop it after each configuration.
type ListenCache struct {
	mu  sync.Mutex
	buf []byte // reused to build the lookup key without allocating
	m   map[string]listenResult
}

// listenResult is one memoised ParseListen outcome.
type listenResult struct {
	l   *Listen
	err error
}

// NewListenCache returns an empty cache.
func NewListenCache() *ListenCache {
	return &ListenCache{m: make(map[string]listenResult)}
}

// Parse returns ParseListen(args), computing it only the first time this
// argument list is seen. Errors are cached too.
func (c *ListenCache) Parse(args []string) (*Listen, error) {
	c.mu.Lock()
	buf := c.buf[:0]
	for _, a := range args {
		if strings.IndexByte(a, 0) >= 0 {
			// NUL is the key separator; such (invalid) input is rare
			// enough to simply bypass the cache.
			c.mu.Unlock()
			return ParseListen(args)
		}
		buf = append(buf, a...)
		buf = append(buf, 0)
	}
	c.buf = buf
	// The string(buf) conversion in a map index does not allocate.
	if r, ok := c.m[string(buf)]; ok {
		c.mu.Unlock()
		return r.l, r.err
	}
	key := string(buf)
	c.mu.Unlock()

	// Parse outside the lock so one slow grammar parse does not stall
	// other goroutines; a rare duplicate parse is harmless.
	l, err := ParseListen(args)
	c.mu.Lock()
	if c.m == nil {
		c.m = make(map[string]listenResult)
	}
	c.m[key] = listenResult{l, err}
	c.mu.Unlock()
	return l, err
}

// Len returns the number of distinct argument lists cached.
func (c *ListenCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
