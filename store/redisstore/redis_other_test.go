//go:build !linux

package redisstore

import "os/exec"

func setPdeathsig(*exec.Cmd) {}
