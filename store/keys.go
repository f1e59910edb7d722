package store

// Key layout. Every key of a tenant record is
//
//	org seg | space kind (1 byte) | owner seg | table (1 byte) | suffix
//
// where seg is a uint16 big-endian length followed by that many bytes. The
// organization comes first, so an organization's records are one contiguous
// range; a user's private records and a capability's records follow their
// owner, so they are contiguous too. The org seg is never empty for a tenant
// (tenancy refuses an identity without an organization); keys whose org seg
// is empty belong to the system (metadata) and no Space can name them.
//
// Suffixes are built with Suffix and read back with Reader. Times are
// temporal.KeyLen (12) bytes, temporal.AppendKey's encoding: seconds since
// year 1 then nanoseconds, big-endian, so byte order is time order for
// every instant (format version 2; version 1 stored Unix nanoseconds in 8
// bytes, which overflow outside 1678-2262).

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"time"

	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// Table is one record family inside a space. The byte values are part of
// the on-disk format: never reuse or renumber one.
type Table byte

// The tables.
const (
	TableFact        Table = 'F' // id -> fact record
	TableFactByKey   Table = 'K' // key seg, recordedAt, id -> nil
	TableFactByTime  Table = 'T' // recordedAt, id -> nil
	TableFactDerived Table = 'D' // base id seg, derived id -> nil
	// TableFactValid lists, per key, the valid heads of the chains that
	// hold a fact with that key: key seg, id -> nil. A supersession moves
	// the old head's entries to the new head; forgetting removes them. It
	// answers current reads and supersedes-by-key without walking chains.
	TableFactValid Table = 'H'
	// TableFactStale lists facts stored invalid from birth (stale or
	// outranked writes): recordedAt, id -> nil.
	TableFactStale Table = 'Z'
	// TableFactRestricted: empty suffix -> nil, present once the space
	// holds a fact with a read restriction, so readers of a space without
	// one skip per-fact permission checks.
	TableFactRestricted Table = 'z'
	// TableFactCard: id -> the fact's card, a compact binary projection
	// of the fields context assembly reads (facts.Card), rewritten with
	// the record.
	TableFactCard Table = 'f'
	// TableFactCardEpoch: empty suffix -> a random value rewritten
	// (blindly) with every card of the space, so that readers may cache
	// cards for as long as it does not change.
	TableFactCardEpoch Table = 'g'
	TableAudit         Table = 'L' // at, seq id -> audit entry
	TableAuditByRec    Table = 'l' // record id seg, at, seq id -> nil

	// State assertions and conflicts (packages assertions, conflicts), all
	// in the organization's shared space.
	TableAssertion     Table = 'A' // id -> assertion record
	TableAssertionSlot Table = 'a' // context seg, subject seg, predicate seg, createdAt, id -> nil
	TableAssertionTime Table = 'B' // createdAt, id -> nil
	// TableAssertionIndex holds the assertions' secondary indexes, told
	// apart by their first segment: "s"|"o", entity seg, createdAt, id
	// (the assertion names the entity as subject or object) and "v", event
	// seg, context seg, id (an active UNTIL_EVENT assertion waits for the
	// event; removed when it leaves ACTIVE).
	TableAssertionIndex Table = 'b'
	// TableAssertionEpoch: empty suffix -> a random value rewritten
	// (blindly) with every assertion record of the organization, so that
	// readers may cache the newest assertions for as long as it does not
	// change (assertions/recent.go).
	TableAssertionEpoch Table = 'h'
	TableConflict       Table = 'C' // id -> conflict record
	TableConflictSlot   Table = 'c' // context seg, subject seg, predicate seg, openedAt, id -> nil
	TableDecision       Table = 'E' // id -> decision record
	TableConflictTime   Table = 'e' // openedAt, id -> nil

	// Search index (package search), kept in the write transaction of
	// every fact by the write pipeline (its index stage), in the fact's space:
	//
	// TableSearchLive holds the postings of facts not (yet) superseded:
	// term seg, recordedAt, id seg, tf (2 bytes), length (2 bytes) -> the
	// fact's valid time and read class, empty when it is valid from its
	// recordedAt, open-ended and unrestricted (search/posting.go).
	// A supersession deletes the retired fact's postings, so a query
	// reads only live documents, newest first, with no fact lookups.
	TableSearchLive Table = 'I'
	// TableSearchHist holds the postings of retired facts, same key as
	// TableSearchLive -> valid time, supersededAt and read class
	// (search/posting.go); it answers asOf/knownAt views.
	TableSearchHist Table = 'i'
	// TableSearchStats holds BM25 statistics of the live documents of
	// the space, split in shards so that concurrent writers rarely meet:
	// term seg, shard (1 byte) -> {df}; empty seg, shard -> {docs,
	// length}; a transaction writes its net changes to a shard drawn at
	// random (search/index.go). Readers add the shards up. Views in the
	// past compute theirs from the postings instead. Restricted facts are
	// counted per read class, under class terms, with a registry of the
	// classes' restrictions (search/class.go), so that readers sum only
	// what they may read.
	TableSearchStats Table = 'S'
	// TableSearchVersion holds, per space, random values rewritten
	// (blindly) with changes of the statistics: readers cache the shard
	// sums under them (search/stats.go): 'b', bucket (1 byte) -> version
	// of the document frequencies of the terms in the bucket. The corpus
	// totals and classes are versioned by the card epoch
	// (TableFactCardEpoch); the empty suffix, their version in stores
	// written before, is no longer read.
	TableSearchVersion Table = 's'

	// Working set (package session), in the caller's private space:
	// TableWorkItem: session seg, key seg, at -> item version (the
	// latest version known at a time wins; expiry is checked at read
	// time against the clock, Badger's TTL only cleans up later).
	TableWorkItem Table = 'W'
	// TableSession: session seg -> session record (created, completed).
	TableSession Table = 'w'
	// TableTurn: session seg, at, id seg -> turn.
	TableTurn Table = 'R'
	// TableTurnByID: id -> session seg, at (locates a turn by id).
	TableTurnByID Table = 'r'
	// TableTranscript: session seg, at, id seg -> archived
	// item or turn; written by completeObjective, never read for context.
	TableTranscript Table = 'X'

	// TableEnvironment (package environment): key seg, at, id -> entry,
	// in the shared space (organization entries) or the private space
	// (the user's entries).
	TableEnvironment Table = 'V'

	// TableRevisionChange (package revision): at, id -> a change the
	// conversation made (key, old value, new value), in the shared space;
	// it lets later writes restating a replaced value be recognised as
	// stale.
	TableRevisionChange Table = 'Q'
	// TableRevisionMarker (package revision): empty suffix -> the version
	// of the organization's changes, rewritten with every change; absent
	// until a conversation changed something, so explicit writes skip the
	// staleness check until then, and readers cache the decoded changes
	// under the version.
	TableRevisionMarker Table = 'q'

	// Evidence (package evidence), in the caller's private space, kept
	// without a TTL: the sentences of recorded turns, searchable by BM25.
	//
	// TableEvidence: turn id seg, sentence index (2 bytes) -> sentence.
	TableEvidence Table = 'N'
	// TableEvidencePosting holds the postings of sentences not (yet)
	// retired: term seg, recordedAt, at, turn id seg, sentence index, tf,
	// length (2 bytes each) -> nil; the reserved term "" lists every
	// sentence. A current search reads only these.
	TableEvidencePosting Table = 'n'
	// TableEvidenceHist holds the postings of retired sentences, moved
	// there from TableEvidencePosting, same key -> nil; views of the past
	// read both.
	TableEvidenceHist Table = 'p'
	// TableEvidenceRetired: turn id seg, sentence index -> the
	// sentence's retirement (when, by what).
	TableEvidenceRetired Table = 'O'
	// TableEvidenceStats: shard (1 byte) -> the number of live sentences
	// and their total length in terms (varints), split in shards so that
	// concurrent writers rarely meet; readers add the shards up.
	TableEvidenceStats Table = 'o'
	// TableEvidenceEpoch: empty suffix -> a random value rewritten
	// (blindly) with every change of the space's evidence (a sentence
	// stored, retired or erased), so that readers may remember what a
	// current search reads for as long as it does not change.
	TableEvidenceEpoch Table = 'v'

	// Identity profiles (package profile), in the organization's shared
	// space.
	//
	// TableProfile: user id -> the user's profile.
	TableProfile Table = 'P'
	// TableProfileReport: manager seg, user id -> nil: who reports to
	// whom, kept with the profile that names the manager.
	TableProfileReport Table = 'U'

	// Documents (package documents), in the organization's shared space.
	//
	// TableDocument: document id -> the document (title, source URI, ACL,
	// its chunks' count and lengths).
	TableDocument Table = 'G'
	// TableDocumentChunk: document id seg, chunk index (2 bytes) -> the
	// chunk's text.
	TableDocumentChunk Table = 'J'
	// TableDocumentPosting: term seg, document id seg, chunk index, tf,
	// length (2 bytes each) -> nil; the reserved term "" lists every chunk
	// (the statistics of BM25 are summed from it). Re-ingesting a
	// document deletes its postings first.
	TableDocumentPosting Table = 'j'
	// Consolidation of capability memory (package consolidate), in the
	// capability's space:
	//
	// TableConsolidationRun: run id -> the run record (inputs, clusters,
	// outputs, pruned).
	TableConsolidationRun Table = 'M'
	// TableConsolidationByTime: at, run id -> nil; the newest run, read
	// first going backwards, answers idempotence (same inputs, no writes).
	TableConsolidationByTime Table = 'm'
	// TableFactUsage: fact id -> the last time (temporal.AppendKey bytes)
	// an assembled context included the fact; consolidation prunes
	// entries never used, or not used for --consolidate-stale-after.
	TableFactUsage Table = 'Y'

	// Keep this list the single register of table bytes.
)

