package assertions

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// RecentTx returns, newest first, up to limit of the organization's
// assertions that exist in view v when the clock reads now (Assertion.In):
// those created by the view's instant, whatever their status there. It
// reads inside tx, in the caller's partition only.
func RecentTx(tx *store.Txn, v temporal.View, now time.Time, limit int) ([]Assertion, error) {
	if limit <= 0 {
		return nil, nil
	}
	out := make([]Assertion, 0, min(limit, recentBatch))
	err := scanRecent(tx, v, now, limit, func(a Assertion) bool {
		out = append(out, a.clone())
		return len(out) < limit
	})
	return out, err
}

// EachRecentTx calls fn, newest first, with up to limit of the
// organization's assertions that exist in view v when the clock reads now,
// as RecentTx returns them, until fn returns false. The Assertion fn gets
// shares its slices and pointers (Object, Refs, Tags, the times) with a
// cache of decoded records and other readers: fn must neither modify nor
// keep them (a reader that keeps an assertion keeps a copy it makes of
// what it needs). It spares a reader that maps each assertion to its own
// type, as context assembly does, the deep copy RecentTx makes.
func EachRecentTx(tx *store.Txn, v temporal.View, now time.Time, limit int, fn func(Assertion) bool) error {
	if limit <= 0 {
		return nil
	}
	n := 0
	return scanRecent(tx, v, now, limit, func(a Assertion) bool {
		n++
		return fn(a) && n < limit
	})
}

// recentBatch bounds the ids scanRecent reads from the time index before it
// loads their records.
const recentBatch = 512

// scanRecent calls fn, newest first, with the organization's assertions
// that exist in view v when the clock reads now, until fn returns false;
// want is how many fn is expected to take (ids are read from the time
// index in batches of about that many, within recentBatch). The
// Assertions fn gets share their slices and pointers with the decoded
// cache: fn copies what it keeps (Assertion.clone).
//
// The newest entries of the index, with their records, are remembered
// under the organization's assertion epoch (newestOf): a read of the
// current view begins with them, and reads the store only for what lies
// beyond them. Otherwise, the records of a batch are read with one scan
// of the assertion table over the batch's ids, in id order, rather than
// one lookup each: ids are made on the service clock, so the newest
// assertions' ids are close together in the table. When the scan meets
// too many records outside the batch (ids made otherwise), it stops, and
// the rest are looked up one by one. Either way each record is the one a
// lookup in tx would give.
func scanRecent(tx *store.Txn, v temporal.View, now time.Time, want int, fn func(Assertion) bool) error {
	sp := tx.Partition().Shared()
	batch := min(max(want, 1), recentBatch)
	start := store.Suffix(nil).Time(v.Instant(now))
	var after []byte // resume below this time-index key; nil: from start
	if v.Current() {
		l, err := newestOf(tx, sp, batch)
		if err != nil {
			return err
		}
		if l != nil {
			last, done := l.each(v, now, start, fn)
			if done {
				return nil
			}
			if last != "" {
				start, after = []byte(last), []byte(last)
			}
		}
	}
	for {
		all, ends, last, err := indexBatch(tx, sp, start, after, batch)
		if err != nil {
			return err
		}
		ids := idsOf(all, ends)
		buf := recentBufs.Get().(*recentBuf)
		recs, found, err := loadMany(tx, sp, ids, buf)
		stop := false
		for i := range ids {
			if err != nil || stop {
				break
			}
			if !found[i] {
				continue // gone, or not an assertion id (getTx)
			}
			if a, ok := recs[i].In(v, now); ok && !fn(a) {
				stop = true
			}
		}
		buf.release()
		if err != nil || stop {
			return err
		}
		if last == nil {
			return nil // the index is exhausted
		}
		// The next batch starts at the last key met, skipping it and
		// what sorts after it.
		start, after = last, last
	}
}

// each calls fn, newest first, with the assertions of l's entries that a
// reverse scan of the time index from start meets (those of start's time
// and before) and that exist in view v when the clock reads now, until fn
// returns false. done reports that nothing is left to read: fn stopped,
// or l holds the whole index. Otherwise last is the last entry met, from
// which the store is read on; "" when none was (every entry lies after
// start).
func (l *newestList) each(v temporal.View, now time.Time, start []byte, fn func(Assertion) bool) (last string, done bool) {
	for _, e := range l.entries {
		if e.suffix > string(start) && !strings.HasPrefix(e.suffix, string(start)) {
			continue // after the view's instant: a scan from start does not meet it
		}
		last = e.suffix
		if !e.found {
			continue // gone, or not an assertion id (getTx)
		}
		if a, ok := e.rec.In(v, now); ok && !fn(a) {
			return last, true
		}
	}
	return last, l.whole
}

