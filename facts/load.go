package facts

import (
	"errors"
	"fmt"

	"github.com/stategraph/stategraph/permissions"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// Typed accessors for packages that read facts inside their own
// transaction (revision, contextasm): they name a fact by space and id and
// never see store.TableFact or its key layout.

// LoadTx reads the record of fact id in space sp as stored, with no view
// applied (the caller evaluates it with Fact.In); ok is false when sp holds
// no such fact.
func LoadTx(tx *store.Txn, sp tenancy.Space, id string) (f Fact, ok bool, err error) {
	err = tx.Get(sp, store.TableFact, factKey(id), &f)
	if errors.Is(err, store.ErrNotFound) {
		return Fact{}, false, nil
	}
	if err != nil {
		return Fact{}, false, err
	}
	return f, true, nil
}

// RestrictionTx reads only the read restriction of fact id in space sp,
// decoding nothing else of the record; ok is false when sp holds no such
// fact. A nil restriction means the fact is readable by everyone in it.
func RestrictionTx(tx *store.Txn, sp tenancy.Space, id string) (r *permissions.Restriction, ok bool, err error) {
	var raw struct {
		RestrictedTo *permissions.Restriction `json:"restrictedTo"`
	}
	err = tx.Get(sp, store.TableFact, factKey(id), &raw)
	if errors.Is(err, store.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return raw.RestrictedTo, true, nil
}

// SourceTx reads only the source of fact id in space sp, decoding nothing
// else of the record (evidence.Retirer reads where a retired fact came
// from on every supersession); ok is false when sp holds no such fact.
func SourceTx(tx *store.Txn, sp tenancy.Space, id string) (src Source, ok bool, err error) {
	var raw struct {
		Source Source `json:"source"`
	}
	err = tx.Get(sp, store.TableFact, factKey(id), &raw)
	if errors.Is(err, store.ErrNotFound) {
		return Source{}, false, nil
	}
	if err != nil {
		return Source{}, false, err
	}
	return raw.Source, true, nil
}

// StaleIDsTx returns the ids of the facts of space sp stored invalid from
// birth (stale or outranked writes), oldest recorded first.
func StaleIDsTx(tx *store.Txn, sp tenancy.Space) ([]string, error) {
	tails, err := tx.Tails(sp, store.TableFactStale, nil)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(tails))
	for i, t := range tails {
		if ids[i], err = staleID(t); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// factKey is the key suffix of fact id in store.TableFact.
func factKey(id string) []byte { return store.Suffix(nil).Raw(id) }

// staleID decodes a store.TableFactStale key suffix (recordedAt, id).
func staleID(tail string) (string, error) {
	r := store.NewReader([]byte(tail))
	r.Time()
	id := r.Rest()
	if err := r.Err(); err != nil || id == "" {
		return "", fmt.Errorf("facts: stale index key: %w", errors.Join(err, store.ErrBadKey))
	}
	return id, nil
}
