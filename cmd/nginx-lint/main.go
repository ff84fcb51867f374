// Command nginx-lint lints nginx configurations.
//
// Usage:
//
//	nginx-lint [flags] [PATH...]        lint (the default command)
//	nginx-lint parse --format crossplane FILE
//
// Run "nginx-lint --help" for every flag. Exit codes: 0 clean, 1 findings at
// or above --fail-level, 2 unreadable input or internal error, 3 usage error.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
