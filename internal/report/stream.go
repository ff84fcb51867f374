package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// jsonStream writes v as json.Encoder does with SetIndent("", "  ") (and
// escapeHTML), except that the array under key, which v holds empty
// ("key": []), gets the n values elem returns, each encoded and written in
// turn: an output of a hundred thousand findings is not built in memory
// first (a SARIF report built whole took four times the memory of the
// text output). depth is the indentation level of the line holding key;
// an empty key means v is the array itself (depth 0). The bytes are
// those of encoding v with the elements in it.
func jsonStream(w io.Writer, v any, key string, depth, n int, elem func(i int) any, escapeHTML bool) error {
	var doc bytes.Buffer
	enc := json.NewEncoder(&doc)
	enc.SetEscapeHTML(escapeHTML)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	b := doc.Bytes()
	if n == 0 {
		_, err := w.Write(b)
		return err
	}
	// The empty array, where it opens: a line break and the indentation
	// are not in any JSON string (they are escaped there), so the match
	// is the array itself.
	at := 0
	if key != "" {
		open := "\n" + strings.Repeat("  ", depth) + `"` + key + `": []`
		at = bytes.Index(b, []byte(open))
		if at < 0 {
			return fmt.Errorf("json output: no empty %q array", key)
		}
		at += len(open) - 1
	} else if !bytes.HasPrefix(b, []byte("[]")) {
		return fmt.Errorf("json output: not an empty array")
	} else {
		at = 1
	}
	bw := bufio.NewWriter(w)
	bw.Write(b[:at])
	indent := strings.Repeat("  ", depth+1)
	var el bytes.Buffer
	ee := json.NewEncoder(&el)
	ee.SetEscapeHTML(escapeHTML)
	ee.SetIndent(indent, "  ")
	for i := range n {
		el.Reset()
		if err := ee.Encode(elem(i)); err != nil {
			return err
		}
		bw.WriteString("\n" + indent)
		bw.Write(bytes.TrimSuffix(el.Bytes(), []byte("\n")))
		if i < n-1 {
			bw.WriteByte(',')
		}
	}
	bw.WriteString("\n" + strings.Repeat("  ", depth))
	bw.Write(b[at:])
	return bw.Flush()
}
