//go:build js || wasip1

package parser

// openFlags are none on WebAssembly: the browser's build reads no file
// system (it is given the files' text), and js/wasm's syscall has neither
// O_NONBLOCK nor O_NOCTTY.
const openFlags = 0
