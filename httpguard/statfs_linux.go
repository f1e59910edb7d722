package httpguard

import (
	"fmt"
	"syscall"
)

// FreeBytes is the production Probe: the bytes of dir's file system available
// to unprivileged users (statfs f_bavail × f_bsize).
func FreeBytes(dir string) (uint64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, fmt.Errorf("statfs %s: %w", dir, err)
	}
	return st.Bavail * uint64(st.Bsize), nil
}