// maxSeg is the longest string a seg can hold.
const maxSeg = math.MaxUint16

// timeLen is the encoded length of a time.
const timeLen = temporal.KeyLen

// ErrKeyTooLong is returned when a string does not fit in a key segment.
var ErrKeyTooLong = errors.New("store: string too long for a key segment")

// ErrBadKey is returned by Reader when a key is malformed.
var ErrBadKey = errors.New("store: malformed key")

// Suffix builds the table-specific part of a key.
type Suffix []byte

// Str appends a length-prefixed string. Strings longer than 65535 bytes
// are truncated; callers validate lengths at the API boundary long before.
func (s Suffix) Str(v string) Suffix {
	if len(v) > maxSeg {
		v = v[:maxSeg]
	}
	s = binary.BigEndian.AppendUint16(s, uint16(len(v)))
	return append(s, v...)
}

// Time appends t so that byte order is time order.
func (s Suffix) Time(t time.Time) Suffix {
	return temporal.AppendKey(s, t)
}

// Raw appends b as is; only for the last component of a key.
func (s Suffix) Raw(b string) Suffix { return append(s, b...) }

// Reader reads a suffix back, component by component.
type Reader struct {
	b   []byte
	err error
}

// NewReader returns a Reader over b.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

// Str reads a length-prefixed string.
func (r *Reader) Str() string {
	if r.err != nil {
		return ""
	}
	if len(r.b) < 2 {
		r.err = ErrBadKey
		return ""
	}
	n := int(binary.BigEndian.Uint16(r.b))
	if len(r.b) < 2+n {
		r.err = ErrBadKey
		return ""
	}
	v := string(r.b[2 : 2+n])
	r.b = r.b[2+n:]
	return v
}

