package directives

import (
	"fmt"
	"strings"
)

// Context is a set of nginx configuration contexts: the blocks a
// directive may appear in. Each context is one bit, so a directive's
// allowed contexts fit in one value and a membership test is a mask, the
// same way nginx keeps them in ngx_command_t.type.
//
// The bit order follows the context vocabulary of the data README and is
// also the order String writes words in.
type Context uint32

// The contexts of the data README's vocabulary, one bit each.
const (
	// Main is the top level of nginx.conf (NGX_MAIN_CONF).
	Main Context = 1 << iota
	// Events is inside events {} (NGX_EVENT_CONF).
	Events
	// HTTP is inside http {} (NGX_HTTP_MAIN_CONF).
	HTTP
	// Server is inside server {} within http (NGX_HTTP_SRV_CONF).
	Server
	// Location is inside location {}, nested or not (NGX_HTTP_LOC_CONF).
	Location
	// IfInServer is inside an if {} directly in an http server (NGX_HTTP_SIF_CONF).
	IfInServer
	// IfInLocation is inside an if {} within a location (NGX_HTTP_LIF_CONF).
	IfInLocation
	// LimitExcept is inside limit_except {} (NGX_HTTP_LMT_CONF).
	LimitExcept
	// Upstream is inside upstream {} within http (NGX_HTTP_UPS_CONF).
	Upstream
	// Stream is inside stream {} (NGX_STREAM_MAIN_CONF).
	Stream
	// StreamServer is inside server {} within stream (NGX_STREAM_SRV_CONF).
	StreamServer
	// StreamUpstream is inside upstream {} within stream (NGX_STREAM_UPS_CONF).
	StreamUpstream
	// Mail is inside mail {} (NGX_MAIL_MAIN_CONF).
	Mail
	// MailServer is inside server {} within mail (NGX_MAIL_SRV_CONF).
	MailServer
	// Any marks a directive allowed everywhere (NGX_ANY_CONF; only
	// include). It is a property of a directive, never a block the
	// linter is in; see Directive.AllowedIn.
	Any
	// Map is inside an http map {}; only its block-param keywords have rows.
	Map
	// Geo is inside an http geo {}; only its block-param keywords have rows.
	Geo
	// StreamMap is inside a stream map {}; only its block-param keywords have rows.
	StreamMap
	// StreamGeo is inside a stream geo {}; only its block-param keywords have rows.
	StreamGeo
	// AcmeIssuer is inside acme_issuer {} (nginx-acme).
	AcmeIssuer
	// OIDCProvider is inside oidc_provider {} (NGINX Plus).
	OIDCProvider
	// Mgmt is inside mgmt {} (NGINX Plus).
	Mgmt

	// numContexts counts the bits above; keep it last.
	numContexts = iota
)

// contextWords holds the data's word for each bit, indexed by bit number.
var contextWords = [numContexts]string{
	"main", "events", "http", "server", "location", "if-in-server",
	"if-in-location", "limit_except", "upstream", "stream", "stream-server",
	"stream-upstream", "mail", "mail-server", "any", "map", "geo",
	"stream-map", "stream-geo", "acme_issuer", "oidc_provider", "mgmt",
}

// StreamContexts is every context inside stream {}: its variables are
// another namespace than http's, and several checks differ there.
const StreamContexts = Stream | StreamServer | StreamUpstream | StreamMap | StreamGeo

// blockParamContexts are the map and geo bodies. Their lines are read by
// the map/geo handler rather than dispatched through ngx_command_t, so an
// Any directive is not valid there merely by being Any.
const blockParamContexts = Map | Geo | StreamMap | StreamGeo

// String returns the data's words for the contexts in c, comma-separated
// in bit order ("http,server,location"), or "" for the empty set. Bits
// outside the vocabulary are written as one hex value at the end so that
// they are visible rather than dropped.
func (c Context) String() string {
	var b strings.Builder
	for i, w := range contextWords {
		if c&(1<<i) != 0 {
			if b.Len() > 0 {
				b.WriteByte(',')
			}
			b.WriteString(w)
		}
	}
	if rest := c &^ (1<<numContexts - 1); rest != 0 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%#x", uint32(rest))
	}
	return b.String()
}

// Has reports whether c contains every context in x.
func (c Context) Has(x Context) bool { return c&x == x }

// ParseContext returns the context named by one word of the data's
// vocabulary ("if-in-location"), and false for any other word.
func ParseContext(word string) (Context, bool) {
	for i, w := range contextWords {
		if w == word {
			return 1 << i, true
		}
	}
	return 0, false
}

// ParseContexts parses a comma-separated list of context words, as found
// in the data's contexts column. An empty string is the empty set.
func ParseContexts(list string) (Context, error) {
	var c Context
	if list == "" {
		return 0, nil
	}
	for _, w := range strings.Split(list, ",") {
		x, ok := ParseContext(w)
		if !ok {
			return 0, fmt.Errorf("directives: unknown context %q", w)
		}
		c |= x
	}
	return c, nil
}

// DataBlock reports whether ctx is unknown or the body of a map or geo,
// whose lines are data entries rather than directives: the rules about
// directives leave them alone.
func DataBlock(ctx Context) bool {
	return ctx == 0 || ctx&(Map|Geo|StreamMap|StreamGeo) != 0
}
