package store

import (
	"os"

	"golang.org/x/sys/unix"
)

// syncFile flushes f's data (not its unchanged metadata): fdatasync.
func syncFile(f *os.File) error { return unix.Fdatasync(int(f.Fd())) }
