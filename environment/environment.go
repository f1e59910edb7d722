// Package environment keeps layer 4 of the context: entries set by
// callers (per organization or per user), HTTP providers called fresh at
// every assembly, and the current time, date and timezone.
//
// For each key the freshest entry (latest at) that has not expired wins;
// an expired entry is dropped and reported. Entries are never updated in
// place: a set adds one, so any past state can be read back.
package environment

import (
	"cmp"
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // timezone names resolve on hosts without zoneinfo
	"unicode/utf8"

	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/ids"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// Limits.
const (
	MaxEntries  = 100
	MaxValueLen = 4 << 10
)

// Reserved keys: always present, computed at assembly.
const (
	KeyNow      = "now"
	KeyDate     = "date"
	KeyTimezone = "timezone" // may be set; UTC otherwise
)

var keyPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`)

// Scope says whose entry it is.
type Scope string

// The scopes.
const (
	ScopeOrganization Scope = "ORGANIZATION" // shared by the organization
	ScopeUser         Scope = "USER"         // the caller's own
)

// Entry is a stored environment value.
type Entry struct {
	ID         string     `json:"id"`
	Key        string     `json:"key"`
	Value      string     `json:"value"`
	Scope      Scope      `json:"scope"`
	At         time.Time  `json:"at"`
	ExpiresAt  *time.Time `json:"expiresAt,omitempty"`
	RecordedAt time.Time  `json:"recordedAt"`
	// SupersededAt and SupersededBy record that a conversation turn
	// replaced the signal (transaction time, and the turn's id).
	SupersededAt *time.Time `json:"supersededAt,omitempty"`
	SupersededBy string     `json:"supersededBy,omitempty"`
}

// Record returns the entry's times for the view rule: valid from its
// observation At until ExpiresAt, recorded at RecordedAt, retired when a
// turn replaced it (an end at the replacement's own time).
func (e Entry) Record() temporal.Record {
	r := temporal.Record{Valid: temporal.Interval{From: e.At, To: e.ExpiresAt}, RecordedAt: e.RecordedAt}
	if e.SupersededAt != nil {
		r.Retirement = temporal.Ended(*e.SupersededAt)
	}
	return r
}

// superseded reports whether view v knows that e was replaced.
func (e Entry) superseded(v temporal.View) bool { return v.Retired(e.Record()) }

// space returns the space e lives in, of partition p.
func (e Entry) space(p tenancy.Partition) tenancy.Space {
	if e.Scope == ScopeOrganization {
		return p.Shared()
	}
	return p.Private()
}

func (e Entry) key() store.Suffix { return store.Suffix(nil).Str(e.Key).Time(e.At).Str(e.ID) }

// SupersedeTx records, inside tx, that turn by replaced entry e at now. The
// entry stays readable in views of the past.
func SupersedeTx(tx *store.Txn, e Entry, by string, now time.Time) error {
	at := now
	e.SupersededAt, e.SupersededBy = &at, by
	return tx.Put(e.space(tx.Partition()), store.TableEnvironment, e.key(), e, 0)
}

// Expired reports whether e has expired at now.
func (e Entry) Expired(now time.Time) bool { return e.Record().Valid.Ended(now) }

// Input is an entry to set.
type Input struct {
	Key       string
	Value     string
	Scope     Scope      // default ScopeUser
	At        *time.Time // when the value was observed; default now
	ExpiresAt *time.Time
}

// Service stores environment entries. It is safe for concurrent use.
type Service struct {
	store *store.Store
	clock temporal.Clock
	ids   *ids.Generator
}

// NewService returns a Service.
func NewService(st *store.Store, clock temporal.Clock) *Service {
	return &Service{store: st, clock: clock}
}

// WithIDs makes the service's entry ids with g (nil: ulid.Make) and
// returns the service.
func (s *Service) WithIDs(g *ids.Generator) *Service { s.ids = g; return s }

func validate(i int, in Input) error {
	field := func(f string) string { return "input[" + itoa(i) + "]." + f }
	switch {
	case !keyPattern.MatchString(in.Key):
		return fault.BadInputf(field("key"), "key %q is not valid: use 1 to 128 letters, digits and . _ : -", in.Key)
	case in.Key == KeyNow || in.Key == KeyDate:
		return fault.BadInputf(field("key"), "key %q is reserved: the service sets it at assembly", in.Key)
	case len(in.Value) > MaxValueLen || !utf8.ValidString(in.Value) || strings.TrimSpace(in.Value) == "":
		return fault.BadInputf(field("value"), "value must be non-empty valid UTF-8 of at most %d bytes", MaxValueLen)
	case in.Scope != "" && in.Scope != ScopeOrganization && in.Scope != ScopeUser:
		return fault.BadInputf(field("scope"), "unknown scope %q", in.Scope)
	case in.At != nil && temporal.Check(*in.At) != nil:
		return fault.BadInputf(field("at"), "at is out of range")
	case in.ExpiresAt != nil && temporal.Check(*in.ExpiresAt) != nil:
		return fault.BadInputf(field("expiresAt"), "expiresAt is out of range")
	}
	if in.Key == KeyTimezone {
		if _, err := time.LoadLocation(in.Value); err != nil || in.Value == "" || in.Value == "Local" {
			return fault.BadInputf(field("value"), "timezone %q is not an IANA time zone name", in.Value)
		}
	}
	return nil
}

func itoa(i int) string { return strconv.Itoa(i) }

// Set stores entries for the caller, all in one transaction.
func (s *Service) Set(ctx context.Context, in []Input) ([]Entry, error) {
	if len(in) == 0 || len(in) > MaxEntries {
		return nil, fault.BadInputf("input", "give between 1 and %d entries", MaxEntries)
	}
	now := s.clock.Now()
	out := make([]Entry, len(in))
	for i, e := range in {
		if err := validate(i, e); err != nil {
			return nil, err
		}
		out[i] = Entry{ID: s.ids.New("V-"), Key: e.Key, Value: e.Value, Scope: cmp.Or(e.Scope, ScopeUser), At: now, RecordedAt: now}
		if e.At != nil {
			out[i].At = e.At.UTC()
		}
		if e.ExpiresAt != nil {
			t := e.ExpiresAt.UTC()
			if !t.After(out[i].At) {
				return nil, fault.BadInputf("input["+itoa(i)+"].expiresAt", "expiresAt must be after at")
			}
			out[i].ExpiresAt = &t
		}
	}
	_, p, err := tenancy.Caller(ctx)
	if err != nil {
		return nil, err
	}
	err = s.store.Update(ctx, p, func(tx *store.Txn) error {
		for _, e := range out {
			var ttl time.Duration
			if e.ExpiresAt != nil {
				// Badger forgets the entry a day after it expires; reads
				// drop it at expiry against the service clock.
				ttl = max(e.ExpiresAt.Sub(now), 0) + 24*time.Hour
			}
			if err := tx.Put(e.space(p), store.TableEnvironment, e.key(), e, ttl); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Current is the environment as a view knows it at one time, key by key.
type Current struct {
	// Live holds, for each key, the freshest entry that has not expired
	// nor been replaced by a turn (sorted by key).
	Live []Entry
	// Expired and Superseded (replaced by a turn) are the entries fresher
	// than a key's live one, or the only ones of their key.
	Expired, Superseded []Entry
	// Replaced are the older entries of a key whose value a fresher entry
	// changed (at most MaxReplaced per key, freshest first): the key's
	// past values, which a context leaves out.
	Replaced []Entry
}

// MaxReplaced bounds Current.Replaced per key.
const MaxReplaced = 8

// CurrentTx reads the environment of tx's partition as v knows it at now.
func CurrentTx(tx *store.Txn, v temporal.View, now time.Time) (Current, error) {
	var all []Entry
	p := tx.Partition()
	for _, sp := range []tenancy.Space{p.Private(), p.Shared()} {
		err := tx.Scan(sp, store.TableEnvironment, nil, store.ScanOptions{}, func(_ []byte, it store.Item) (bool, error) {
			var e Entry
			if err := it.Decode(&e); err != nil {
				return false, err
			}
			if r := e.Record(); v.Knows(r) && !r.Valid.From.After(now) {
				all = append(all, e)
			}
			return true, nil
		})
		if err != nil {
			return Current{}, err
		}
	}
	// Freshest first: latest at, then latest recorded, then id.
	slices.SortFunc(all, func(a, b Entry) int {
		return cmp.Or(strings.Compare(a.Key, b.Key), b.At.Compare(a.At), b.RecordedAt.Compare(a.RecordedAt), strings.Compare(b.ID, a.ID))
	})
	var c Current
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].Key == all[i].Key {
			j++
		}
		for n, e := range all[i:j] {
			if e.superseded(v) {
				c.Superseded = append(c.Superseded, e)
				continue
			}
			if e.Expired(now) {
				c.Expired = append(c.Expired, e)
				continue
			}
			c.Live = append(c.Live, e)
			kept := 0
			for _, old := range all[i+n+1 : j] {
				if old.Value != e.Value && kept < MaxReplaced {
					c.Replaced = append(c.Replaced, old)
					kept++
				}
			}
			break
		}
		i = j
	}
	return c, nil
}

// Clock returns the always-present entries for time t: now (RFC 3339 in
// the zone), date (weekday and ISO date) and timezone, from the timezone
// entry tz when it names a zone, else UTC.
func Clock(t time.Time, tz string) map[string]string {
	loc := time.UTC
	if l, err := time.LoadLocation(tz); tz != "" && err == nil {
		loc = l
	}
	lt := t.In(loc)
	return map[string]string{
		KeyNow:      lt.Format(time.RFC3339),
		KeyDate:     lt.Format("2006-01-02 (Mon)"),
		KeyTimezone: loc.String(),
	}
}
