package costmodel_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
)

// vhosts writes n servers on one address, each with the given names
// (formatted with the server's index).
func vhosts(n int, http string, names ...string) string {
	var b strings.Builder
	b.WriteString("events {}\nhttp {\n" + http)
	for i := 0; i < n; i++ {
		b.WriteString("    server { listen 127.0.0.1:80; server_name")
		for _, f := range names {
			fmt.Fprintf(&b, " "+f, i)
		}
		b.WriteString("; }\n")
	}
	b.WriteString("}\n")
	return b.String()
}

func TestHashSmall(t *testing.T) {
	r := compute(t, vhosts(2, "", "h%d"), costmodel.Options{})
	h := r.Hashes[0]
	// Two 2-byte names take 16 bytes each; with 64-byte buckets (56
	// usable) both fit in one bucket, so the search starts and ends at
	// size 2/(56/16) → 1: one cleared bucket group and two keys.
	if h.Outcome != costmodel.HashOK || h.Size != 1 || h.Probes != 3 || h.Exact != 2 {
		t.Errorf("hash %+v", h)
	}
}

func TestHashWarning(t *testing.T) {
	// The case seen on nginx 1.22.1: 400 vhosts with two ~25-character
	// names each. Each name takes 8 + align(27, 8) = 40 bytes, one per
	// 56-byte bucket; 800 names cannot fit 512 buckets.
	src := vhosts(400, "", "www.customer-site-%05d.com", "customer-site-%05d.example")
	r := compute(t, src, costmodel.Options{})
	h := r.Hashes[0]
	if h.Outcome != costmodel.HashWarning || h.Exact != 800 || h.Size != 512 {
		t.Fatalf("hash %+v", h)
	}
	want := "could not build optimal server_names_hash, you should increase either server_names_hash_max_size: 512 or server_names_hash_bucket_size: 64; ignoring server_names_hash_bucket_size"
	if h.Message != want {
		t.Errorf("message %q", h.Message)
	}
	fixMax, fixBucket := h.Fix()
	if fixMax <= 512 && fixBucket <= 64 {
		t.Fatalf("no fix: %+v", h)
	}
	// The fixes work, and one less does not.
	if fixMax > 0 {
		if got := compute(t, vhosts(400, fmt.Sprintf("server_names_hash_max_size %d;\n", fixMax), "www.customer-site-%05d.com", "customer-site-%05d.example"), costmodel.Options{}); got.Hashes[0].Outcome != costmodel.HashOK {
			t.Errorf("max size %d does not fix it", fixMax)
		}
		if got := compute(t, vhosts(400, fmt.Sprintf("server_names_hash_max_size %d;\n", fixMax-1), "www.customer-site-%05d.com", "customer-site-%05d.example"), costmodel.Options{}); got.Hashes[0].Outcome == costmodel.HashOK && fixMax <= 10000 {
			t.Errorf("max size %d already fixes it", fixMax-1)
		}
	}
	if fixBucket > 0 {
		got := compute(t, vhosts(400, fmt.Sprintf("server_names_hash_bucket_size %d;\n", fixBucket), "www.customer-site-%05d.com", "customer-site-%05d.example"), costmodel.Options{})
		if got.Hashes[0].Outcome != costmodel.HashOK {
			t.Errorf("bucket size %d does not fix it", fixBucket)
		}
	}
}

func TestHashFatalBucket(t *testing.T) {
	long := strings.Repeat("a", 60) + "%d"
	r := compute(t, vhosts(2, "", long), costmodel.Options{})
	h := r.Hashes[0]
	// 62 bytes: 8 + align(64, 8) = 72, plus a pointer, exceeds 64.
	if h.Outcome != costmodel.HashFatal || h.Message != "could not build server_names_hash, you should increase server_names_hash_bucket_size: 64" {
		t.Fatalf("hash %+v", h)
	}
	if _, fixBucket := h.Fix(); fixBucket != 128 {
		t.Errorf("fix bucket %d, want 128", fixBucket)
	}
	// A bucket size is aligned to the cache line as nginx does.
	r = compute(t, vhosts(2, "server_names_hash_bucket_size 100;\n", long), costmodel.Options{})
	if r.HashBucketSize != 128 || r.Hashes[0].Outcome != costmodel.HashOK {
		t.Errorf("aligned bucket %d outcome %v", r.HashBucketSize, r.Hashes[0].Outcome)
	}
}

func TestHashWildcards(t *testing.T) {
	r := compute(t, vhosts(3, "", "*.s%d.example.com", "www.s%d.example.*", ".t%d.example.org"), costmodel.Options{})
	h := r.Hashes[0]
	// Each .tN.example.org is an exact name and a head wildcard.
	if h.WildcardHead != 6 || h.WildcardTail != 3 || h.Exact != 3 || h.Outcome != costmodel.HashOK {
		t.Errorf("hash %+v", h)
	}
	r = compute(t, vhosts(2, "", "same.example"), costmodel.Options{})
	if r.Hashes[0].Conflicts != 1 {
		t.Errorf("duplicate name conflicts %d", r.Hashes[0].Conflicts)
	}
}
