package search

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/stategraph/stategraph/permissions"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// Statistics are kept per read class, so that a reader's BM25 statistics
// (and the count of what it may not read) come only from the documents it
// may read: a hidden document never changes a reader's scores, order or
// selection, whatever words it holds.
//
// A read class is a fact's read restriction: "" for none, else a digest of
// the restriction's JSON. In store.TableSearchStats, within a space:
//
//	Str(term).shard                     unrestricted document frequency
//	Str("").shard                       unrestricted document count, length
//	Str(classTerm(c, term)).shard       class c's document frequency
//	Str(classTerm(c, "")).shard         class c's document count, length
//	Str(classRegistry).Str(c)           class c's restriction (JSON)
//
// classTerm's and classRegistry's first bytes are control characters that
// lexical.Terms never yields, and segments are length-prefixed, so none of
// these keys is a prefix of another kind's.
const (
	classMark     = "\x01"
	classRegistry = "\x02"
)

// classDigestLen is the length of a class name, in hex digits.
const classDigestLen = 16

// classOf returns the read class of restriction r and its JSON ("" and nil
// for no restriction).
func classOf(r *permissions.Restriction) (string, []byte) {
	if r == nil || r.Empty() {
		return "", nil
	}
	raw, err := json.Marshal(r)
	if err != nil {
		// A Restriction is strings only: it always marshals.
		panic("search: marshal restriction: " + err.Error())
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])[:classDigestLen], raw
}

// classTerm returns the statistics term of term for class c (term itself
// for the unrestricted class; "" names the corpus totals).
func classTerm(c, term string) string {
	if c == "" {
		return term
	}
	return classMark + c + "\x00" + term
}

// class is a read class of a space, as the registry holds it.
type class struct {
	name string
	// restriction is nil for the unrestricted class.
	restriction *permissions.Restriction
}

// readClasses returns the restricted classes of sp's registry.
func readClasses(tx *store.Txn, sp tenancy.Space) ([]class, error) {
	if err := flushStats(tx); err != nil {
		return nil, err
	}
	var out []class
	prefix := store.Suffix(nil).Str(classRegistry)
	err := tx.Scan(sp, store.TableSearchStats, prefix, store.ScanOptions{}, func(suffix []byte, it store.Item) (bool, error) {
		r := store.NewReader(suffix[len(prefix):])
		name := r.Str()
		if err := r.Err(); err != nil {
			return false, err
		}
		var res permissions.Restriction
		if err := it.Decode(&res); err != nil {
			return false, err
		}
		out = append(out, class{name: name, restriction: &res})
		return true, nil
	})
	return out, err
}

// Readable decides whether a reader may read the documents of a read
// restriction (nil: none). A nil Readable reads everything.
type Readable func(*permissions.Restriction) bool

func (rd Readable) reads(r *permissions.Restriction) bool { return rd == nil || r == nil || rd(r) }
