//go:build unix

package nginxrun

import (
	"os"
	"os/exec"
	"slices"
	"testing"
)

func TestChildrenOf(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("skipping: no /proc")
	}
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skip("skipping: cannot run sleep:", err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	kids, err := childrenOf(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(kids, cmd.Process.Pid) {
		t.Errorf("children %v lack %d", kids, cmd.Process.Pid)
	}
}
