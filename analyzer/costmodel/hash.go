package costmodel

import (
	"sort"
	"strings"
	"sync"

	"github.com/nginx-lint/nginx-lint/parser"
	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// cacheLine is ngx_cacheline_size on x86-64 and arm64, the default of
// server_names_hash_bucket_size.
const cacheLine = 64

// ptrSize is sizeof(void *) on the 64-bit platforms nginx runs on.
const ptrSize = 8

// maxBucket is the largest bucket ngx_hash_init accepts (65536 minus the
// cache line).
const maxBucket = 65536 - cacheLine

// HashOutcome is how ngx_hash_init ends.
type HashOutcome uint8

// Outcomes of building a server_names hash.
const (
	// HashOK: a size within server_names_hash_max_size fits every bucket.
	HashOK HashOutcome = iota
	// HashWarning: no size fits; nginx warns "could not build optimal
	// server_names_hash, you should increase either ..." and builds it
	// with max_size buckets, ignoring the bucket size.
	HashWarning
	// HashFatal: nginx refuses to start ("could not build
	// server_names_hash, you should increase ...").
	HashFatal
)

func (o HashOutcome) String() string {
	switch o {
	case HashWarning:
		return "warning"
	case HashFatal:
		return "fatal"
	}
	return "ok"
}

// HashResult is the simulated server_names hash of one address.
type HashResult struct {
	Addr *Addr
	// Exact, WildcardHead, WildcardTail and Regex count the names by kind.
	Exact, WildcardHead, WildcardTail, Regex int
	// Conflicts counts the "conflicting server name" warnings.
	Conflicts int
	// Size is the number of buckets nginx ends up with (exact names).
	Size int
	// Probes is the work of the size search: keys placed plus buckets
	// cleared, over every size tried (exact and wildcard hashes).
	Probes  int64
	Outcome HashOutcome
	// Message is nginx's message for a warning or a fatal outcome.
	Message string
	// MaxSize and BucketSize are the settings the hash was built with;
	// Fix computes better ones.
	MaxSize, BucketSize int

	fixOnce           sync.Once
	fixMax, fixBucket int
	keys              []hashKey
	head, tail        []string
}

// Names counts the names in the hash (regular expressions are not
// hashed).
func (h *HashResult) Names() int { return h.Exact + h.WildcardHead + h.WildcardTail }

// Fix returns the smallest server_names_hash_max_size that avoids the
// warning with the current bucket size (0 if none up to the search
// limit), and the smallest bucket size that avoids it with the current
// max size. Both are 0 for a hash that builds fine. The search simulates
// ngx_hash_init many times, so it runs on first use only.
func (h *HashResult) Fix() (maxSize, bucketSize int) {
	h.fixOnce.Do(func() {
		if h.Outcome != HashOK {
			h.fixMax, h.fixBucket = fixSettings(h.keys, h.head, h.tail, h.MaxSize, h.BucketSize)
		}
	})
	return h.fixMax, h.fixBucket
}

// hashKey is one key of ngx_hash_init: its length and ngx_hash_key value.
type hashKey struct {
	len  int
	hash uint64
}

// ngxHash is ngx_hash_key: key = key * 31 + c over the bytes, in the
// machine word (64 bits).
func ngxHash(s string) uint64 {
	var k uint64
	for i := 0; i < len(s); i++ {
		k = k*31 + uint64(s[i])
	}
	return k
}

// eltSize is NGX_HASH_ELT_SIZE: a pointer, a length and the name, aligned.
func eltSize(n int) int { return ptrSize + align(n+2, ptrSize) }

// hashInit simulates ngx_hash_init on keys with max and bucket, returning
// the size used, the work done and the outcome with nginx's message.
func hashInit(keys []hashKey, maxSize, bucket int) (size int, probes int64, out HashOutcome, msg string) {
	const name = "server_names_hash"
	if maxSize == 0 {
		return 0, 0, HashFatal, "could not build " + name + ", you should increase " + name + "_max_size: 0"
	}
	if bucket > maxBucket {
		return 0, 0, HashFatal, "could not build " + name + ", too large " + name + "_bucket_size: " + itoa(bucket)
	}
	for _, k := range keys {
		if bucket < eltSize(k.len)+ptrSize {
			return 0, 0, HashFatal, "could not build " + name + ", you should increase " + name + "_bucket_size: " + itoa(bucket)
		}
	}
	bs := bucket - ptrSize
	n := len(keys)
	start := n / (bs / (2 * ptrSize))
	if start == 0 {
		start = 1
	}
	if maxSize > 10000 && n > 0 && maxSize/n < 100 {
		start = maxSize - 1000
	}
	// The bucket lengths of the size tried, grown with it: the search
	// usually ends near start, far below a max_size raised for big
	// configurations (a megabyte of slots).
	var test []uint16
	for size = start; size <= maxSize; size++ {
		if size > len(test) {
			test = make([]uint16, min(maxSize, max(2*size, 1024)))
		}
		clear(test[:size])
		probes += int64(size)/16 + 1
		fits := true
		for _, k := range keys {
			probes++
			i := k.hash % uint64(size)
			l := int(test[i]) + eltSize(k.len)
			if l > bs {
				fits = false
				break
			}
			test[i] = uint16(l)
		}
		if fits {
			return size, probes, HashOK, ""
		}
	}
	size = maxSize
	msg = "could not build optimal " + name + ", you should increase either " + name + "_max_size: " + itoa(maxSize) +
		" or " + name + "_bucket_size: " + itoa(bucket) + "; ignoring " + name + "_bucket_size"
	lens := make([]int, size)
	for i := range lens {
		lens[i] = ptrSize
	}
	for _, k := range keys {
		probes++
		i := k.hash % uint64(size)
		lens[i] += eltSize(k.len)
		if lens[i] > maxBucket {
			return size, probes, HashFatal, "could not build " + name + ", you should increase " + name + "_max_size: " + itoa(maxSize)
		}
	}
	return size, probes, HashWarning, msg
}

// fits reports whether some size in nginx's search range up to maxSize
// fits every bucket; work counts probes and stops the search at limit.
func fits(keys []hashKey, maxSize, bucket int, work *int64, limit int64) bool {
	_, p, out, _ := hashInit(keys, maxSize, bucket)
	*work += p
	return out == HashOK && *work <= limit
}

// fixLimit bounds the work spent looking for the smallest settings, so a
// pathological config cannot make the model slow.
const fixLimit = 50_000_000

// hashes builds the server_names hash of every address nginx builds one
// for: more than one server, or a default server with regex captures
// (ngx_http_optimize_servers). Without any regex server name (regex)
// there are no captures to look for.
func (b *builder) hashes(regex bool) {
	r := b.r
	for _, p := range r.Ports {
		if p.Protocol != parser.HTTP {
			continue
		}
		// nginx builds the hash for each port of a run; the model once,
		// counted for each.
		w := p.Width()
		for _, a := range p.Addrs {
			if a.nSrv < 2 && (!regex || !captures(a)) {
				continue
			}
			h := b.hash(a)
			r.Hashes = append(r.Hashes, h)
			r.Counts.NameKeys += (h.Exact + h.WildcardHead + h.WildcardTail) * w
			r.Counts.NameConflicts += h.Conflicts * w
			r.Counts.HashProbes += h.Probes * int64(w)
		}
	}
}

// captures reports whether the first server (the default) has a regex
// server_name with a capture group, for which nginx builds the names even
// for a single server.
func captures(a *Addr) bool {
	if len(a.Instances) == 0 {
		return false
	}
	for _, n := range a.Instances[0].Server.Names() {
		if sn := n.Spec(); sn.Kind == grammar.NameRegex && strings.Contains(sn.Name, "(") {
			return true
		}
	}
	return false
}

func (b *builder) hash(a *Addr) *HashResult {
	b.r.Options.count(len(a.Instances))
	r := b.r
	h := &HashResult{Addr: a, MaxSize: r.HashMaxSize, BucketSize: r.HashBucketSize}
	exact := newNameSet(int(a.nSrv))
	head := map[string]bool{}
	tail := map[string]bool{}
	var headKeys, tailKeys []string
	// addHead files a leading-wildcard key, as ngx_hash_add_key does for
	// "*.example.com" and the wildcard half of ".example.com".
	addHead := func(wk string) {
		if head[wk] {
			h.Conflicts++
			return
		}
		head[wk] = true
		headKeys = append(headKeys, wk)
		h.WildcardHead++
	}
	addExact := func(n string) bool {
		k := ngxHash(n)
		if !exact.add(n, k) {
			h.Conflicts++
			return false
		}
		h.Exact++
		return true
	}
	for s := range a.Servers() {
		if len(s.Names()) == 0 {
			// ngx_http_core_merge_srv_conf gives it the name "".
			addExact("")
			continue
		}
		for _, sn := range s.Names() {
			n := sn.Spec()
			switch n.Kind {
			case grammar.NameRegex:
				h.Regex++
			case grammar.NameExact, grammar.NameEmpty:
				name := n.Name
				if n.Hostname {
					// The machine's host name, unknown here; a typical length.
					name = "$hostname.localdomain"
				}
				addExact(name)
			case grammar.NameDotWildcard:
				// ".example.com" is "example.com" and "*.example.com".
				if !addExact(n.Domain) {
					continue
				}
				addHead(reverseLabels(n.Domain))
			case grammar.NameWildcardHead:
				addHead(reverseLabels(n.Domain) + ".")
			case grammar.NameWildcardTail:
				if tail[n.Domain] {
					h.Conflicts++
					continue
				}
				tail[n.Domain] = true
				tailKeys = append(tailKeys, n.Domain)
				h.WildcardTail++
			}
		}
	}
	// The set's keys are the exact names' keys, in order.
	keys := exact.keys
	if len(keys) > 0 {
		h.Size, h.Probes, h.Outcome, h.Message = hashInit(keys, h.MaxSize, h.BucketSize)
	}
	for _, wk := range [][]string{headKeys, tailKeys} {
		if len(wk) == 0 || h.Outcome == HashFatal {
			continue
		}
		sort.Slice(wk, func(i, j int) bool { return dnsLess(wk[i], wk[j]) })
		p, out, msg := wildcardInit(wk, h.MaxSize, h.BucketSize)
		h.Probes += p
		if out > h.Outcome {
			h.Outcome, h.Message = out, msg
		}
	}
	if h.Outcome != HashOK {
		h.keys, h.head, h.tail = keys, headKeys, tailKeys
	}
	return h
}

// fixSettings finds the smallest max size (current bucket size) and the
// smallest bucket size (current max size) for which every hash of the
// address builds without a warning; 0 when the search gives up.
func fixSettings(keys []hashKey, head, tail []string, maxSize, bucket int) (fixMax, fixBucket int) {
	var work int64
	ok := func(m, bs int) bool {
		if len(keys) > 0 && !fits(keys, m, bs, &work, fixLimit) {
			return false
		}
		for _, wk := range [][]string{head, tail} {
			if len(wk) > 0 {
				p, out, _ := wildcardInit(wk, m, bs)
				work += p
				if out != HashOK || work > fixLimit {
					return false
				}
			}
		}
		return true
	}
	// Bucket size first: the fatal "increase bucket_size" case needs it.
	// A larger bucket never hurts the fit much, so bisect over multiples
	// of the cache line.
	blo, bhi := bucket/cacheLine, 0
	for b := blo + 1; b*cacheLine <= maxBucket && work <= fixLimit; b *= 2 {
		if ok(maxSize, b*cacheLine) {
			bhi = b
			break
		}
		blo = b
	}
	for bhi > 0 && bhi-blo > 1 && work <= fixLimit {
		mid := (blo + bhi) / 2
		if ok(maxSize, mid*cacheLine) {
			bhi = mid
		} else {
			blo = mid
		}
	}
	fixBucket = bhi * cacheLine
	// The smallest max size: the size search starts at
	// n / ((bucket-8)/16), so any max size at or above the first size that
	// fits works. Grow geometrically, then bisect.
	minElt := 0
	for _, k := range keys {
		minElt = max(minElt, eltSize(k.len)+ptrSize)
	}
	if bucket < minElt {
		return 0, fixBucket
	}
	lo, hi := maxSize, 0
	for m := max(maxSize*2, 1); m <= 1<<20 && work <= fixLimit; m *= 2 {
		if ok(m, bucket) {
			hi = m
			break
		}
		lo = m
	}
	if hi == 0 {
		return 0, fixBucket
	}
	for hi-lo > 1 && work <= fixLimit {
		mid := (lo + hi) / 2
		if ok(mid, bucket) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, fixBucket
}

// reverseLabels turns "example.com" into "com.example", the form
// ngx_hash_add_key stores head wildcards in.
func reverseLabels(d string) string {
	parts := strings.Split(d, ".")
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, ".")
}

// dnsLess orders like ngx_dns_strcmp: '.' sorts before every other byte.
func dnsLess(a, b string) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		ca, cb := a[i], b[i]
		if ca == cb {
			continue
		}
		if ca == '.' {
			return true
		}
		if cb == '.' {
			return false
		}
		return ca < cb
	}
	return len(a) < len(b)
}

