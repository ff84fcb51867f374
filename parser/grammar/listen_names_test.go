package grammar

import (
	"slices"
	"testing"
)

func TestListenParams(t *testing.T) {
	for _, c := range []struct {
		ctx       Context
		has, lack string
	}{
		{ContextHTTP, "default_server", "udp"},
		{ContextHTTP, "backlog=", "backlog"},
		{ContextStream, "udp", "http2"},
		{ContextHTTP, "ipv6only=", "unknown"},
	} {
		got := ListenParams(c.ctx)
		if !slices.Contains(got, c.has) || slices.Contains(got, c.lack) {
			t.Errorf("ListenParams(%v) = %v: want %s, not %s", c.ctx, got, c.has, c.lack)
		}
		// Every name is one KindOf knows in that context.
		for _, p := range got {
			arg := p
			if arg[len(arg)-1] == '=' {
				arg += "1"
			}
			if arg == "ipv6only=1" {
				arg = "ipv6only=on"
			}
			if k := KindOf(arg); k == ParamUnknown || !c.ctx.Accepts(k) {
				t.Errorf("%v: %q is not a parameter KindOf reads", c.ctx, p)
			}
		}
	}
}
