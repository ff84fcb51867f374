package directives

import "testing"

// TestResolveMatchesRows checks the answers resolved once per name against
// InContext and ChildContext computed from the rows, for every name, every
// single context, no context and a few unions.
func TestResolveMatchesRows(t *testing.T) {
	ctxs := []Context{0, Server | Location, HTTP | Stream | Mail}
	for bit := range numContexts {
		ctxs = append(ctxs, Context(1)<<bit)
	}
	ids := map[int32]string{}
	for _, name := range append(Names(), "no_such_directive", "") {
		rows := Lookup(name)
		for _, ctx := range ctxs {
			row, known, id := Resolve(name, ctx)
			if want := inContext(rows, ctx); row != want || InContext(name, ctx) != want {
				t.Errorf("%q in %v: Resolve %v, InContext %v, rows say %v", name, ctx, row, InContext(name, ctx), want)
			}
			if known != (len(rows) > 0) {
				t.Errorf("%q: known %v with %d rows", name, known, len(rows))
			}
			if !known {
				if id != -1 {
					t.Errorf("%q: unknown name has id %d", name, id)
				}
			} else if id < 0 || int(id) >= NumNames() || ids[id] != "" && ids[id] != name {
				t.Errorf("%q: id %d out of range or shared with %q", name, id, ids[id])
			} else {
				ids[id] = name
			}
			wb, wk := false, false
			if want := inContext(rows, ctx); want != nil && want.ArgsKnown && !want.ThirdParty {
				wb, wk = want.Block, true
			}
			if b, k := BlockKind(name, ctx); b != wb || k != wk {
				t.Errorf("BlockKind(%q, %v) = %v, %v; rows say %v, %v", name, ctx, b, k, wb, wk)
			}
			c, ok := ChildContext(name, ctx)
			wc, wok := childContext(rows, ctx)
			if c != wc || ok != wok {
				t.Errorf("ChildContext(%q, %v) = %v, %v; rows say %v, %v", name, ctx, c, ok, wc, wok)
			}
		}
	}
	if c, ok := ChildContext("server", Stream); !ok || c != StreamServer {
		t.Errorf("ChildContext(server, Stream) = %v, %v", c, ok)
	}
	if c, ok := ChildContext("if", Location); !ok || c != IfInLocation {
		t.Errorf("ChildContext(if, Location) = %v, %v", c, ok)
	}
}

// TestChildContextsSingleBit checks that every context a block opens, in
// every context it may appear in (a single one or several at once), is
// a single bit: analyzer.Entry keeps an entry's context as its bit
// number, in one byte.
func TestChildContextsSingleBit(t *testing.T) {
	parents := []Context{0, Any - 1}
	for i := range numContexts {
		parents = append(parents, 1<<i)
	}
	n := 0
	for _, name := range Names() {
		for _, parent := range parents {
			ctx, ok := ChildContext(name, parent)
			if ctx&(ctx-1) != 0 {
				t.Errorf("ChildContext(%q, %v) = %v, want a single bit", name, parent, ctx)
			}
			if ok {
				n++
			}
		}
	}
	for k, ctx := range childContexts {
		if ctx == 0 || ctx&(ctx-1) != 0 {
			t.Errorf("childContexts[%v] = %v, want a single bit", k, ctx)
		}
	}
	if n < len(childContexts) {
		t.Errorf("only %d blocks open a context, want at least %d", n, len(childContexts))
	}
}
