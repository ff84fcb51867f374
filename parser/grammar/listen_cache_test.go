package grammar

import (
	"sync"
	"testing"
)

func TestListenCache(t *testing.T) {
	c := NewListenCache()
	a, err := c.Parse([]string{"127.0.0.1:80", "ssl"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Parse([]string{"127.0.0.1:80", "ssl"})
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Error("equal argument lists were parsed twice")
	}
	// Same bytes, different split: must not collide.
	d, err := c.Parse([]string{"127.0.0.1:80ssl"})
	if err == nil || d != nil {
		t.Errorf(`Parse("127.0.0.1:80ssl") = %v, %v; want an invalid port error`, d, err)
	}
	_, err1 := c.Parse([]string{"80", "backlog=0"})
	_, err2 := c.Parse([]string{"80", "backlog=0"})
	if err1 == nil || err1 != err2 {
		t.Errorf("errors are not cached: %v, %v", err1, err2)
	}
	if n := c.Len(); n != 3 {
		t.Errorf("Len() = %d, want 3", n)
	}
	// NUL bypasses the cache rather than risking a key collision.
	if _, err := c.Parse([]string{"80\x00ssl"}); err == nil {
		t.Error("NUL accepted")
	}
	if n := c.Len(); n != 3 {
		t.Errorf("Len() after NUL input = %d, want 3", n)
	}
	args := []string{"127.0.0.1:80", "ssl"}
	if n := testing.AllocsPerRun(100, func() { _, _ = c.Parse(args) }); n != 0 {
		t.Errorf("cache hit allocates %v times, want 0", n)
	}
}

func TestListenCacheZeroValueConcurrent(t *testing.T) {
	var c ListenCache
	all := distinctListens(500)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, args := range all {
				l, err := c.Parse(args)
				if err != nil || l.Port != 80 {
					t.Errorf("Parse(%q) = %+v, %v", args, l, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if n := c.Len(); n != len(all) {
		t.Errorf("Len() = %d, want %d", n, len(all))
	}
}
