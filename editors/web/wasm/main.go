//go:build js && wasm

// Command wasm is nginx-lint's core for the browser page (editors/web):
// built with GOOS=js GOARCH=wasm, it sets globalThis.nginxLint.call(name,
// request) to internal/playground's Call, JSON in and JSON out, and then
// waits for calls. The files it reads are the page's in-memory file
// system (editors/web/src/memfs.js), installed as globalThis.fs before it
// starts; it has no other file system and no network.
package main

import (
	"syscall/js"

	"github.com/nginx-lint/nginx-lint/internal/playground"
)

func main() {
	s := playground.NewSession()
	call := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 2 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString {
			return `{"error":"call(name, request): two strings"}`
		}
		return string(s.Call(args[0].String(), []byte(args[1].String())))
	})
	api := js.Global().Get("Object").New()
	api.Set("call", call)
	js.Global().Set("nginxLint", api)
	if ready := js.Global().Get("nginxLintReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {} // the calls run on the page's (the worker's) thread
}
