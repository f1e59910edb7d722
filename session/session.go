// Package session keeps the working set (layer 3) of a user's session:
// items with a time to live, the conversation's turns, and, once the
// session's objective is complete, the transcript the rest is archived to.
//
// Everything lives in the caller's private space, keyed by session id, so
// a session is visible to its user only. Items are versioned (a put adds a
// version; the latest version known at a time wins) and expire at read
// time against the service clock; Badger's TTL removes them a grace
// period later. The transcript is auditable but never read for context.
package session

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/evidence"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/ids"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// Limits and defaults.
const (
	DefaultTTL   = 24 * time.Hour
	MaxTTL       = 30 * 24 * time.Hour
	MaxValueLen  = 16 << 10
	MaxTurnLen   = 32 << 10
	MaxPromote   = 100
	cleanupGrace = 24 * time.Hour // Badger keeps expired records this long, so reads can report them
)

// ItemType is the type of a working-set item.
type ItemType string

// The item types.
const (
	ItemObjective     ItemType = "OBJECTIVE"
	ItemArtifact      ItemType = "ARTIFACT"
	ItemQuestion      ItemType = "QUESTION"
	ItemPendingAction ItemType = "PENDING_ACTION"
	ItemContext       ItemType = "CONTEXT"
)

// Valid reports whether t is a known item type.
func (t ItemType) Valid() bool {
	switch t {
	case ItemObjective, ItemArtifact, ItemQuestion, ItemPendingAction, ItemContext:
		return true
	}
	return false
}

// Speaker says who spoke a turn.
type Speaker string

// The speakers.
const (
	SpeakerUser      Speaker = "USER"
	SpeakerAssistant Speaker = "ASSISTANT"
)

// Valid reports whether s is a known speaker.
func (s Speaker) Valid() bool { return s == SpeakerUser || s == SpeakerAssistant }

// Item is one version of a working-set item.
type Item struct {
	ID         string      `json:"id"`
	SessionID  string      `json:"sessionId"`
	Key        string      `json:"key"`
	Value      string      `json:"value"`
	ItemType   ItemType    `json:"itemType"`
	Scope      facts.Scope `json:"scope"`
	Priority   int         `json:"priority"`
	RecordedAt time.Time   `json:"recordedAt"`
	ExpiresAt  time.Time   `json:"expiresAt"`
}

// Expired reports whether the item has expired at now.
func (it Item) Expired(now time.Time) bool {
	return temporal.Interval{From: it.RecordedAt, To: &it.ExpiresAt}.Ended(now)
}

// Turn is one conversation turn of a session.
type Turn struct {
	ID        string  `json:"id"`
	SessionID string  `json:"sessionId"`
	Speaker   Speaker `json:"speaker"`
	// SpeakerID names who spoke, when the turn said (speakerId).
	SpeakerID  string    `json:"speakerId,omitempty"`
	Text       string    `json:"text"`
	At         time.Time `json:"at"`
	RecordedAt time.Time `json:"recordedAt"`
	ExpiresAt  time.Time `json:"expiresAt"`
	// Facts are the ids of the facts extracted from the turn.
	Facts []string `json:"facts,omitempty"`
	// Omit are the sentences of Text that are not replayed: their
	// statement became a fact (the fact carries it), or they assert
	// nothing real (hypothetical, negated, declined, past, ...).
	Omit []string `json:"omit,omitempty"`
	// Scope is the reach of the turn's content: HYPOTHETICAL and DRAFT
	// turns are never presented as real. Empty means GLOBAL.
	Scope facts.Scope `json:"scope,omitempty"`
	// Superseded is set by supersession detection when the turn's
	// content was replaced; a superseded turn is never replayed.
	Superseded   bool       `json:"superseded,omitempty"`
	SupersededBy string     `json:"supersededBy,omitempty"`
	SupersededAt *time.Time `json:"supersededAt,omitempty"` // transaction time
}

// SupersededIn reports whether view v knows that the turn was superseded.
func (t Turn) SupersededIn(v temporal.View) bool {
	if t.SupersededAt == nil { // written before supersessions carried a time
		return t.Superseded
	}
	return t.Superseded && v.Retired(temporal.Record{RecordedAt: t.RecordedAt, Retirement: temporal.Ended(*t.SupersededAt)})
}

