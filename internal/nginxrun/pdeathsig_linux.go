package nginxrun

import (
	"os/exec"
	"syscall"
)

// setParentDeathSignal makes the kernel send the nginx master SIGTERM if
// the test process dies without calling Stop, so no nginx outlives the
// run that started it. Go ties this to the thread that forked, which in
// a test binary lives as long as the process.
func setParentDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