// wildcardInit follows ngx_hash_wildcard_init: the first labels of the
// (sorted) names form one hash, and the rest of the names sharing a first
// label form a hash of their own, recursively; every level goes through
// ngx_hash_init with the same settings.
func wildcardInit(names []string, maxSize, bucket int) (probes int64, out HashOutcome, msg string) {
	var curr []hashKey
	var next []string
	for n := 0; n < len(names); {
		name := names[n]
		l := strings.IndexByte(name, '.')
		dot := l >= 0
		if !dot {
			l = len(name)
		}
		curr = append(curr, hashKey{l, ngxHash(name[:l])})
		dotLen := l + 1
		if dot {
			l++
		}
		next = next[:0]
		if len(name) != l {
			next = append(next, name[l:])
		}
		i := n + 1
		for ; i < len(names); i++ {
			o := names[i]
			if len(o) < l || o[:l] != name[:l] {
				break
			}
			if !dot && len(o) > l && o[l] != '.' {
				break
			}
			next = append(next, o[min(dotLen, len(o)):])
		}
		if len(next) > 0 {
			p, o, m := wildcardInit(append([]string(nil), next...), maxSize, bucket)
			probes += p
			if o > out {
				out, msg = o, m
			}
		}
		n = i
	}
	_, p, o, m := hashInit(curr, maxSize, bucket)
	probes += p
	if o > out {
		out, msg = o, m
	}
	return probes, out, msg
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// nameSet is a set of names keyed by their ngx_hash_key, which the hash
// simulation computes anyway: open addressing on that value avoids hashing
// every name a second time, as a map[string] would.
type nameSet struct {
	// slots hold 1 + the index of a name in names, 0 when empty: no
	// pointers, so a set of 20,000 names costs the collector nothing to
	// scan.
	slots []int32
	names []string
	// keys are the names' lengths and hashes: ngx_hash_init's input.
	keys []hashKey
}

func newNameSet(hint int) *nameSet {
	size := 16
	for size < 2*hint {
		size <<= 1
	}
	return &nameSet{slots: make([]int32, size), names: make([]string, 0, hint), keys: make([]hashKey, 0, hint)}
}

// add inserts name (whose ngxHash is h) and reports whether it was new.
func (s *nameSet) add(name string, h uint64) bool {
	if 2*(len(s.names)+1) > len(s.slots) {
		s.slots = make([]int32, 2*len(s.slots))
		for i := range s.names {
			s.place(int32(i))
		}
	}
	mask := uint64(len(s.slots) - 1)
	for i := s.start(h, mask); ; i = (i + 1) & mask {
		j := s.slots[i]
		if j == 0 {
			s.names = append(s.names, name)
			s.keys = append(s.keys, hashKey{len(name), h})
			s.slots[i] = int32(len(s.names))
			return true
		}
		if s.keys[j-1].hash == h && s.names[j-1] == name {
			return false
		}
	}
}

// place puts the name with index i into an empty slot (when growing).
func (s *nameSet) place(i int32) {
	mask := uint64(len(s.slots) - 1)
	for k := s.start(s.keys[i].hash, mask); ; k = (k + 1) & mask {
		if s.slots[k] == 0 {
			s.slots[k] = i + 1
			return
		}
	}
}

// start mixes the bits: ngx_hash_key of similar names differs mostly in
// the low bits, which is fine, but its high bits carry the prefix.
func (s *nameSet) start(h, mask uint64) uint64 {
	return (h * 0x9E3779B97F4A7C15) >> 32 & mask
}
