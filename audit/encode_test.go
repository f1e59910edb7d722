package audit

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// FuzzEntry: every value decodes without panicking, and every entry comes
// back from its encoding exactly.
func FuzzEntry(f *testing.F) {
	f.Add(int64(1_795_000_000_000_000_000), "AU-01M8DAQ3RXGJE4NSEXJ7JE12KD", "User writer (writer)", "SUPERSEDED", "F-01M8DAQ3RVDW9JVBE5M6BD950X", "fact", "F-01M8DAQ3RXGJE4NSEXJ7DRSZ36", "CHANGE (EXPLICIT_WRITE)", []byte(nil))
	f.Add(int64(0), "", "", "", "", "", "", "", []byte{entryBinary, 0x80})
	f.Add(int64(-1), "x", "é", "A", "r", "k", "", "", []byte(`{"id":"AU-1","at":"2026-01-02T03:04:05Z","record":"F-1"}`))
	f.Fuzz(func(t *testing.T, at int64, id, actor, action, record, kind, by, detail string, raw []byte) {
		tm := time.Unix(0, at).UTC()
		_, _ = decodeEntry(tm, id, raw) // must not panic
		e := Entry{ID: id, At: tm, Actor: actor, Action: action, Record: record, Kind: kind, By: by, Detail: detail}
		got, err := decodeEntry(tm, id, appendEntry(nil, e))
		if err != nil || !reflect.DeepEqual(got, e) {
			t.Fatalf("decode(encode(%+v)) = %+v, %v", e, got, err)
		}
	})
}

// TestEntryEncoding: an entry stores less than half its JSON, and entries
// written as JSON by earlier versions read the same.
func TestEntryEncoding(t *testing.T) {
	at := time.Date(2026, 11, 27, 1, 43, 0, 637_470_372, time.UTC)
	cases := []Entry{
		{ID: "AU-01M8DAQ3RXGJE4NSEXJ7JE12KD", At: at, Actor: "User writer (writer)", Action: "WRITTEN", Record: "F-01M8DAQ3RXGJE4NSEXJ7DRSZ36", Kind: "fact"},
		{ID: "AU-01M8DAQ3RXGJE4NSEXJ9BM7KWP", At: at, Actor: "User writer (writer)", Action: "SUPERSEDED", Record: "F-01M8DAQ3RVDW9JVBE5M6BD950X", Kind: "fact", By: "F-01M8DAQ3RXGJE4NSEXJ7DRSZ36", Detail: "CHANGE (EXPLICIT_WRITE)"},
	}
	for _, e := range cases {
		old, err := json.Marshal(e) // as versions before the binary encoding wrote it
		if err != nil {
			t.Fatal(err)
		}
		b := appendEntry(nil, e)
		if 2*len(b) > len(old) {
			t.Errorf("%s: %d bytes, its JSON %d", e.Action, len(b), len(old))
		}
		for _, v := range [][]byte{b, old} {
			if got, err := decodeEntry(at, e.ID, v); err != nil || !reflect.DeepEqual(got, e) {
				t.Errorf("decode(%q) = %+v, %v; want %+v", v, got, err, e)
			}
		}
	}
	for _, bad := range [][]byte{nil, {0x02}, {entryBinary}, {entryBinary, 5, 'a'}, {'{'}} {
		if got, err := decodeEntry(at, "AU-1", bad); err == nil {
			t.Errorf("decode(%x) = %+v, want an error", bad, got)
		}
	}
}
