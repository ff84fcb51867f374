package grammar

import "github.com/nginx-lint/nginx-lint/internal/ngxparse"

// Atoi is nginx's ngx_atoi: decimal digits only, no sign, no overflow.
// Validators of other directives use it so that they accept exactly the
// numbers nginx accepts.
func Atoi(s string) (int, bool) { return ngxparse.Atoi(s) }

// ParseTimeSec is nginx's ngx_parse_time(s, 1): a time in seconds such as
// "30", "1m30s" or "2h", units in decreasing order, no milliseconds.
func ParseTimeSec(s string) (int, bool) { return ngxparse.ParseTime(s, true) }

// ParseSize is nginx's ngx_parse_size: a number of bytes with an optional
// k/K or m/M suffix.
func ParseSize(s string) (int, bool) { return ngxparse.ParseSize(s) }
