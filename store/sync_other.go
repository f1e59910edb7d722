//go:build !linux

package store

import (
	"errors"
	"os"
	"runtime"
)

// fdatasync syncs the file or directory at path with the platform's full
// sync (os.File.Sync); one that is gone (a flushed memtable's log) needs
// nothing. Windows cannot sync a directory: its entries are durable with
// the files.
func fdatasync(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if st, err := f.Stat(); err == nil && st.IsDir() && runtime.GOOS == "windows" {
		return f.Close()
	}
	return errors.Join(f.Sync(), f.Close())
}
