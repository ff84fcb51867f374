// Package parser reads nginx configuration files the way nginx does.
//
// The tokenizer follows ngx_conf_read_token (src/core/ngx_conf_file.c):
// whitespace separates words, ";" "{" "}" stand alone, "#" starts a comment
// only at the start of a word, quotes group words and may span lines, and
// a backslash escapes the next character. The block builder on top of it
// never stops at an error: it reports nginx's message at nginx's line and
// resumes at the next ";" or matching "}", so a tree is always returned.
//
// Byte offsets are the truth for positions; lines, byte columns and UTF-16
// columns (for the language server) are derived from each File's line
// index. Every File keeps its source text, so a printer can reproduce it
// byte for byte.
//
// A Loader resolves "include" directives against nginx's prefix, reads
// files through a FileSystem that can lay unsaved editor buffers over the
// disk, parses each file once, and reports missing files and cycles.
package parser
