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
// byte read. The parse tree and the lint's shared results of a dense
// configuration (BenchmarkPeakRSS's: 118 MiB, 300,000 servers of short
// directives) peak at 9.2 bytes live per byte of input; the limit leaves
// the collector a little room above that, instead of the 100% GOGC gives.
// (At 11 that run takes 5.9 s for 1339 MiB.)
const memoryPerInputByte = 10

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
// GOGC=100 (bigInputGC) to twice (the 118 MiB configuration peaked at
// 2025 MiB of RSS for 1087 MiB live). Under the limit the collector runs
// before the heap passes memoryLimitFor(read), at the cost of more
// collections near the end of a run: that configuration took 6.4-7.0 s
// instead of 4.4 s, for 1246 MiB instead of 2025 MiB; a 16 MB one 0.61 s
// instead of 0.52 s, for 218 MiB instead of 326 MiB. Small inputs stay
// under the limit's 64 MiB floor. A configuration whose live heap is
// larger per byte (a map of millions of short entries) would pass the
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

// followLiveHeap raises the limit to a quarter above the live heap (plus
// 64 MiB) whenever the live heap comes within a tenth of it, so that a
// run whose live heap outgrows the limit pays a collection per quarter of
// growth, as with GOGC=25, rather than one after every allocation. It
// runs for the life of the process (one goroutine, woken 50 times a
// second: the CLI exits after its run).
func followLiveHeap() {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	for range time.Tick(20 * time.Millisecond) {
		metrics.Read(s)
		live := int64(s[0].Value.Uint64())
		if l := memLimit.limit.Load(); live > l-l/10 {
			l = live + live/4 + 64<<20
			memLimit.limit.Store(l)
			debug.SetMemoryLimit(l)
		}
	}
}
