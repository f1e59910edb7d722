package facts

import (
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// ScanTx calls fn with the record of every fact of space sp, as stored
// (the caller evaluates it with Fact.In), oldest recorded first, until fn
// returns false or an error. It is the accessor of packages that read a
// whole space inside their own transaction (consolidate) without seeing
// store.TableFact or its key layout.
func ScanTx(tx *store.Txn, sp tenancy.Space, fn func(f Fact) (bool, error)) error {
	return tx.Scan(sp, store.TableFactByTime, nil, store.ScanOptions{KeysOnly: true}, func(suffix []byte, _ store.Item) (bool, error) {
		r := store.NewReader(suffix)
		r.Time()
		id := r.Rest()
		if err := r.Err(); err != nil {
			return false, err
		}
		f, ok, err := LoadTx(tx, sp, id)
		if err != nil || !ok {
			return err == nil, err
		}
		return fn(f)
	})
}
