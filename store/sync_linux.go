package store

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// fdatasync syncs the data of the file or directory at path; one that is
// gone (a flushed memtable's log) needs nothing.
func fdatasync(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return errors.Join(unix.Fdatasync(int(f.Fd())), f.Close())
}
