//go:build !js && !wasip1

package parser

import "syscall"

// openFlags are added to O_RDONLY when a configuration file or a named
// pipe is opened: never wait for a writer (O_NONBLOCK) and never become
// the controlling terminal (O_NOCTTY).
const openFlags = syscall.O_NONBLOCK | syscall.O_NOCTTY
