package parser

import (
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Range is a half-open byte range [Start, End) in a file's source.
// Byte offsets are the truth; lines and columns are derived from them
// through the file's line index, so edits never leave stale positions.
//
// Offsets are 32-bit: a file is at most MaxSourceSize bytes, and a big
// configuration holds millions of ranges (two in every word), so the
// halved size is a large part of the parse tree's memory.
type Range struct {
	Start, End int32
}

// Len returns the number of bytes in r.
func (r Range) Len() int { return int(r.End - r.Start) }

// Contains reports whether offset off lies inside r.
func (r Range) Contains(off int) bool { return off >= int(r.Start) && off < int(r.End) }

// Position is a derived, human-facing location: 1-based line, 1-based
// byte column and the byte offset it came from.
type Position struct {
	Line   int
	Column int
	Offset int
}

// lineIndex holds the offset at which every line starts (32-bit, as
// Range).
type lineIndex []int32

// lineIndex returns f's line index, building it on first use.
func (f *File) lineIndex() lineIndex {
	f.linesOnce.Do(func() {
		li := make(lineIndex, 1, strings.Count(f.Src, "\n")+1)
		for i := 0; ; {
			j := strings.IndexByte(f.Src[i:], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			li = append(li, int32(i))
		}
		f.lines = li
	})
	return f.lines
}

// position converts a byte offset into a line and byte column.
func (li lineIndex) position(off int) Position {
	if len(li) == 0 {
		return Position{Line: 1, Column: off + 1, Offset: off}
	}
	// The last line start that is <= off.
	i := sort.Search(len(li), func(i int) bool { return int(li[i]) > off }) - 1
	if i < 0 {
		i = 0
	}
	return Position{Line: i + 1, Column: off - int(li[i]) + 1, Offset: off}
}

// Position returns the line and column of a byte offset in f.
func (f *File) Position(off int) Position {
	if off > len(f.Src) {
		off = len(f.Src)
	}
	if off < 0 {
		off = 0
	}
	return f.lineIndex().position(off)
}

// Line returns the 1-based line number of a byte offset in f.
func (f *File) Line(off int) int { return f.Position(off).Line }

// LineCount returns the number of lines in f (a final line without a
// newline counts; an empty file has one line).
func (f *File) LineCount() int { return len(f.lineIndex()) }

// LineText returns the text of the 1-based line n without its line ending.
func (f *File) LineText(n int) string {
	lines := f.lineIndex()
	if n < 1 || n > len(lines) {
		return ""
	}
	start := int(lines[n-1])
	end := len(f.Src)
	if n < len(lines) {
		end = int(lines[n]) - 1
	}
	if end > start && f.Src[end-1] == '\r' {
		end--
	}
	if end < start {
		end = start
	}
	return f.Src[start:end]
}

// Offset converts a 1-based line and byte column into a byte offset,
// clamping to the file.
func (f *File) Offset(line, col int) int {
	if line < 1 {
		return 0
	}
	lines := f.lineIndex()
	if line > len(lines) {
		return len(f.Src)
	}
	start := int(lines[line-1])
	off := start + col - 1
	if off > len(f.Src) {
		off = len(f.Src)
	}
	if off < start {
		off = start
	}
	return off
}

// UTF16Column returns the 0-based column of off counted in UTF-16 code
// units, the unit the language server protocol uses by default. Invalid
// UTF-8 bytes count as one unit each, as editors show them as U+FFFD.
func (f *File) UTF16Column(off int) int {
	p := f.Position(off)
	start := p.Offset - (p.Column - 1)
	n := 0
	for s := f.Src[start:p.Offset]; len(s) > 0; {
		r, size := utf8.DecodeRuneInString(s)
		n += utf16.RuneLen(r) // an invalid byte decodes to U+FFFD: one unit
		s = s[size:]
	}
	return n
}

// OffsetUTF16 converts a 0-based line and a 0-based UTF-16 column (LSP
// positions) into a byte offset, clamping to the line.
func (f *File) OffsetUTF16(line, col int) int {
	if line < 0 {
		return 0
	}
	lines := f.lineIndex()
	if line >= len(lines) {
		return len(f.Src)
	}
	off := int(lines[line])
	end := len(f.Src)
	if line+1 < len(lines) {
		end = int(lines[line+1]) - 1
	}
	for n := 0; n < col && off < end; {
		r, size := utf8.DecodeRuneInString(f.Src[off:end])
		n += utf16.RuneLen(r)
		off += size
	}
	return off
}

// rng makes the Range [start, end) from offsets into a source of at most
// MaxSourceSize bytes, which fit in 32 bits.
func rng(start, end int) Range { return Range{int32(start), int32(end)} }

// Span is the range from byte offset start to end, for callers that
// compute offsets as ints (a file is at most MaxSourceSize bytes, so they
// fit).
func Span(start, end int) Range { return rng(start, end) }
