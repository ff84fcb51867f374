package main

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// memoryPerInputByte sets the soft memory limit of a one-shot run, per
// byte read. A configuration written as people write them keeps about 4.5
// bytes live per byte of input once parsed and linted (the tree 3.9), the
// densest shape about 5.2 (BenchmarkPeakRSS's dense 124 MiB file: the
// tree 3.9 with 40-byte directives); the limit covers the first with
// room to spare, and the second raises it (followLiveHeap). At 5 the
// benchmark's typical, fragment and dense files peak at 5.2–5.3×,
// 5.5–5.6× and 5.8–6.0× their size; at 10 (with a quarter of headroom,
// and 72-byte directives) at 5.3×, 6.7× and 7.5×.
const memoryPerInputByte = 5

// followHeadroom is the room, as a fraction of the live heap, that
// followLiveHeap leaves the collector above a live heap that outgrew the
// limit: one tenth.
const followHeadroom = 10

// memLimit is the soft memory limit memoryLimit set, as followLiveHeap
// has raised it since.
var memLimit struct {
	limit  atomic.Int64
	follow sync.Once
}

// memoryLimit sets a soft memory limit (debug.SetMemoryLimit) for a
// one-shot run that has read read bytes, so that its memory stays
// proportional to its input whatever GOGC does: GOGC=400 (batchGC) lets
// the heap of a mid-sized input grow to five times what is live, and even
// GOGC=100 (bigInputGC) to twice. Under the limit the collector runs
// before the heap passes memoryLimitFor(read), at the cost of more
// collections near the end of a run. Small inputs stay under the limit's
// 64 MiB floor. A configuration whose live heap is larger per byte (the
// densest shapes, a map of millions of short entries) would pass the
// limit and leave the collector running without pause; followLiveHeap
// raises the limit then. A GOMEMLIMIT or GOGC set by the user wins.
func memoryLimit(read int64) {
	for _, v := range []string{"GOMEMLIMIT", "GOGC"} {
		if _, set := os.LookupEnv(v); set {
			return
		}
	}
	l := memoryLimitFor(read)
	memLimit.limit.Store(l)
	debug.SetMemoryLimit(l)
	memLimit.follow.Do(func() { go followLiveHeap() })
}

// memoryLimitFor is the soft limit for a run that has read read bytes:
// the expected peak plus room for the runtime's own structures.
func memoryLimitFor(read int64) int64 { return read*memoryPerInputByte + 64<<20 }

// raisedLimit is the limit followLiveHeap sets for a live heap of live
// bytes under limit l: l itself while the live heap is more than a tenth
// below it, else a followHeadroom-th above the live heap (plus 32 MiB
// for the runtime), so that a run whose live heap outgrows the limit pays
// a collection per tenth of growth, as with GOGC=10, rather than one
// after every allocation.
func raisedLimit(live, l int64) int64 {
	if live <= l-l/10 {
		return l
	}
	return live + live/followHeadroom + 32<<20
}

// followLiveHeap keeps the limit above the live heap (raisedLimit). It
// runs for the life of the process (one goroutine, woken 50 times a
// second: the CLI exits after its run).
func followLiveHeap() {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	for range time.Tick(20 * time.Millisecond) {
		metrics.Read(s)
		l := memLimit.limit.Load()
		if r := raisedLimit(int64(s[0].Value.Uint64()), l); r != l {
			memLimit.limit.Store(r)
			debug.SetMemoryLimit(r)
		}
	}
}