// indexBatch reads, newest first, up to n suffixes of sp's time index: a
// reverse scan from start (nil: the end of the index), passing over those
// at or after after (nil: none). They are end to end in all (ends[i] is
// where the i-th ends), one string rather than one per suffix; last is
// the last one when n were met, nil when the index is exhausted.
func indexBatch(tx *store.Txn, sp tenancy.Space, start, after []byte, n int) (all string, ends []int, last []byte, err error) {
	tails := make([]byte, 0, n*48) // a time and an id: 12 + 29 bytes
	ends = make([]int, 0, n)
	err = tx.Scan(sp, store.TableAssertionTime, nil, store.ScanOptions{Reverse: true, KeysOnly: true, Start: start},
		func(suffix []byte, _ store.Item) (bool, error) {
			if after != nil && bytes.Compare(suffix, after) >= 0 {
				return true, nil // met by the batch before
			}
			r := store.NewReader(suffix)
			r.Time()
			if err := r.Err(); err != nil {
				return false, err
			}
			tails = append(tails, suffix...)
			ends = append(ends, len(tails))
			if len(ends) == n {
				last = append(last[:0], suffix...)
				return false, nil
			}
			return true, nil
		})
	if err != nil {
		return "", nil, nil, err
	}
	return string(tails), ends, last, nil
}

// idsOf returns the ids of the time-index suffixes end to end in all
// (indexBatch), substrings of all.
func idsOf(all string, ends []int) []string {
	ids := make([]string, len(ends))
	from := 0
	for i, end := range ends {
		ids[i] = store.AfterTime(all[from:end])
		from = end
	}
	return ids
}

// maxStray bounds the records outside a batch that loadMany's scan may
// pass over before it looks the rest up one by one.
const maxStray = 64

// recentBuf holds the records of a batch while scanRecent hands them out
// (as copies): a batch of 128 assertions is about 60 KB, allocated anew
// on every assembly otherwise.
type recentBuf struct {
	recs  []Assertion
	found []bool
}

var recentBufs = sync.Pool{New: func() any { return new(recentBuf) }}

// slices returns b's slices, of length n and zeroed.
func (b *recentBuf) slices(n int) ([]Assertion, []bool) {
	if cap(b.recs) < n {
		b.recs, b.found = make([]Assertion, n), make([]bool, n)
	}
	b.recs, b.found = b.recs[:n], b.found[:n]
	clear(b.found)
	return b.recs, b.found
}

// release zeroes b, so that it keeps no record, and returns it to the
// pool.
func (b *recentBuf) release() {
	clear(b.recs)
	clear(b.found)
	recentBufs.Put(b)
}

// loadMany returns the stored assertions ids, in the order of ids, and
// whether each was found: not when it has no record, or is not an id
// getTx would look up; in buf's slices. The records share their slices
// with the decoded cache.
func loadMany(tx *store.Txn, sp tenancy.Space, ids []string, buf *recentBuf) ([]Assertion, []bool, error) {
	out, found := buf.slices(len(ids))
	order := make([]int, 0, len(ids)) // indexes of ids to read, by id
	for i, id := range ids {
		if strings.HasPrefix(id, "ST-") && len(id) <= 64 {
			order = append(order, i)
		}
	}
	if len(order) == 0 {
		return out, found, nil
	}
	slices.SortFunc(order, func(x, y int) int { return strings.Compare(ids[x], ids[y]) })
	next, stray := 0, 0 // next: position in order of the next id to meet
	// decode decodes the record met into out[first]: one function for the
	// whole scan, not one allocated per record.
	first := 0
	decode := func(raw []byte) error {
		var err error
		out[first], err = decodeShared(raw)
		return err
	}
	// KeysOnly: the values wanted are read one by one, as the scan meets
	// them; prefetching would read every record passed (Badger starts a
	// goroutine per record to do it).
	err := tx.Scan(sp, store.TableAssertion, nil, store.ScanOptions{Start: []byte(ids[order[0]]), KeysOnly: true},
		func(suffix []byte, it store.Item) (bool, error) {
			for next < len(order) && ids[order[next]] < string(suffix) {
				next++ // no record: the scan passed it
			}
			if next == len(order) {
				return false, nil
			}
			if ids[order[next]] != string(suffix) {
				stray++
				return stray <= maxStray, nil
			}
			first = order[next]
			if err := it.Value(decode); err != nil {
				return false, err
			}
			// Equal ids in ids share the record.
			for ; next < len(order) && ids[order[next]] == string(suffix); next++ {
				out[order[next]], found[order[next]] = out[first], true
			}
			return next < len(order), nil
		})
	if err != nil {
		return nil, nil, err
	}
	if stray <= maxStray {
		return out, found, nil // every id was met or passed
	}
	for _, i := range order[next:] {
		raw, err := tx.GetRaw(sp, store.TableAssertion, store.Suffix(nil).Raw(ids[i]))
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		if out[i], err = decodeShared(raw); err != nil {
			return nil, nil, err
		}
		found[i] = true
	}
	return out, found, nil
}
