package facts

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stategraph/stategraph/permissions"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/tenancy"
)

// Card is the compact projection of a fact that context assembly reads on
// its hot path, hundreds of times per query: what decides whether the fact
// holds in a view, whether the caller may read it, and how it is rendered.
// It is stored in store.TableFactCard next to the record and rewritten
// with it (put), in a binary encoding that is read without JSON.
//
// Fact holds the projected fields only: ID, Key, Scope, ScopeID,
// IsConstraint, ConstraintType, Source.Authority, ValidFrom, ValidTo,
// RecordedAt, Supersedes, SupersededBy, SupersededAt, NeedsReviewAt,
// RestrictedTo, Forgotten and Stale; its Value is nil and Text holds the
// value as text. Fact.In and Fact.IsValid work on it as on the record.
type Card struct {
	Fact Fact
	Text string
}

// cardVersion is the first byte of an encoded card; a card of another
// version is ignored and the record read instead.
const cardVersion = 2

// Presence bits of a card's optional fields.
const (
	cardConstraint = 1 << iota
	cardValidTo
	cardSupersededAt
	cardNeedsReview
	cardRestricted
	cardForgotten
	cardStale
	cardSaid
)

// CardOf returns the card of f.
func CardOf(f Fact) Card {
	c := Card{Fact: Fact{
		ID: f.ID, Key: f.Key, Scope: f.Scope, ScopeID: f.ScopeID,
		IsConstraint: f.IsConstraint, ConstraintType: f.ConstraintType,
		Source:    Source{Type: f.Source.Type, Authority: f.Source.Authority, Turn: f.Source.Turn, Sentence: f.Source.Sentence},
		ValidFrom: f.ValidFrom, ValidTo: f.ValidTo, RecordedAt: f.RecordedAt,
		Supersedes: f.Supersedes, SupersededBy: f.SupersededBy, SupersededAt: f.SupersededAt,
		NeedsReviewAt: f.NeedsReviewAt, RestrictedTo: f.RestrictedTo, Forgotten: f.Forgotten, Stale: f.Stale,
	}, Text: f.ValueText()}
	return c
}

// encodeCard returns the binary encoding of c: a version byte, presence
// bits, then strings (uvarint length, bytes) and times (varint seconds,
// uvarint nanoseconds, so that any year encodes) in a fixed order.
func encodeCard(c Card) ([]byte, error) {
	f := c.Fact
	var bits uint64
	set := func(b uint64, on bool) {
		if on {
			bits |= b
		}
	}
	set(cardConstraint, f.IsConstraint)
	set(cardValidTo, f.ValidTo != nil)
	set(cardSupersededAt, f.SupersededAt != nil)
	set(cardNeedsReview, f.NeedsReviewAt != nil)
	set(cardRestricted, f.RestrictedTo != nil)
	set(cardForgotten, f.Forgotten != nil)
	set(cardStale, f.Stale != nil)
	set(cardSaid, f.Source.Turn != "" && f.Source.Sentence != nil)
	b := make([]byte, 0, 96+len(f.Key)+len(c.Text))
	b = append(b, cardVersion)
	b = binary.AppendUvarint(b, bits)
	str := func(s string) { b = append(binary.AppendUvarint(b, uint64(len(s))), s...) }
	tm := func(t time.Time) {
		b = binary.AppendVarint(b, t.Unix())
		b = binary.AppendUvarint(b, uint64(t.Nanosecond()))
	}
	for _, s := range []string{f.ID, f.Key, string(f.Scope), f.ScopeID, f.ConstraintType, string(f.Source.Type), f.Source.Authority, f.Supersedes, f.SupersededBy, c.Text} {
		str(s)
	}
	tm(f.ValidFrom)
	tm(f.RecordedAt)
	if f.ValidTo != nil {
		tm(*f.ValidTo)
	}
	if f.SupersededAt != nil {
		tm(*f.SupersededAt)
	}
	if f.NeedsReviewAt != nil {
		tm(*f.NeedsReviewAt)
	}
	if f.RestrictedTo != nil {
		r, err := json.Marshal(f.RestrictedTo)
		if err != nil {
			return nil, fmt.Errorf("facts: encode card: %w", err)
		}
		str(string(r))
	}
	if f.Forgotten != nil {
		str(f.Forgotten.By)
		tm(f.Forgotten.At)
	}
	if f.Stale != nil {
		str(f.Stale.Reason)
		str(f.Stale.ReplacedBy)
		tm(f.Stale.At)
	}
	if f.Source.Turn != "" && f.Source.Sentence != nil {
		str(f.Source.Turn)
		b = binary.AppendUvarint(b, uint64(*f.Source.Sentence))
	}
	return b, nil
}

