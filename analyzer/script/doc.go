// Package script reads nginx's scripts as nginx's configuration phase
// does: the arguments nginx compiles into variables, captures and text
// (ngx_http_script_compile, ngx_http_compile_complex_value, and
// log_format's ngx_http_log_compile_format).
//
// Tokens is the one scanner of "$name", "${name}" and "$1": the rules,
// the symbol table and the language server read a word with it, so that
// they agree with nginx and with each other ("$1abc" is capture 1 and the
// text "abc"; "$0" is the variable "0"). Split and HasVars are views of
// the same scan for the rules that follow values (taint, SSRF, URLs).
// Which arguments nginx compiles as scripts, and so which variables a
// configuration uses, is the symbol table's reading (symbols.ReadUses),
// beside what defines them.
package script
