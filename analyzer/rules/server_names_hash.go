package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel"
	"github.com/nginx-lint/nginx-lint/analyzer/costmodel/costpass"
	"github.com/nginx-lint/nginx-lint/analyzer/routing"
	"github.com/nginx-lint/nginx-lint/parser"
)

// ServerNamesHash reports server_names hashes nginx cannot build well.
var ServerNamesHash = &analyzer.Rule{
	Code: "NL4006", Name: "server-names-hash", Title: "the server_names hash does not fit its settings", Severity: parser.Warning,
	Cost:    true,
	Fixable: true,
	Run:     runServerNamesHash,
	Options: withCostOptions(),
	Doc: analyzer.Doc{
		Text: "For every address with more than one server nginx builds a hash of the server names " +
			"(`ngx_hash_init`) with `server_names_hash_max_size` buckets at most (default 512) of " +
			"`server_names_hash_bucket_size` bytes (default 64, the cache line). A name takes 8 bytes " +
			"plus its length plus 2, rounded up to 8: with 64-byte buckets a 25-character name fills " +
			"a bucket alone, and some 400 sites with two names each already overflow the defaults. " +
			"nginx then warns `could not build optimal server_names_hash, you should increase either " +
			"...` and builds a slower hash; a name longer than a bucket is fatal. nginx-lint simulates " +
			"the hash exactly and suggests the smallest setting that avoids both.",
		Bad: "events {}\nhttp {\n    server { listen 80; server_name short.example; }\n" +
			"    server { listen 80; server_name " + strings.Repeat("a-very-long-name-", 4) + "example.com; }\n}\n",
		Good: "events {}\nhttp {\n    server_names_hash_bucket_size 128;\n    server { listen 80; server_name short.example; }\n" +
			"    server { listen 80; server_name " + strings.Repeat("a-very-long-name-", 4) + "example.com; }\n}\n",
	},
}

func runServerNamesHash(p *analyzer.Pass) {
	r := costpass.Get(p)
	// One finding per configuration, at the first hash that fails, naming
	// the runs of ports next to it whose hash fails alike (a port range).
	var failed []routing.Run[*costmodel.HashResult]
	for i := range r.Hashes {
		if h := r.Hashes[i]; h.Outcome != costmodel.HashOK {
			failed = append(failed, routing.Run[*costmodel.HashResult]{Item: h, Addr: h.Addr})
		}
	}
	alike := func(a, b *costmodel.HashResult) bool {
		return a.Outcome == b.Outcome && a.Message == b.Message && a.Exact == b.Exact &&
			a.WildcardHead == b.WildcardHead && a.WildcardTail == b.WildcardTail
	}
	hashes, addrs := routing.MergeRuns(failed, alike)
	// One finding per configuration, at the first hash that fails: the
	// fix covers every address.
	if len(hashes) > 0 {
		h := hashes[0]
		d := reportAt(p, h.Addr, "%s on %s (%d names)", h.Message, addrs[0], h.Exact+h.WildcardHead+h.WildcardTail)
		if h.Outcome == costmodel.HashFatal {
			d.Severity = parser.Error
		}
		fixMax, fixBucket := h.Fix()
		// Prefer the max size for the warning (the lookup stays one
		// cache line per bucket); the fatal bucket case needs the bucket.
		switch {
		case fixMax > 0 && h.Outcome == costmodel.HashWarning:
			d.Detail = fmt.Sprintf("set server_names_hash_max_size %d; (or server_names_hash_bucket_size %d;)", fixMax, fixBucket)
			d.Edits = settingEdit(r, r.HashMaxSizeDir, "server_names_hash_max_size", fixMax)
		case fixBucket > 0:
			d.Detail = fmt.Sprintf("set server_names_hash_bucket_size %d;", fixBucket)
			d.Edits = settingEdit(r, r.HashBucketSizeDir, "server_names_hash_bucket_size", fixBucket)
		}
	}
}

// settingEdit changes the value of an http-level setting, or inserts it
// at the top of the http block.
func settingEdit(r *costmodel.Result, d *parser.Directive, name string, v int) []parser.Edit {
	if d != nil && len(d.Args()) == 1 {
		return []parser.Edit{{File: d.File, Range: d.Args()[0].Range, NewText: strconv.Itoa(v)}}
	}
	h := r.HTTPBlock
	if d != nil || h == nil || h.LBrace() < 0 {
		return nil
	}
	at := h.LBrace() + 1
	return []parser.Edit{{File: h.File, Range: parser.Range{Start: at, End: at},
		NewText: fmt.Sprintf("\n    %s %d;", name, v)}}
}