// errBadCard reports a card that cannot be decoded.
var errBadCard = errors.New("facts: malformed card")

// decodeCard decodes the encoded card b; ok is false for a card of
// another version. The card's strings are substrings of b (no copies), so
// a card decoded from a string kept in memory allocates only for its
// optional parts. restriction decodes the JSON of a read restriction; nil
// unmarshals it.
func decodeCard(b string, restriction func(string) (*permissions.Restriction, error)) (c Card, ok bool, err error) {
	if len(b) == 0 || b[0] != cardVersion {
		return Card{}, false, nil
	}
	d := cardDecoder{b: b[1:]}
	bits := d.uvarint()
	f := &c.Fact
	f.ID, f.Key, f.Scope, f.ScopeID, f.ConstraintType = d.str(), d.str(), Scope(d.str()), d.str(), d.str()
	f.Source.Type, f.Source.Authority = SourceType(d.str()), d.str()
	f.Supersedes, f.SupersededBy, c.Text = d.str(), d.str(), d.str()
	f.IsConstraint = bits&cardConstraint != 0
	f.ValidFrom, f.RecordedAt = d.time(), d.time()
	if bits&(cardValidTo|cardSupersededAt|cardNeedsReview) != 0 {
		// The optional times share one allocation.
		var t [3]time.Time
		at := func(bit uint64, i int) *time.Time {
			if bits&bit == 0 {
				return nil
			}
			t[i] = d.time()
			return &t[i]
		}
		f.ValidTo, f.SupersededAt, f.NeedsReviewAt = at(cardValidTo, 0), at(cardSupersededAt, 1), at(cardNeedsReview, 2)
	}
	if bits&cardRestricted != 0 {
		r := d.str()
		if restriction == nil {
			restriction = unmarshalRestriction
		}
		if d.bad {
			return Card{}, false, errBadCard
		}
		if f.RestrictedTo, err = restriction(r); err != nil {
			return Card{}, false, errors.Join(errBadCard, err)
		}
	}
	if bits&cardForgotten != 0 {
		f.Forgotten = &Tombstone{By: d.str()}
		f.Forgotten.At = d.time()
	}
	if bits&cardStale != 0 {
		f.Stale = &Staleness{Reason: d.str(), ReplacedBy: d.str()}
		f.Stale.At = d.time()
	}
	if bits&cardSaid != 0 {
		f.Source.Turn = d.str()
		n := int(min(d.uvarint(), 1<<20))
		f.Source.Sentence = &n
	}
	if d.bad || len(d.b) != 0 {
		return Card{}, false, errBadCard
	}
	return c, true, nil
}

// unmarshalRestriction decodes a read restriction's JSON.
func unmarshalRestriction(s string) (*permissions.Restriction, error) {
	var r permissions.Restriction
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// cardDecoder reads the fields of an encoded card in order; bad is set
// once a field runs past the end or is malformed, and every later read
// returns a zero value.
type cardDecoder struct {
	b   string
	bad bool
}

func (d *cardDecoder) uvarint() uint64 {
	var v uint64
	for i, shift := 0, 0; i < len(d.b) && i < binary.MaxVarintLen64; i, shift = i+1, shift+7 {
		c := d.b[i]
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				break // overflows 64 bits, as binary.Uvarint says
			}
			d.b = d.b[i+1:]
			return v | uint64(c)<<shift
		}
		v |= uint64(c&0x7f) << shift
	}
	d.bad = true
	return 0
}

func (d *cardDecoder) str() string {
	n := d.uvarint()
	if d.bad || n > uint64(len(d.b)) {
		d.bad = true
		return ""
	}
	s := d.b[:n]
	d.b = d.b[n:]
	return s
}

// time reads a time as encodeCard writes it (zig-zag varint seconds,
// uvarint nanoseconds), in UTC.
func (d *cardDecoder) time() time.Time {
	u := d.uvarint()
	sec := int64(u >> 1)
	if u&1 != 0 {
		sec = ^sec
	}
	ns := d.uvarint()
	if d.bad || ns >= uint64(time.Second) {
		d.bad = true
		return time.Time{}
	}
	return time.Unix(sec, int64(ns)).UTC()
}

