package search

import (
	"crypto/rand"
	"errors"
	"sync"

	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// The current statistics of a space are sums over many shard records, and
// a record rewritten often leaves versions that a scan has to step over
// until compaction. So sums are cached in memory, each under a version
// that changes whenever the sum may, and a reader uses a cached sum only
// when the version its snapshot holds is the one the sum was taken under,
// so the cache never answers differently from the store. Within a space:
//
//	corpus version    the space's card epoch (facts.TouchEpoch, in
//	                  store.TableFactCardEpoch): rewritten with every
//	                  change of the document counts and lengths, of the
//	                  class registry or of a bucket version, as with
//	                  every card the space's facts write (a fact's write
//	                  changes both in one transaction, so it stores one
//	                  version record, not one of its own for the
//	                  statistics)
//	'b', bucket       term bucket version, in store.TableSearchVersion:
//	                  rewritten with every change of the document
//	                  frequency of a class term in the bucket (bucketOf,
//	                  one of termBuckets)
//
// Every write of a version is a fresh random value written blindly (on
// Badger no concurrent writer conflicts on it; TiKV refuses concurrent
// writes of one key, so there two writers of one space conflict on the
// corpus version, as they do on the card epoch their facts' cards write
// anyway), so two snapshots holding the same value have seen the same
// changes of what it covers. A turn or a write
// changes the frequencies of a few words: the next reader scans again
// only the terms of the buckets they fall in, not every term it asks for.
// A term's sum also keeps the corpus version it was last taken or checked
// under: since every bucket version is written with a new corpus version,
// a reader holding that corpus version uses the sum without reading the
// bucket's version (at 100,000 facts, the reads of an assembly's
// statistics when nothing was written since the last one).
//
// Stores written before the card epoch served as corpus version hold a
// corpus version of their own (store.TableSearchVersion, empty suffix):
// nothing reads it any more. The cache lives in memory only, so the
// first reader of a process reads the sums from the shard records
// whatever version it finds.

const (
	maxCachedSpaces = 4096 // spaces whose sums are kept
	maxCachedTerms  = 8192 // term sums kept per space
	// termBuckets is how many versions the document frequencies of a
	// space are split over.
	termBuckets = 256
)

// bucketOf returns the version bucket of class term ct.
func bucketOf(ct string) byte { return byte(fnv32a(ct) % termBuckets) }

// fnv32a is hash/fnv's 32-bit FNV-1a of s, without its allocations.
func fnv32a(s string) uint32 {
	const offset, prime = 2166136261, 16777619
	h := uint32(offset)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= prime
	}
	return h
}

// bucketKey is the key of bucket b's version.
func bucketKey(b byte) []byte { return []byte{'b', b} }

// bumpVersions writes fresh versions of the buckets marked in buckets,
// and of the corpus (the space's card epoch) when corpus is set or a
// bucket is marked: a snapshot's corpus version thus also stands for the
// bucket versions it holds, and a sum checked under it needs no bucket
// version read again (statsCache.add). A fact's write touches the epoch
// anyway (its card), so this adds no record.
func bumpVersions(tx *store.Txn, sp tenancy.Space, buckets *[termBuckets]bool, corpus bool) error {
	var v []byte // drawn once, when something changed
	put := func(k []byte) error {
		if v == nil {
			v = make([]byte, 12)
			_, _ = rand.Read(v)
		}
		return tx.PutRaw(sp, store.TableSearchVersion, k, v)
	}
	for b, changed := range buckets {
		if !changed {
			continue
		}
		if err := put(bucketKey(byte(b))); err != nil {
			return err
		}
		corpus = true
	}
	if corpus {
		return facts.TouchEpoch(tx, sp)
	}
	return nil
}

// readVersion reads the version at key k of sp ("" when none was written).
func readVersion(tx *store.Txn, sp tenancy.Space, k []byte) (string, error) {
	var v string
	err := tx.ReadRaw(sp, store.TableSearchVersion, k, func(b []byte) error { v = string(b); return nil })
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return "", err
	}
	return v, nil
}

