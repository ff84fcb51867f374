//go:build !unix

package main

import "os"

// terminalWidth is 0 (unknown) where the width is not asked for: text is
// wrapped at $COLUMNS or 80.
func terminalWidth(*os.File) int { return 0 }
