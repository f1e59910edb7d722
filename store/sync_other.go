//go:build !linux

package store

import (
	"os"
	"runtime"
)

// syncFile flushes f with the platform's full sync (os.File.Sync).
// Windows cannot sync a directory: its entries are durable with the files.
func syncFile(f *os.File) error {
	if st, err := f.Stat(); err == nil && st.IsDir() && runtime.GOOS == "windows" {
		return nil
	}
	return f.Sync()
}