type spaceSums struct {
	version string // the corpus version classes were read under
	corpus  bool
	// classes are the space's read classes with their totals, the
	// unrestricted one ("") first.
	classes []classSums
	df      map[string]dfSum // class term -> document frequency
}

// dfSum is a class term's document frequency under its bucket's version,
// and the corpus version of the last snapshot it was taken or checked in
// ("" when none).
type dfSum struct {
	version, corpus string
	n               int
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
// cache when it holds them under the versions tx sees, else from the
// store.
func (c *statsCache) add(tx *store.Txn, sp tenancy.Space, terms []string, rd Readable, st *Stats) error {
	if err := flushStats(tx); err != nil {
		return err
	}
	version, err := facts.EpochTx(tx, sp)
	if err != nil {
		return err
	}
	c.mu.Lock()
	s := c.spaces[sp]
	if s == nil {
		if len(c.spaces) >= maxCachedSpaces {
			clear(c.spaces)
		}
		s = &spaceSums{version: version, df: map[string]dfSum{}}
		c.spaces[sp] = s
	}
	if s.version != version {
		s.version, s.corpus, s.classes = version, false, nil
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
	// The versions of the buckets of those terms, each read once.
	type bucket struct {
		b       byte
		version string
	}
	var buckets []bucket
	versionOf := func(b byte) (string, error) {
		for _, r := range buckets {
			if r.b == b {
				return r.version, nil
			}
		}
		v, err := readVersion(tx, sp, bucketKey(b))
		buckets = append(buckets, bucket{b, v})
		return v, err
	}
	type lookup struct {
		ct      string
		version string
		n       int
		cached  bool
	}
	looks := make([]lookup, 0, len(terms)*len(visible))
	for _, t := range terms {
		for _, cl := range visible {
			looks = append(looks, lookup{ct: classTerm(cl, t)})
		}
	}
	// A sum taken or checked under the corpus version this snapshot
	// holds is current without reading its bucket's version: every
	// bucket version is written with a new corpus version
	// (bumpVersions).
	checked := false // whether every lookup was answered so
	if version != "" {
		checked = true
		c.mu.Lock()
		for i := range looks {
			if e, ok := s.df[looks[i].ct]; ok && e.corpus == version {
				looks[i].n, looks[i].cached = e.n, true
			} else {
				checked = false
			}
		}
		c.mu.Unlock()
	}
	if !checked {
		for i := range looks {
			if looks[i].cached {
				continue
			}
			v, err := versionOf(bucketOf(looks[i].ct))
			if err != nil {
				return err
			}
			looks[i].version = v
		}
		c.mu.Lock()
		for i := range looks {
			if looks[i].cached {
				continue
			}
			if e, ok := s.df[looks[i].ct]; ok && e.version == looks[i].version {
				looks[i].n, looks[i].cached = e.n, true
				if version != "" {
					// Checked under this corpus version: the next
					// reader holding it need not read the bucket's.
					e.corpus = version
					s.df[looks[i].ct] = e
				}
			}
		}
		c.mu.Unlock()
	}

	found := map[string]dfSum{}
	for i := range looks {
		l := &looks[i]
		if l.cached {
			continue
		}
		if e, ok := found[l.ct]; ok {
			l.n = e.n
			continue
		}
		n := 0
		err := tx.Scan(sp, store.TableSearchStats, store.Suffix(nil).Str(l.ct), store.ScanOptions{}, func(_ []byte, it store.Item) (bool, error) {
			var df int
			err := it.Value(func(b []byte) error { return decodeCounts(b, &df) })
			n += df
			return true, err
		})
		if err != nil {
			return err
		}
		l.n, found[l.ct] = n, dfSum{version: l.version, corpus: version, n: n}
	}
	i := 0
	for _, t := range terms {
		for range visible {
			st.DF[t] += looks[i].n
			i++
		}
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	s = c.spaces[sp]
	if s == nil {
		return nil
	}
	if s.version == version && !s.corpus {
		s.corpus, s.classes = true, classes
	}
	if len(s.df)+len(found) > maxCachedTerms {
		clear(s.df)
	}
	for ct, e := range found {
		s.df[ct] = e
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
