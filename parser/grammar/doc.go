// Package grammar turns the argument values of three nginx directives —
// listen, server_name and location — into typed values. The caller has
// already tokenised the directive and removed quotes; these are pure
// functions over strings with no I/O and no global state.
//
// The semantics, and the wording of every error, follow nginx's own
// parsers: ngx_http_core_listen (and the stream and mail variants) with
// ngx_parse_url for listen, ngx_http_core_server_name and ngx_hash_add_key
// for server_name, ngx_http_core_location for location. Quirks are kept
// where they change what nginx accepts (for example "1..2.3" is the IPv4
// address 1.0.2.3 and an over-long numeric port silently becomes a host
// name), because a linter must agree with nginx, not with the RFCs.
//
// # listen: a grammar of record and a fast path
//
// The listen argument language is defined by a participle grammar
// (ParseListenGrammar, printable with ListenGrammarEBNF). A participle
// parse costs tens of microseconds, too slow to run on every listen of a
// large configuration, so ParseListen first tries a hand-written fast path
// that covers the shapes real configurations use ("80", "127.0.0.1:80",
// "*:80", "[::]:443", followed by flags and simple name=value parameters)
// and falls back to the grammar for everything else, including every
// error. The two are kept identical by FuzzListenFastPath, which checks
// that whenever the fast path accepts an input its result equals the
// grammar's. (parser's model memoises listens by argument list, so
// configurations that repeat them parse each once.)
//
// server_name and location are simple enough that hand-written code is
// both the clearest definition and allocation-free.
package grammar