// Expired reports whether the turn has expired at now.
func (t Turn) Expired(now time.Time) bool {
	return temporal.Interval{From: t.At, To: &t.ExpiresAt}.Ended(now)
}

// sessionRecord is the value of store.TableSession.
type sessionRecord struct {
	CreatedAt   time.Time  `json:"createdAt"`
	CompletedAt *time.Time `json:"completedAt,omitempty"`
}

// turnRef is the value of store.TableTurnByID.
type turnRef struct {
	SessionID string    `json:"sessionId"`
	At        time.Time `json:"at"`
}

// Service reads and writes sessions. It is safe for concurrent use.
type Service struct {
	store *store.Store
	clock temporal.Clock
	facts FactWriter
	ids   *ids.Generator
}

// FactWriter writes a fact inside a transaction (the write pipeline).
type FactWriter interface {
	WriteTx(tx *store.Txn, caller authority.Identity, in facts.WriteInput) (facts.Fact, error)
}

// NewService returns a Service; w writes promoted facts.
func NewService(st *store.Store, clock temporal.Clock, w FactWriter) *Service {
	return &Service{store: st, clock: clock, facts: w}
}

func validSession(id string) error {
	if !facts.ValidID(id) {
		return fault.BadInputf("sessionId", "sessionId %q is not valid: use 1 to 128 letters, digits and . _ : # -, starting with a letter or digit", id)
	}
	return nil
}

func (s *Service) update(ctx context.Context, fn func(tx *store.Txn, caller authority.Identity) error) error {
	caller, p, err := tenancy.Caller(ctx)
	if err != nil {
		return err
	}
	return s.store.Update(ctx, p, func(tx *store.Txn) error { return fn(tx, caller) })
}

