package temporal

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"
)

// The representable range of every time the service accepts: any instant
// of the years 0001 to 9999, UTC. Inputs outside it are refused with
// ErrOutOfRange before anything is written.
var (
	Min = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	Max = time.Date(9999, 12, 31, 23, 59, 59, 999_999_999, time.UTC)
)

// ErrOutOfRange is returned by Check for a time outside [Min, Max].
var ErrOutOfRange = errors.New("temporal: time outside 0001-01-01T00:00:00Z..9999-12-31T23:59:59.999999999Z")

// Check returns ErrOutOfRange (wrapped, naming t) when t is outside
// [Min, Max], nil otherwise.
func Check(t time.Time) error {
	if t.Before(Min) || t.After(Max) {
		return fmt.Errorf("%w: %s", ErrOutOfRange, t.UTC().Format(time.RFC3339Nano))
	}
	return nil
}

// KeyLen is the length of an encoded time (AppendKey).
const KeyLen = 12

// unixToYear1 is the number of seconds from 0001-01-01T00:00:00Z to the
// Unix epoch.
const unixToYear1 = 62_135_596_800

// AppendKey appends the fixed-width, order-preserving encoding of t to b:
// 8 bytes of whole seconds since 0001-01-01T00:00:00Z, big-endian with the
// sign bit flipped, then 4 bytes of nanoseconds, big-endian. Byte order is
// time order for every time.Time (not only those in [Min, Max]: earlier
// and later instants encode too, so a stored value never breaks a read),
// and DecodeKey gives t back exactly, in UTC.
//
// This is the one time encoding of the on-disk format; store's keys use it.
func AppendKey(b []byte, t time.Time) []byte {
	// Unix() may wrap for instants far outside [Min, Max]; adding the
	// constant back wraps the same way, giving the seconds since year 1.
	sec := uint64(t.Unix() + unixToYear1)
	b = binary.BigEndian.AppendUint64(b, sec^(1<<63))
	return binary.BigEndian.AppendUint32(b, uint32(t.Nanosecond()))
}

// ErrBadKey is returned by DecodeKey for bytes AppendKey cannot have
// written.
var ErrBadKey = errors.New("temporal: malformed time key")

// DecodeKey reads a time written by AppendKey from the first KeyLen bytes
// of b.
func DecodeKey(b []byte) (time.Time, error) {
	if len(b) < KeyLen {
		return time.Time{}, ErrBadKey
	}
	sec := int64(binary.BigEndian.Uint64(b)^(1<<63)) - unixToYear1
	ns := binary.BigEndian.Uint32(b[8:])
	if ns >= 1e9 {
		return time.Time{}, ErrBadKey
	}
	return time.Unix(sec, int64(ns)).UTC(), nil
}