// Time reads a time.
func (r *Reader) Time() time.Time {
	if r.err != nil {
		return time.Time{}
	}
	t, err := temporal.DecodeKey(r.b)
	if err != nil {
		r.err = ErrBadKey
		return time.Time{}
	}
	r.b = r.b[timeLen:]
	return t
}

// AfterTime returns what follows the time that tail starts with (the id
// of a "time, id" key tail), or "" when tail is too short.
func AfterTime(tail string) string {
	if len(tail) < timeLen {
		return ""
	}
	return tail[timeLen:]
}

// Rest returns what is left.
func (r *Reader) Rest() string {
	v := string(r.b)
	r.b = nil
	return v
}

// Err returns the first error met.
func (r *Reader) Err() error { return r.err }

// spacePrefix returns the prefix of every key of space sp.
func spacePrefix(sp tenancy.Space) []byte {
	b := Suffix(nil).Str(sp.Org())
	b = append(b, byte(sp.Kind()))
	return Suffix(b).Str(sp.Owner())
}

// tablePrefix returns the prefix of every key of table t in space sp.
func tablePrefix(sp tenancy.Space, t Table) []byte {
	return append(spacePrefix(sp), byte(t))
}

// key returns the full key of suffix in table t of space sp, built in one
// allocation (it is on every read and write path).
func key(sp tenancy.Space, t Table, suffix []byte) []byte {
	b := appendKey(nil, 0, sp, t, suffix)
	return b[:len(b):len(b)] // an append by a caller copies it
}