// touch records that the session exists.
func touch(tx *store.Txn, session string, now time.Time) error {
	sp := tx.Partition().Private()
	k := store.Suffix(nil).Str(session)
	var rec sessionRecord
	err := tx.Get(sp, store.TableSession, k, &rec)
	if err == nil && rec.CompletedAt == nil {
		return nil
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	return tx.Put(sp, store.TableSession, k, sessionRecord{CreatedAt: now}, 0)
}

// ItemInput is a working-set item to put.
type ItemInput struct {
	SessionID string
	Key       string
	Value     string
	ItemType  ItemType
	Scope     facts.Scope
	Priority  int
	TTL       time.Duration // 0: DefaultTTL
}

func (in ItemInput) validate() error {
	if err := validSession(in.SessionID); err != nil {
		return err
	}
	switch {
	case strings.TrimSpace(in.Key) == "" || len(in.Key) > facts.MaxKeyLen || !utf8.ValidString(in.Key):
		return fault.BadInputf("key", "key must be non-empty valid UTF-8 of at most %d bytes", facts.MaxKeyLen)
	case len(in.Value) > MaxValueLen || !utf8.ValidString(in.Value):
		return fault.BadInputf("value", "value must be valid UTF-8 of at most %d bytes", MaxValueLen)
	case !in.ItemType.Valid():
		return fault.BadInputf("itemType", "unknown item type %q", in.ItemType)
	case in.Scope != "" && !in.Scope.Valid():
		return fault.BadInputf("scope", "unknown scope %q", in.Scope)
	case in.TTL < 0 || in.TTL > MaxTTL || (in.TTL > 0 && in.TTL < time.Second):
		return fault.BadInputf("ttl", "ttl must be between 1 second and %d seconds", int(MaxTTL/time.Second))
	}
	return nil
}

// PutItem stores a new version of the item with in.Key in the caller's
// session.
func (s *Service) PutItem(ctx context.Context, in ItemInput) (Item, error) {
	if err := in.validate(); err != nil {
		return Item{}, err
	}
	now := s.clock.Now()
	it := Item{
		ID: s.ids.New("W-"), SessionID: in.SessionID, Key: in.Key, Value: in.Value,
		ItemType: in.ItemType, Scope: cmp.Or(in.Scope, facts.ScopeGlobal), Priority: in.Priority,
		RecordedAt: now, ExpiresAt: now.Add(cmp.Or(in.TTL, DefaultTTL)),
	}
	err := s.update(ctx, func(tx *store.Txn, _ authority.Identity) error {
		if err := touch(tx, in.SessionID, now); err != nil {
			return err
		}
		k := store.Suffix(nil).Str(it.SessionID).Str(it.Key).Time(it.RecordedAt)
		return tx.Put(tx.Partition().Private(), store.TableWorkItem, k, it, it.ExpiresAt.Sub(now)+cleanupGrace)
	})
	return it, err
}

// TurnInput is a turn to record.
type TurnInput struct {
	SessionID string
	Speaker   Speaker
	// SpeakerID names who spoke (a person of the organization); empty:
	// the caller's user for USER turns.
	SpeakerID string
	Text      string
	At        *time.Time  // default now
	Scope     facts.Scope // default GLOBAL
}

// RecordTurn stores a turn in the caller's session. Its id is "T-" and a
// ULID.
func (s *Service) RecordTurn(ctx context.Context, in TurnInput) (Turn, error) {
	var t Turn
	err := s.update(ctx, func(tx *store.Txn, _ authority.Identity) error {
		var err error
		t, err = s.RecordTurnTx(tx, in)
		return err
	})
	return t, err
}

// RecordTurnTx stores a turn inside tx, so that detection can apply what
// the turn changed in the same transaction.
func (s *Service) RecordTurnTx(tx *store.Txn, in TurnInput) (Turn, error) {
	if err := in.validate(); err != nil {
		return Turn{}, err
	}
	now := s.clock.Now()
	t := Turn{
		ID: s.ids.New("T-"), SessionID: in.SessionID, Speaker: in.Speaker, SpeakerID: in.SpeakerID, Text: in.Text,
		At: now, RecordedAt: now, ExpiresAt: now.Add(DefaultTTL), Scope: in.Scope,
	}
	if in.At != nil {
		t.At = in.At.UTC()
	}
	if err := touch(tx, in.SessionID, now); err != nil {
		return Turn{}, err
	}
	if err := putTurn(tx, t); err != nil {
		return Turn{}, err
	}
	return t, nil
}

func (in TurnInput) validate() error {
	if err := validSession(in.SessionID); err != nil {
		return err
	}
	switch {
	case !in.Speaker.Valid():
		return fault.BadInputf("speaker", "unknown speaker %q", in.Speaker)
	case in.SpeakerID != "" && !facts.ValidID(in.SpeakerID):
		return fault.BadInputf("speakerId", "speakerId %q is not valid: use 1 to 128 letters, digits and . _ : # -, starting with a letter or digit", in.SpeakerID)
	case strings.TrimSpace(in.Text) == "" || len(in.Text) > MaxTurnLen || !utf8.ValidString(in.Text):
		return fault.BadInputf("text", "text must be non-empty valid UTF-8 of at most %d bytes", MaxTurnLen)
	case in.At != nil && temporal.Check(*in.At) != nil:
		return fault.BadInputf("at", "at is out of range")
	case in.Scope != "" && !in.Scope.Valid():
		return fault.BadInputf("scope", "unknown scope %q", in.Scope)
	}
	return nil
}

func putTurn(tx *store.Txn, t Turn) error {
	sp := tx.Partition().Private()
	ttl := t.ExpiresAt.Sub(t.RecordedAt) + cleanupGrace
	if err := tx.Put(sp, store.TableTurn, turnKey(t), t, ttl); err != nil {
		return err
	}
	return tx.Put(sp, store.TableTurnByID, store.Suffix(nil).Raw(t.ID), turnRef{SessionID: t.SessionID, At: t.At}, ttl)
}

// NoteTx records on turn t the ids of the facts extracted from it, so that
// a later "that was wrong" can find them, and the sentences not to replay.
func NoteTx(tx *store.Txn, t Turn, ids, omit []string) error {
	if len(ids) == 0 && len(omit) == 0 {
		return nil
	}
	t.Facts = append(t.Facts, ids...)
	t.Omit = append(t.Omit, omit...)
	return putTurn(tx, t)
}

// Replay is the turn's text as replayed: without its Omit sentences.
func (t Turn) Replay() string {
	if len(t.Omit) == 0 {
		return t.Text
	}
	text := t.Text
	for _, s := range t.Omit {
		text = strings.Replace(text, s, "", 1)
	}
	// Keep the lines as said, less those left empty (or only a list
	// marker); spaces where a sentence was cut collapse.
	var lines []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.Join(strings.Fields(line), " ")
		if strings.Trim(line, "-*+•0123456789.) ") == "" {
			continue
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// SupersedeTurnTx marks turn t superseded by the record named by, so that
// it is never replayed. The turn keeps its place and its expiry.
func SupersedeTurnTx(tx *store.Txn, t Turn, by string, now time.Time) error {
	if t.Superseded {
		return nil
	}
	t.Superseded, t.SupersededBy, t.SupersededAt = true, by, &now
	return putTurn(tx, t)
}

// ItemsTx returns the items of session as known in v: for each key its
// latest version, split into live and expired at now.
func ItemsTx(tx *store.Txn, session string, v temporal.View, now time.Time) (live, expired []Item, err error) {
	latest := map[string]Item{}
	err = tx.Scan(tx.Partition().Private(), store.TableWorkItem, store.Suffix(nil).Str(session), store.ScanOptions{},
		func(_ []byte, it store.Item) (bool, error) {
			var item Item
			if err := it.Decode(&item); err != nil {
				return false, err
			}
			if v.Known(item.RecordedAt) {
				latest[item.Key] = item // keys sort by time: the last known wins
			}
			return true, nil
		})
	if err != nil {
		return nil, nil, err
	}
	for _, item := range latest {
		if item.Expired(now) {
			expired = append(expired, item)
		} else {
			live = append(live, item)
		}
	}
	byKey := func(a, b Item) int { return strings.Compare(a.Key, b.Key) }
	slices.SortFunc(live, byKey)
	slices.SortFunc(expired, byKey)
	return live, expired, nil
}

// TurnsTx returns up to limit of the most recent turns of session known in
// v, oldest first, including expired and superseded ones (the caller
// decides what to replay).
//
// Every recorded turn asks for the latest turns of its session. A reverse
// scan is the dear direction of Badger's iterators (each step searches the
// memtable's skiplist again), so TurnsTx first scans forward from a key it
// remembers from the session's previous call (turnStarts); it falls back
// to the reverse scan when that meets fewer than limit turns.
func TurnsTx(tx *store.Txn, session string, v temporal.View, limit int) ([]Turn, error) {
	sp := tx.Partition().Private()
	hint := turnStartKey{org: sp.Org(), owner: sp.Owner(), session: session}
	if limit > 0 {
		if start, ok := turnStarts.get(hint); ok {
			out, whole, err := turnsFrom(tx, sp, start, v, limit)
			if err != nil {
				return nil, err
			}
			if whole && len(out) >= limit {
				out = out[len(out)-limit:]
				turnStarts.put(hint, turnKey(out[0]))
				return out, nil
			}
		}
	}
	var out []Turn
	var first []byte // the key of the oldest turn returned
	err := tx.Scan(sp, store.TableTurn, store.Suffix(nil).Str(session), store.ScanOptions{Reverse: true},
		func(suffix []byte, it store.Item) (bool, error) {
			t, err := itemTurn(it)
			if err != nil {
				return false, err
			}
			if v.Known(t.RecordedAt) {
				out = append(out, t)
				first = append(first[:0], suffix...)
			}
			return len(out) < limit, nil
		})
	if err == nil && limit > 0 && len(out) == limit {
		turnStarts.put(hint, first)
	}
	slices.Reverse(out)
	return out, err
}

// itemTurn decodes the turn a scanned item holds.
func itemTurn(it store.Item) (t Turn, err error) {
	err = it.Value(func(raw []byte) (err error) {
		t, err = decodeTurn(raw)
		return err
	})
	return t, err
}

// turnsFrom returns the turns of a session known in v whose key is at or
// after start (a full TableTurn suffix, which names the session), oldest
// first, and whether it met every such turn (it reads at most
// maxTurnsFrom). When it did, their last n are the session's latest n, if
// it has that many. hint is how many turns to make room for at first:
// from the turn TurnsTx last started at, usually its limit or a few
// more (the turns recorded since).
func turnsFrom(tx *store.Txn, sp tenancy.Space, start []byte, v temporal.View, hint int) (out []Turn, whole bool, err error) {
	r := store.NewReader(start)
	prefix := store.Suffix(nil).Str(r.Str())
	if r.Err() != nil {
		return nil, false, nil
	}
	whole = true
	met := 0
	out = make([]Turn, 0, min(hint+4, maxTurnsFrom))
	err = tx.Scan(sp, store.TableTurn, prefix, store.ScanOptions{Start: start},
		func(suffix []byte, it store.Item) (bool, error) {
			if met++; met > maxTurnsFrom {
				whole = false
				return false, nil
			}
			t, err := itemTurn(it)
			if err != nil {
				return false, err
			}
			if v.Known(t.RecordedAt) {
				out = append(out, t)
			}
			return true, nil
		})
	return out, whole, err
}

// turnKey is the TableTurn suffix of t, as putTurn writes it.
func turnKey(t Turn) []byte { return store.Suffix(nil).Str(t.SessionID).Time(t.At).Str(t.ID) }

// maxTurnsFrom bounds turnsFrom's forward scan: a start left far behind
// (another process recorded many turns since) is not worth reading on.
const maxTurnsFrom = 256

// Completion is what CompleteObjective did.
type Completion struct {
	Promoted []facts.Fact
	Archived int
}

// CompleteObjective closes the caller's session in one transaction: the
// items named by promote (keys) become persistent facts, and every item
// and turn of the session moves to the transcript. A name that is not a
// live item of the session is BAD_USER_INPUT and nothing changes.
func (s *Service) CompleteObjective(ctx context.Context, session string, promote []string) (Completion, error) {
	if err := validSession(session); err != nil {
		return Completion{}, err
	}
	if len(promote) > MaxPromote {
		return Completion{}, fault.BadInputf("promote", "at most %d items can be promoted at once", MaxPromote)
	}
	var out Completion
	err := s.update(ctx, func(tx *store.Txn, caller authority.Identity) error {
		out = Completion{}
		now := s.clock.Now()
		sp := tx.Partition().Private()
		var rec sessionRecord
		err := tx.Get(sp, store.TableSession, store.Suffix(nil).Str(session), &rec)
		if errors.Is(err, store.ErrNotFound) || (err == nil && rec.CompletedAt != nil) {
			return fault.New(fault.NotFound, "session %q has no open working set", session)
		}
		if err != nil {
			return err
		}
		live, _, err := ItemsTx(tx, session, temporal.View{}, now)
		if err != nil {
			return err
		}
		byKey := map[string]Item{}
		for _, it := range live {
			byKey[it.Key] = it
		}
		done := map[string]string{}
		for _, key := range promote {
			it, ok := byKey[key]
			if !ok {
				return fault.BadInputf("promote", "promote names %q, which is not a live item of session %q", key, session)
			}
			if _, dup := done[key]; dup {
				continue
			}
			val, _ := json.Marshal(it.Value)
			f, err := s.facts.WriteTx(tx, caller, facts.WriteInput{Key: it.Key, Value: val, Scope: it.Scope, ReplaceKey: true})
			if err != nil {
				return err
			}
			done[key] = f.ID
			out.Promoted = append(out.Promoted, f)
		}
		n, err := archive(tx, session, now, done)
		if err != nil {
			return err
		}
		out.Archived = n
		rec.CompletedAt = &now
		return tx.Put(sp, store.TableSession, store.Suffix(nil).Str(session), rec, 0)
	})
	return out, err
}

// EntryKind says what a transcript entry was.
type EntryKind string

// The transcript entry kinds.
const (
	EntryItem EntryKind = "ITEM"
	EntryTurn EntryKind = "TURN"
)

// Entry is an archived item version or turn.
type Entry struct {
	ID         string    `json:"id"`
	Kind       EntryKind `json:"kind"`
	SessionID  string    `json:"sessionId"`
	Key        string    `json:"key,omitempty"`
	Value      string    `json:"value,omitempty"`
	ItemType   ItemType  `json:"itemType,omitempty"`
	Speaker    Speaker   `json:"speaker,omitempty"`
	Text       string    `json:"text,omitempty"`
	At         time.Time `json:"at"`
	RecordedAt time.Time `json:"recordedAt"`
	ArchivedAt time.Time `json:"archivedAt"`
	// PromotedTo is the id of the fact an item was promoted to.
	PromotedTo string `json:"promotedTo,omitempty"`
}

// archive moves every item version and turn of session to the transcript.
func archive(tx *store.Txn, session string, now time.Time, promoted map[string]string) (int, error) {
	sp := tx.Partition().Private()
	prefix := store.Suffix(nil).Str(session)
	var entries []Entry
	var itemKeys, turnKeys [][]byte
	err := tx.Scan(sp, store.TableWorkItem, prefix, store.ScanOptions{}, func(suffix []byte, it store.Item) (bool, error) {
		var item Item
		if err := it.Decode(&item); err != nil {
			return false, err
		}
		itemKeys = append(itemKeys, slices.Clone(suffix))
		entries = append(entries, Entry{
			ID: item.ID, Kind: EntryItem, SessionID: session, Key: item.Key, Value: item.Value, ItemType: item.ItemType,
			At: item.RecordedAt, RecordedAt: item.RecordedAt, ArchivedAt: now,
		})
		return true, nil
	})
	if err != nil {
		return 0, err
	}
	// Only the latest version of a promoted key carries the fact id.
	seen := map[string]bool{}
	for i := len(entries) - 1; i >= 0; i-- {
		if id, ok := promoted[entries[i].Key]; ok && !seen[entries[i].Key] {
			entries[i].PromotedTo, seen[entries[i].Key] = id, true
		}
	}
	var turnIDs []string
	err = tx.Scan(sp, store.TableTurn, prefix, store.ScanOptions{}, func(suffix []byte, it store.Item) (bool, error) {
		var t Turn
		if err := it.Decode(&t); err != nil {
			return false, err
		}
		turnKeys = append(turnKeys, slices.Clone(suffix))
		turnIDs = append(turnIDs, t.ID)
		entries = append(entries, Entry{
			ID: t.ID, Kind: EntryTurn, SessionID: session, Speaker: t.Speaker, Text: t.Text,
			At: t.At, RecordedAt: t.RecordedAt, ArchivedAt: now,
		})
		return true, nil
	})
	if err != nil {
		return 0, err
	}
	for _, e := range entries {
		if err := tx.Put(sp, store.TableTranscript, store.Suffix(nil).Str(session).Time(e.At).Str(e.ID), e, 0); err != nil {
			return 0, err
		}
	}
	for _, k := range itemKeys {
		if err := tx.Delete(sp, store.TableWorkItem, k); err != nil {
			return 0, err
		}
	}
	for _, k := range turnKeys {
		if err := tx.Delete(sp, store.TableTurn, k); err != nil {
			return 0, err
		}
	}
	for _, id := range turnIDs {
		// The transcript is never read for context: neither is the
		// turn's evidence, from now on.
		if err := evidence.RetireTurnTx(tx, id, "session:"+session, now); err != nil {
			return 0, err
		}
		if err := tx.Delete(sp, store.TableTurnByID, store.Suffix(nil).Raw(id)); err != nil {
			return 0, err
		}
	}
	return len(entries), nil
}

// Transcript returns the archived entries of the caller's session, in
// time order. It is for audit; context assembly never reads it.
func (s *Service) Transcript(ctx context.Context, session string) ([]Entry, error) {
	if err := validSession(session); err != nil {
		return nil, err
	}
	_, p, err := tenancy.Caller(ctx)
	if err != nil {
		return nil, err
	}
	out := []Entry{}
	err = s.store.View(ctx, p, func(tx *store.Txn) error {
		return tx.Scan(p.Private(), store.TableTranscript, store.Suffix(nil).Str(session), store.ScanOptions{},
			func(_ []byte, it store.Item) (bool, error) {
				var e Entry
				if err := it.Decode(&e); err != nil {
					return false, err
				}
				out = append(out, e)
				return true, nil
			})
	})
	return out, err
}
