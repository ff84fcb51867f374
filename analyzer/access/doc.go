// Package access computes who gets through the access phase of a place
// as nginx runs it (ngx_http_core_access_phase): the allow/deny list as
// ngx_http_access_handler reads it (ParseRule: the rules in order, the
// first that matches the client decides, and a client no rule matches is
// declined), the authentication modules (auth_basic only with its user
// file, auth_request, ...), satisfy all or any, and internal, each merged
// from its nearest level as its module's merge function does. A client
// set is "every client" when it holds more public addresses than a /8 of
// IPv4 or a /32 of IPv6.
//
// ReadLevel summarises one block (for analyzer.NewPerBlock), At merges
// the levels around a directive into the Phase in force, and
// Phase.Exposure words how a family of clients gets in; the request
// model of analyzer/routing reads the same rules (ParseRule) for one
// client.
package access
