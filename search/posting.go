package search

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/stategraph/stategraph/temporal"
)

// Posting values.
//
// Every posting's value is what a view of the past needs to decide whether
// its fact holds (histValue); the current view reads keys only. A posting
// is written for every term of every fact, so the value is kept small:
//
//   - empty: the fact is valid from when it was recorded (the time in the
//     key), with no end and no read class, which is what almost every live
//     posting says;
//   - postingBinary, a flags byte, then in this order the times the flags
//     name (temporal.AppendKey, 12 bytes each) and the class (a uvarint
//     length and its bytes);
//   - JSON (an object, so it starts with '{'): how postings were written
//     before, still read.

// postingBinary opens a binary posting value; JSON opens with '{'.
const postingBinary = 0x01

// Flags of a binary posting value.
const (
	pvValidFrom    = 1 << iota // valid from, when it is not the recorded time
	pvValidTo                  // valid to
	pvSuperseded               // superseded at, when it is not valid to
	pvSupersededTo             // superseded at valid to (no time stored)
	pvClass                    // the read class
	pvAll          = pvValidFrom | pvValidTo | pvSuperseded | pvSupersededTo | pvClass
)

// appendPostingValue appends the value of a posting of a fact recorded at
// rec whose times and class are hv; it appends nothing for a fact valid
// from rec, open-ended and unrestricted.
func appendPostingValue(b []byte, rec time.Time, hv histValue) []byte {
	var flags byte
	if !hv.ValidFrom.Equal(rec) {
		flags |= pvValidFrom
	}
	if hv.ValidTo != nil {
		flags |= pvValidTo
	}
	if hv.SupersededAt != nil {
		if hv.ValidTo != nil && hv.SupersededAt.Equal(*hv.ValidTo) {
			flags |= pvSupersededTo
		} else {
			flags |= pvSuperseded
		}
	}
	if hv.Class != "" {
		flags |= pvClass
	}
	if flags == 0 {
		return b
	}
	b = append(b, postingBinary, flags)
	if flags&pvValidFrom != 0 {
		b = temporal.AppendKey(b, hv.ValidFrom)
	}
	if flags&pvValidTo != 0 {
		b = temporal.AppendKey(b, *hv.ValidTo)
	}
	if flags&pvSuperseded != 0 {
		b = temporal.AppendKey(b, *hv.SupersededAt)
	}
	if flags&pvClass != 0 {
		b = binary.AppendUvarint(b, uint64(len(hv.Class)))
		b = append(b, hv.Class...)
	}
	return b
}

// errPostingValue is returned for a posting value no version wrote.
var errPostingValue = errors.New("search: malformed posting value")

// decodePostingValue reads the value b of a posting of a fact recorded at
// rec, in any of its encodings.
func decodePostingValue(rec time.Time, b []byte) (histValue, error) {
	switch {
	case len(b) == 0:
		return histValue{ValidFrom: rec}, nil
	case b[0] == '{':
		var hv histValue
		if err := json.Unmarshal(b, &hv); err != nil {
			return histValue{}, fmt.Errorf("%w: %w", errPostingValue, err)
		}
		return hv, nil
	case b[0] != postingBinary || len(b) < 2 || b[1]&^pvAll != 0 || b[1] == 0 ||
		b[1]&(pvSuperseded|pvSupersededTo) == pvSuperseded|pvSupersededTo ||
		(b[1]&pvSupersededTo != 0 && b[1]&pvValidTo == 0):
		return histValue{}, errPostingValue
	}
	flags, b := b[1], b[2:]
	next := func() (time.Time, error) {
		t, err := temporal.DecodeKey(b)
		if err != nil {
			return time.Time{}, errPostingValue
		}
		b = b[temporal.KeyLen:]
		return t, nil
	}
	hv := histValue{ValidFrom: rec}
	var err error
	if flags&pvValidFrom != 0 {
		if hv.ValidFrom, err = next(); err != nil {
			return histValue{}, err
		}
	}
	if flags&pvValidTo != 0 {
		t, err := next()
		if err != nil {
			return histValue{}, err
		}
		hv.ValidTo = &t
		if flags&pvSupersededTo != 0 {
			s := t
			hv.SupersededAt = &s
		}
	}
	if flags&pvSuperseded != 0 {
		t, err := next()
		if err != nil {
			return histValue{}, err
		}
		hv.SupersededAt = &t
	}
	if flags&pvClass != 0 {
		n, k := binary.Uvarint(b)
		if k <= 0 || n == 0 || n > uint64(len(b)-k) {
			return histValue{}, errPostingValue
		}
		hv.Class, b = string(b[k:k+int(n)]), b[k+int(n):]
	}
	if len(b) != 0 {
		return histValue{}, errPostingValue
	}
	return hv, nil
}