// putCard writes the card of f, and a new card epoch of sp, in tx. The
// epoch is a blind write: concurrent writers do not conflict on it.
func putCard(tx *store.Txn, sp tenancy.Space, f Fact) error {
	b, err := encodeCard(CardOf(f))
	if err != nil {
		return err
	}
	if err := tx.PutRaw(sp, store.TableFactCard, store.Suffix(nil).Raw(f.ID), b); err != nil {
		return err
	}
	return TouchEpoch(tx, sp)
}

// TouchEpoch writes a new card epoch of sp in tx: a fresh random value,
// written blindly (concurrent writers do not conflict on it on Badger).
// Every card write calls it; package search calls it too with every
// change of a space's corpus statistics (its document counts and lengths,
// its read classes), whose cached sums it keeps under the same epoch, so
// that a fact write stores one version record, not two. Several calls in
// one transaction leave one record.
func TouchEpoch(tx *store.Txn, sp tenancy.Space) error {
	return tx.TouchEpoch(sp, store.TableFactCardEpoch)
}

// EpochTx returns the card epoch of sp as tx sees it; "" when the space
// has none (no card written since epochs exist).
func EpochTx(tx *store.Txn, sp tenancy.Space) (string, error) {
	return tx.Epoch(sp, store.TableFactCardEpoch)
}

// Cards reads cards through a bounded in-memory cache. A space's cached
// cards are used only while the card epoch the reader's snapshot holds is
// the one they were read under: every card write changes the epoch in the
// same transaction, so the cache never answers differently from the
// store. It suits read-mostly spaces; a space written between two reads is
// read again. It is safe for concurrent use.
//
// It keeps each card in its encoding, one string, and decodes it on every
// read into substrings of it: a decoded Card is about 600 bytes of
// pointers and strings the collector would scan on every cycle (at 100,000
// facts the cards an assembly reads were a third of the heap it scans),
// the encoding 100–200 bytes it does not look into.
type Cards struct {
	mu     sync.Mutex
	spaces map[tenancy.Space]*spaceCards
	n      int    // cards cached over all spaces
	gens   uint32 // the spaceCards made, for their gen
	// restrictions holds the read restrictions of cached cards, decoded,
	// by their JSON: a few distinct ones serve many facts, and decoding
	// one per read would cost more than the rest of the card.
	restrictions map[string]*permissions.Restriction
}

type spaceCards struct {
	epoch string
	gen   uint32            // unique in its Cards, for CardSlot
	cards map[string]uint32 // fact ID -> its index in encs
	encs  []string          // encoded cards, in the order cached
}

// CardSlot remembers where a Cards keeps one fact's card, for ReadSlot: a
// caller that reads the same fact's card again and again (the fact source,
// for the facts its remembered postings name) finds it without a lookup in
// the space's map of cards (about 65,000 entries at most, a lookup that
// misses the processor's caches). It holds no pointer, and is safe for
// concurrent use. The zero CardSlot remembers nothing.
type CardSlot struct{ v atomic.Uint64 }

// slot returns the value of a CardSlot naming index i of s.
func (s *spaceCards) slot(i uint32) uint64 { return uint64(s.gen)<<32 | uint64(i+1) }

// at returns the encoding slot names in s, if it names one of s's.
func (s *spaceCards) at(slot uint64) (string, bool) {
	i := uint32(slot)
	if slot == 0 || uint32(slot>>32) != s.gen || i == 0 || int(i) > len(s.encs) {
		return "", false
	}
	return s.encs[i-1], true
}

// maxCachedCards bounds the cards a Cards holds (100–200 bytes each, and
// their map entries), and maxRestrictions the restrictions.
const (
	maxCachedCards  = 1 << 16
	maxRestrictions = 1 << 10
)

// NewCards returns an empty card cache.
func NewCards() *Cards {
	return &Cards{spaces: map[tenancy.Space]*spaceCards{}, restrictions: map[string]*permissions.Restriction{}}
}

// Epoch returns the card epoch of sp as tx sees it, for Read; "" when the
// space has none (no card written since epochs exist).
func (cs *Cards) Epoch(tx *store.Txn, sp tenancy.Space) (string, error) {
	return EpochTx(tx, sp)
}

// Read returns ReadCard(tx, sp, id), from the cache when it holds the
// card under epoch, the space's epoch in tx (from Epoch). With no epoch
// nothing is cached.
func (cs *Cards) Read(tx *store.Txn, sp tenancy.Space, epoch, id string) (Card, error) {
	return cs.ReadSlot(tx, sp, epoch, id, nil)
}

