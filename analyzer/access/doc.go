// Package access computes who can reach a location: the clients an
// access list lets in, per address family, as nginx's access module
// decides (ngx_http_access_handler: the rules in order, the first that
// matches the client decides, and a client no rule matches is let in),
// with the location's authentication, satisfy and internal. A client set
// is "every client" when it holds more public addresses than a /8 of
// IPv4 or a /32 of IPv6.
//
// ReadLevel summarises one block (for analyzer.NewPerBlock), At merges
// the levels around a directive as nginx merges each setting apart, and
// Access.Exposure words how a family of clients gets in.
package access
