// Package routing models what nginx does with an http request: which
// server block takes it, which location handles it, through which
// rewrites and internal redirects, and what answers.
//
// It follows nginx 1.22 to 1.31, which do not differ here, and is
// checked against the real nginx on loopback (nginx_test.go,
// nginx_route_test.go, nginx_mixed_test.go), on generated
// configurations and on the corpus's, nginx's own tests among them
// (nginx_corpus_test.go).
//
// # Servers
//
// Table picks the server by the local address and port the connection
// arrived on, then by the Host header (or the TLS SNI name) among the
// servers listening there. ngx_http_add_addresses and
// ngx_http_optimize_servers group the listens of every port by address
// (a wildcard address serves the port's other addresses only when they
// are not listed at all: a listed address has its own list of servers,
// wherever its socket is); ngx_http_server_names builds each address's
// name tables; ngx_http_find_virtual_server looks a host up in them:
// exact names, then the longest "*.domain" (or ".domain") match, then
// "head.*", then the regular expressions in the order they were
// written, and otherwise the address's default server (the first
// listen marked default_server there, else the first server that
// listens there). A request without Host never reaches the tables. The
// grouping is the cost model's (costmodel.Result.Ports), so the two
// cannot disagree about which listens share an address. Compare and
// Equivalent prove the optimizer's rewrites at this level.
//
// It is the one model of which server answers on an address: Addresses
// and Problems replay the listens of every address as
// ngx_http_add_addresses and ngx_http_add_server do (for http and, since
// nginx 1.25.5 shapes it alike, stream): the servers, the default one,
// and what nginx refuses or warns about (a duplicate listen, duplicate
// socket options, a second default_server, protocol options redefined);
// Address.Names files the server names in nginx's hash (Names) and lists
// the ones it refuses. The lint rules read these (duplicate-listen,
// duplicate-default-server, implicit-default-server,
// conflicting-server-name, ssl-certificate-missing), which allocate
// nothing per address; Build makes the Table from the same replay and
// the same Names.
//
// # Requests
//
// Model adds, for each server, its locations as nginx arranges them
// (ngx_http_init_locations, ngx_http_init_static_location_trees: the
// exact and prefix locations in a search tree keyed by
// ngx_filename_cmp's order, the regexes in the order written) and the
// rest of a request's way: the URI as ngx_http_parse_complex_uri
// normalizes it (ParseTarget), the location search of
// ngx_http_core_find_location (Location.Find), the server's and the
// location's rewrite programs (rewrite, return, set, if, break), access
// (allow, deny, auth_basic), try_files, the content handler (the *_pass
// directives, index, autoindex, static files) and error_page, with up
// to NGX_HTTP_MAX_URI_CHANGES URI changes. Route answers one
// HTTPRequest with an Answer: the server, the location, the chain of
// Steps, the Handler, the status, and what the model could not tell
// (Unsure). Nothing is guessed: a variable it cannot evaluate, a regex
// Go cannot run as PCRE does, a module's handler stop the request with
// HandlerUnknown and the reason; files are looked up on this machine
// only under a root that exists here, and otherwise taken as missing,
// which the answer says.
//
// Probes and Diff compare two configurations by what they do with
// requests (nginx-lint diff); the optimizer proves its rewrites with
// them (FirstChange).
//
// # Sets of requests
//
// Sets answers questions about every URI at once, for the rules and the
// editor: which locations no URI reaches (Unreachable), URIs that reach
// one (Examples), a URI of a prefix that another location takes
// (Elsewhere), rewrite loops (Loops), whether earlier regexes match
// every subject of a later one (Includes). Each set of URIs is a
// deterministic automaton over bytes made on the fly (analyzer/regex's
// Automaton: a regex's from its Thompson NFA, with PCRE's "$"), and a
// question is a bounded search of a product of them (regex.Search) that
// says unsure rather than guess.
// Reader reads one server's locations without the address tables, for
// the rules, which ask about one server at a time.
//
// Regexes run with analyzer/regex (Compile, Match, Example) and values
// with variables are read with analyzer/script's scanner (Script), the
// engines the rules read them with.
package routing