// ReadSlot is Read, for a caller that remembers in slot (nil: none) where
// the card of id is kept: a slot set by an earlier ReadSlot of the same id
// finds it without a map lookup while it is kept, and ReadSlot sets it
// again whenever it finds or keeps the card elsewhere. A slot must be
// used for one fact ID only.
func (cs *Cards) ReadSlot(tx *store.Txn, sp tenancy.Space, epoch, id string, slot *CardSlot) (Card, error) {
	if epoch == "" {
		return ReadCard(tx, sp, id)
	}
	cs.mu.Lock()
	enc, ok, bySlot := "", false, false
	if s := cs.spaces[sp]; s != nil && s.epoch == epoch {
		if slot != nil {
			enc, ok = s.at(slot.v.Load())
			bySlot = ok
		}
		if !ok {
			var i uint32
			if i, ok = s.cards[id]; ok {
				enc = s.encs[i]
				if slot != nil {
					slot.v.Store(s.slot(i))
				}
			}
		}
	}
	cs.mu.Unlock()
	if ok {
		// It decoded when it was cached.
		c, _, err := decodeCard(enc, cs.restriction)
		if bySlot && (err != nil || c.Fact.ID != id) {
			// Not id's card (a slot of another fact's, or of an older
			// generation whose number came round again): look id up.
			slot.v.Store(0)
			return cs.ReadSlot(tx, sp, epoch, id, slot)
		}
		return c, err
	}
	enc, err := readEncodedCard(tx, sp, id)
	if err != nil || enc == "" {
		// A card made from the record is not cached (only facts written
		// before cards existed have none).
		return recordCard(tx, sp, id, err)
	}
	c, _, err := decodeCard(enc, cs.restriction)
	if err != nil {
		return Card{}, err
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	s := cs.spaces[sp]
	if s != nil && s.epoch != epoch {
		cs.n -= len(s.cards)
		s = nil
	}
	if cs.n >= maxCachedCards {
		clear(cs.spaces)
		cs.n, s = 0, nil
	}
	if s == nil {
		cs.gens++
		s = &spaceCards{epoch: epoch, gen: cs.gens, cards: map[string]uint32{}}
		cs.spaces[sp] = s
	}
	i, ok := s.cards[id]
	if !ok {
		if c.Fact.ID == id {
			id = c.Fact.ID // the key shares the encoding's bytes
		}
		i = uint32(len(s.encs))
		s.cards[id] = i
		s.encs = append(s.encs, enc)
		cs.n++
	}
	if slot != nil {
		slot.v.Store(s.slot(i))
	}
	return c, nil
}

// restriction decodes a cached card's read restriction, remembered by its
// JSON; the restriction is shared: callers must not modify it.
func (cs *Cards) restriction(js string) (*permissions.Restriction, error) {
	cs.mu.Lock()
	r, ok := cs.restrictions[js]
	cs.mu.Unlock()
	if ok {
		return r, nil
	}
	r, err := unmarshalRestriction(js)
	if err != nil {
		return nil, err
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if len(cs.restrictions) >= maxRestrictions {
		clear(cs.restrictions)
	}
	cs.restrictions[js] = r
	return r, nil
}

// ReadCard returns the card of fact id in space sp, or store.ErrNotFound.
// A fact written before cards existed has none: its card is made from the
// record.
func ReadCard(tx *store.Txn, sp tenancy.Space, id string) (Card, error) {
	enc, err := readEncodedCard(tx, sp, id)
	if err != nil || enc == "" {
		return recordCard(tx, sp, id, err)
	}
	c, _, err := decodeCard(enc, nil)
	return c, err
}

// readEncodedCard returns the stored encoding of fact id's card in space
// sp, as a string; "" when the fact has no card of this version (then it
// is made from the record: recordCard), or store.ErrNotFound.
func readEncodedCard(tx *store.Txn, sp tenancy.Space, id string) (string, error) {
	b, err := tx.GetRaw(sp, store.TableFactCard, store.Suffix(nil).Raw(id))
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return "", nil
		}
		return "", err
	}
	if len(b) == 0 || b[0] != cardVersion {
		return "", nil
	}
	return string(b), nil
}

// recordCard returns the card of fact id in sp made from its record, for a
// fact with no card of this version; err is readEncodedCard's.
func recordCard(tx *store.Txn, sp tenancy.Space, id string, err error) (Card, error) {
	if err != nil {
		return Card{}, err
	}
	var f Fact
	if err := tx.Get(sp, store.TableFact, store.Suffix(nil).Raw(id), &f); err != nil {
		return Card{}, err
	}
	return CardOf(f), nil
}