// keyValue returns key(sp, t, suffix) and a copy of v (as slices.Clone
// copies it: nil stays nil) in one allocation, for a write that takes
// ownership of both: each is capped at its own length, so neither can
// grow into the other.
func keyValue(sp tenancy.Space, t Table, suffix, v []byte) (k, val []byte) {
	b := appendKey(nil, len(v), sp, t, suffix)
	n := len(b)
	if v == nil {
		return b[:n:n], nil
	}
	b = append(b, v...)
	return b[:n:n], b[n:len(b):len(b)]
}

// appendKey appends key(sp, t, suffix) to b, growing it once with room
// for extra more bytes.
func appendKey(b []byte, extra int, sp tenancy.Space, t Table, suffix []byte) []byte {
	org, owner := sp.Org(), sp.Owner()
	org, owner = org[:min(len(org), maxSeg)], owner[:min(len(owner), maxSeg)]
	b = slices.Grow(b, 2+len(org)+1+2+len(owner)+1+len(suffix)+extra)
	b = binary.BigEndian.AppendUint16(b, uint16(len(org)))
	b = append(b, org...)
	b = append(b, byte(sp.Kind()))
	b = binary.BigEndian.AppendUint16(b, uint16(len(owner)))
	b = append(b, owner...)
	b = append(b, byte(t))
	return append(b, suffix...)
}

// parsedKey is a decoded tenant key.
type parsedKey struct {
	Org    string
	Kind   tenancy.SpaceKind
	Owner  string
	Table  Table
	Suffix []byte
}

// parseKey decodes a full tenant key; it is the inverse of key.
func parseKey(k []byte) (parsedKey, error) {
	r := NewReader(k)
	var pk parsedKey
	pk.Org = r.Str()
	if r.err != nil || len(r.b) < 1 {
		return pk, ErrBadKey
	}
	pk.Kind = tenancy.SpaceKind(r.b[0])
	r.b = r.b[1:]
	pk.Owner = r.Str()
	if r.err != nil || len(r.b) < 1 {
		return pk, ErrBadKey
	}
	pk.Table = Table(r.b[0])
	pk.Suffix = r.b[1:]
	if pk.Org == "" {
		return pk, ErrBadKey
	}
	return pk, nil
}

// tableKeyLen returns the length of k's table prefix (org seg, space
// kind, owner seg, table byte: the layout of key), or 0 when k is too
// short to hold one. It reads only those bytes and allocates nothing (it
// is on every write), so every key that has a prefix p with
// tableKeyLen(p) = n > 0 has the same first n bytes and the same n.
func tableKeyLen(k []byte) int {
	if len(k) < 2 {
		return 0
	}
	i := 2 + int(binary.BigEndian.Uint16(k)) + 1 // the owner seg
	if len(k) < i+2 {
		return 0
	}
	i += 2 + int(binary.BigEndian.Uint16(k[i:])) // the table byte
	if len(k) <= i {
		return 0
	}
	return i + 1
}

// systemKey returns a key outside every tenant's range.
func systemKey(name string) []byte { return append([]byte{0, 0}, name...) }

// dueKey is the key of one entry of the due schedule (see Txn.Schedule):
//
//	system "due" | queue seg | at | org seg | ref
//
// It lives outside every tenant's range, ordered by time within a queue,
// so one scan finds what is due across organizations.
func dueKey(queue string, at time.Time, org, ref string) []byte {
	return Suffix(systemKey("due")).Str(queue).Time(at).Str(org).Raw(ref)
}

// duePrefix is the prefix of every entry of queue.
func duePrefix(queue string) []byte { return Suffix(systemKey("due")).Str(queue) }
