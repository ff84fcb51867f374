// Package taint says what a variable may hold where a directive uses it:
// whether the client chooses it (User), whether it may hold a line feed
// or a carriage return (LF, CR: a decoded %0A splits a header), whether it
// always starts with "/" (Slash) or may name any host (Wide). It follows
// nginx's own variables (Builtin), the captures of the regex in scope, set
// in the enclosing location or server, map and geo values, and a rewrite
// to $request_uri that leaves $uri raw (RawURIRewrite).
//
// The set and map definitions are read once per run from the symbol
// table; each rule makes its own Env (NewEnv), which memoises its answers
// and cuts cycles. The security rules (http-splitting, ssrf,
// host-spoofing, cors-origin-reflection, stale-dns-cache,
// proxy-pass-normalized) read it.
package taint
