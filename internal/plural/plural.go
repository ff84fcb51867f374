// Package plural words counts of things in English: "1 server",
// "2 servers", "3 addresses". Every report, chart, hover and model
// message that counts things says the count through it, so that one
// noun is never pluralised two ways.
package plural

import (
	"strconv"
	"strings"
)

// Integer is what can count things.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64
}

// Count words n things: "1 server", "2 servers", "0 addresses". noun is
// the singular; Noun forms the plural.
func Count[N Integer](n N, noun string) string {
	return strconv.FormatInt(int64(n), 10) + " " + Noun(n, noun)
}

// Noun is noun as said of n things: the singular for 1, else the plural,
// which adds "es" to a noun ending in s, x, z, ch or sh and "s" to any
// other ("address", "addresses"; "operation", "operations"). No noun
// nginx-lint counts is irregular; in a phrase the last word is the noun
// ("listening socket", "listening sockets").
func Noun[N Integer](n N, noun string) string {
	if n == 1 {
		return noun
	}
	for _, end := range []string{"s", "x", "z", "ch", "sh"} {
		if strings.HasSuffix(noun, end) {
			return noun + "es"
		}
	}
	return noun + "s"
}
