//go:build unix && !linux

package nginxrun

import "os/exec"

// setParentDeathSignal does nothing outside Linux, which alone has a
// parent-death signal; call Stop (for example from t.Cleanup).
func setParentDeathSignal(*exec.Cmd) {}
