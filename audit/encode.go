package audit

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Entry values.
//
// An entry is written with every fact write and supersession, so its value
// is kept small: entryBinary, then Actor, Action, Record, Kind, By and
// Detail, each a uvarint length and its bytes. The ID and the time are the
// key's (at, id) and are not stored again. Entries written before this
// encoding are JSON objects (they start with '{') and still read.

// entryBinary opens a binary entry value; JSON opens with '{'.
const entryBinary = 0x01

// appendEntry appends the value of e to b.
func appendEntry(b []byte, e Entry) []byte {
	b = append(b, entryBinary)
	for _, s := range [...]string{e.Actor, e.Action, e.Record, e.Kind, e.By, e.Detail} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

// errEntry is returned for an entry value no version wrote.
var errEntry = errors.New("audit: malformed entry")

// decodeEntry reads the value b of the entry keyed (at, id), in either
// encoding.
func decodeEntry(at time.Time, id string, b []byte) (Entry, error) {
	if len(b) > 0 && b[0] == '{' {
		var e Entry
		if err := json.Unmarshal(b, &e); err != nil {
			return Entry{}, fmt.Errorf("%w: %w", errEntry, err)
		}
		return e, nil
	}
	if len(b) == 0 || b[0] != entryBinary {
		return Entry{}, errEntry
	}
	b = b[1:]
	e := Entry{ID: id, At: at}
	for _, s := range [...]*string{&e.Actor, &e.Action, &e.Record, &e.Kind, &e.By, &e.Detail} {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return Entry{}, errEntry
		}
		*s, b = string(b[k:k+int(n)]), b[k+int(n):]
	}
	if len(b) != 0 {
		return Entry{}, errEntry
	}
	return e, nil
}
