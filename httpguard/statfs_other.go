//go:build !linux

package httpguard

// FreeBytes is the production Probe. Outside Linux it returns ErrDiskUnknown,
// which DiskGuard treats as enough space.
func FreeBytes(string) (uint64, error) { return 0, ErrDiskUnknown }
