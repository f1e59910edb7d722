package facts

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
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

// decodeCard decodes b; ok is false for a card of another version.
func decodeCard(b []byte) (c Card, ok bool, err error) {
	if len(b) == 0 || b[0] != cardVersion {
		return Card{}, false, nil
	}
	b = b[1:]
	bad := false
	uv := func() uint64 {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			bad = true
			return 0
		}
		b = b[n:]
		return v
	}
	str := func() string {
		n := uv()
		if bad || n > uint64(len(b)) {
			bad = true
			return ""
		}
		s := string(b[:n])
		b = b[n:]
		return s
	}
	tm := func() time.Time {
		sec, n := binary.Varint(b)
		if n <= 0 {
			bad = true
			return time.Time{}
		}
		b = b[n:]
		ns := uv()
		if ns >= uint64(time.Second) {
			bad = true
			return time.Time{}
		}
		return time.Unix(sec, int64(ns)).UTC()
	}
	tmp := func() *time.Time { t := tm(); return &t }
	bits := uv()
	f := &c.Fact
	f.ID, f.Key, f.Scope, f.ScopeID, f.ConstraintType = str(), str(), Scope(str()), str(), str()
	f.Source.Type, f.Source.Authority = SourceType(str()), str()
	f.Supersedes, f.SupersededBy, c.Text = str(), str(), str()
	f.IsConstraint = bits&cardConstraint != 0
	f.ValidFrom, f.RecordedAt = tm(), tm()
	if bits&cardValidTo != 0 {
		f.ValidTo = tmp()
	}
	if bits&cardSupersededAt != 0 {
		f.SupersededAt = tmp()
	}
	if bits&cardNeedsReview != 0 {
		f.NeedsReviewAt = tmp()
	}
	if bits&cardRestricted != 0 {
		var r permissions.Restriction
		if err := json.Unmarshal([]byte(str()), &r); err != nil {
			return Card{}, false, errors.Join(errBadCard, err)
		}
		f.RestrictedTo = &r
	}
	if bits&cardForgotten != 0 {
		f.Forgotten = &Tombstone{By: str()}
		f.Forgotten.At = tm()
	}
	if bits&cardStale != 0 {
		f.Stale = &Staleness{Reason: str(), ReplacedBy: str()}
		f.Stale.At = tm()
	}
	if bits&cardSaid != 0 {
		f.Source.Turn = str()
		n := int(min(uv(), 1<<20))
		f.Source.Sentence = &n
	}
	if bad || len(b) != 0 {
		return Card{}, false, errBadCard
	}
	return c, true, nil
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
	epoch := make([]byte, 12)
	_, _ = rand.Read(epoch)
	return tx.PutRaw(sp, store.TableFactCardEpoch, nil, epoch)
}

// EpochTx returns the card epoch of sp as tx sees it; "" when the space
// has none (no card written since epochs exist).
func EpochTx(tx *store.Txn, sp tenancy.Space) (string, error) {
	var epoch string
	err := tx.ReadRaw(sp, store.TableFactCardEpoch, nil, func(b []byte) error { epoch = string(b); return nil })
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	return epoch, err
}

// Cards reads cards through a bounded in-memory cache. A space's cached
// cards are used only while the card epoch the reader's snapshot holds is
// the one they were read under: every card write changes the epoch in the
// same transaction, so the cache never answers differently from the
// store. It suits read-mostly spaces; a space written between two reads is
// read again. It is safe for concurrent use.
type Cards struct {
	mu     sync.Mutex
	spaces map[tenancy.Space]*spaceCards
	n      int // cards cached over all spaces
}

type spaceCards struct {
	epoch string
	cards map[string]Card
}

// maxCachedCards bounds the cards a Cards holds (a few hundred bytes each).
const maxCachedCards = 1 << 16

// NewCards returns an empty card cache.
func NewCards() *Cards { return &Cards{spaces: map[tenancy.Space]*spaceCards{}} }

// Epoch returns the card epoch of sp as tx sees it, for Read; "" when the
// space has none (no card written since epochs exist).
func (cs *Cards) Epoch(tx *store.Txn, sp tenancy.Space) (string, error) {
	return EpochTx(tx, sp)
}

// Read returns ReadCard(tx, sp, id), from the cache when it holds the
// card under epoch, the space's epoch in tx (from Epoch). With no epoch
// nothing is cached.
func (cs *Cards) Read(tx *store.Txn, sp tenancy.Space, epoch, id string) (Card, error) {
	if epoch == "" {
		return ReadCard(tx, sp, id)
	}
	cs.mu.Lock()
	if s := cs.spaces[sp]; s != nil && s.epoch == epoch {
		if c, ok := s.cards[id]; ok {
			cs.mu.Unlock()
			return c, nil
		}
	}
	cs.mu.Unlock()
	c, err := ReadCard(tx, sp, id)
	if err != nil {
		return c, err
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
		s = &spaceCards{epoch: epoch, cards: map[string]Card{}}
		cs.spaces[sp] = s
	}
	if _, ok := s.cards[id]; !ok {
		s.cards[id] = c
		cs.n++
	}
	return c, nil
}

// ReadCard returns the card of fact id in space sp, or store.ErrNotFound.
// A fact written before cards existed has none: its card is made from the
// record.
func ReadCard(tx *store.Txn, sp tenancy.Space, id string) (Card, error) {
	b, err := tx.GetRaw(sp, store.TableFactCard, store.Suffix(nil).Raw(id))
	if err == nil {
		c, ok, err := decodeCard(b)
		if err != nil || ok {
			return c, err
		}
	} else if !errors.Is(err, store.ErrNotFound) {
		return Card{}, err
	}
	var f Fact
	if err := tx.Get(sp, store.TableFact, store.Suffix(nil).Raw(id), &f); err != nil {
		return Card{}, err
	}
	return CardOf(f), nil
}
