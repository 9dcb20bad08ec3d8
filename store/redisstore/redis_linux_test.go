package redisstore

import (
	"os/exec"
	"syscall"
)

// setPdeathsig makes the kernel kill cmd when the test process dies, so
// that a test binary that is killed leaves no redis-server behind.
func setPdeathsig(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
