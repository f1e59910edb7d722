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
	version string
	corpus  bool
	// classes are the space's read classes with their totals, the
	// unrestricted one ("") first.
	classes []classSums
	df      map[string]int // class term -> document frequency
}

type classSums struct {
	class
	docs, length int
}

type statsCache struct {
	mu     sync.Mutex
	spaces map[tenancy.Space]*spaceSums
}

func newStatsCache() *statsCache { return &statsCache{spaces: map[tenancy.Space]*spaceSums{}} }

// add adds the current statistics of sp for terms, of the read classes rd
// reads, to st, and the documents of the others to st.Hidden: from the
// cache when it holds them under the version tx sees, else from the store.
func (c *statsCache) add(tx *store.Txn, sp tenancy.Space, terms []string, rd Readable, st *Stats) error {
	if err := flushStats(tx); err != nil {
		return err
	}
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
	classes, corpus := s.classes, s.corpus
	c.mu.Unlock()

	if !corpus {
		if classes, err = readCorpus(tx, sp); err != nil {
			return err
		}
	}
	// The class terms to look up: each term in each class the reader reads.
	var visible []string
	for _, cl := range classes {
		if !rd.reads(cl.restriction) {
			st.Hidden += cl.docs
			continue
		}
		visible = append(visible, cl.name)
		st.Docs += cl.docs
		st.Length += cl.length
	}
	var missing []string
	c.mu.Lock()
	for _, t := range terms {
		for _, cl := range visible {
			ct := classTerm(cl, t)
			if df, ok := s.df[ct]; ok {
				st.DF[t] += df
			} else {
				missing = append(missing, ct)
			}
		}
	}
	c.mu.Unlock()

	found := make(map[string]int, len(missing))
	for _, ct := range missing {
		n := 0
		err := tx.Scan(sp, store.TableSearchStats, store.Suffix(nil).Str(ct), store.ScanOptions{}, func(_ []byte, it store.Item) (bool, error) {
			var df int
			err := it.Value(func(b []byte) error { return decodeCounts(b, &df) })
			n += df
			return true, err
		})
		if err != nil {
			return err
		}
		found[ct] = n
	}
	for _, t := range terms {
		for _, cl := range visible {
			if n, ok := found[classTerm(cl, t)]; ok {
				st.DF[t] += n
			}
		}
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.spaces[sp]; s != nil && s.version == version {
		s.corpus, s.classes = true, classes
		if len(s.df)+len(found) > maxCachedTerms {
			clear(s.df)
		}
		for t, n := range found {
			s.df[t] = n
		}
	}
	return nil
}

// readCorpus reads the read classes of sp and their document counts and
// total lengths, the unrestricted class first.
func readCorpus(tx *store.Txn, sp tenancy.Space) ([]classSums, error) {
	restricted, err := readClasses(tx, sp)
	if err != nil {
		return nil, err
	}
	out := make([]classSums, 0, 1+len(restricted))
	out = append(out, classSums{})
	for _, c := range restricted {
		out = append(out, classSums{class: c})
	}
	for i := range out {
		cs := &out[i]
		err := tx.Scan(sp, store.TableSearchStats, store.Suffix(nil).Str(classTerm(cs.name, "")), store.ScanOptions{}, func(_ []byte, it store.Item) (bool, error) {
			var d, l int
			err := it.Value(func(b []byte) error { return decodeCounts(b, &d, &l) })
			cs.docs, cs.length = cs.docs+d, cs.length+l
			return true, err
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
