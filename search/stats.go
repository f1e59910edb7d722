package search

import (
	"crypto/rand"
	"errors"
	"sync"

	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// The current statistics of a space are sums over many shard records, and
// a record rewritten often leaves versions that a scan has to step over
// until compaction. So sums are cached in memory, under the space's stats
// version: every change of the statistics writes a fresh random version
// (a blind write, which no concurrent writer conflicts on), and a reader
// uses a cached sum only when the version its snapshot holds is the one
// the sum was taken under, so the cache never answers differently from
// the store.

const (
	maxCachedSpaces = 4096 // spaces whose sums are kept
	maxCachedTerms  = 8192 // term sums kept per space
)

func bumpVersion(tx *store.Txn, sp tenancy.Space) error {
	v := make([]byte, 12)
	_, _ = rand.Read(v)
	return tx.PutRaw(sp, store.TableSearchVersion, nil, v)
}

type spaceSums struct {
	version      string
	corpus       bool
	docs, length int
	df           map[string]int
}

type statsCache struct {
	mu     sync.Mutex
	spaces map[tenancy.Space]*spaceSums
}

func newStatsCache() *statsCache { return &statsCache{spaces: map[tenancy.Space]*spaceSums{}} }

// add adds the current statistics of sp for terms to st, from the cache
// when it holds them under the version tx sees, else from the store.
func (c *statsCache) add(tx *store.Txn, sp tenancy.Space, terms []string, st *Stats) error {
	raw, err := tx.GetRaw(sp, store.TableSearchVersion, nil)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	version := string(raw)
	c.mu.Lock()
	s := c.spaces[sp]
	if s == nil || s.version != version {
		if s == nil && len(c.spaces) >= maxCachedSpaces {
			clear(c.spaces)
		}
		s = &spaceSums{version: version, df: map[string]int{}}
		c.spaces[sp] = s
	}
	docs, length, corpus := s.docs, s.length, s.corpus
	var missing []string
	for _, t := range terms {
		if df, ok := s.df[t]; ok {
			st.DF[t] += df
		} else {
			missing = append(missing, t)
		}
	}
	c.mu.Unlock()

	if !corpus {
		docs, length = 0, 0
		err := tx.Scan(sp, store.TableSearchStats, store.Suffix(nil).Str(""), store.ScanOptions{}, func(_ []byte, it store.Item) (bool, error) {
			var d, l int
			err := it.Value(func(b []byte) error { return decodeCounts(b, &d, &l) })
			docs, length = docs+d, length+l
			return true, err
		})
		if err != nil {
			return err
		}
	}
	st.Docs += docs
	st.Length += length
	found := make(map[string]int, len(missing))
	for _, t := range missing {
		n := 0
		err := tx.Scan(sp, store.TableSearchStats, store.Suffix(nil).Str(t), store.ScanOptions{}, func(_ []byte, it store.Item) (bool, error) {
			var df int
			err := it.Value(func(b []byte) error { return decodeCounts(b, &df) })
			n += df
			return true, err
		})
		if err != nil {
			return err
		}
		found[t] = n
		st.DF[t] += n
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.spaces[sp]; s != nil && s.version == version {
		s.corpus, s.docs, s.length = true, docs, length
		if len(s.df)+len(found) > maxCachedTerms {
			clear(s.df)
		}
		for t, n := range found {
			s.df[t] = n
		}
	}
	return nil
}
