// Package audit keeps the audit trail: an append-only log of who did what
// to which record, and when, written in the same transaction as the change
// it records.
package audit

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/ids"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// Entry is one audited act.
type Entry struct {
	ID     string    `json:"id"`
	At     time.Time `json:"at"`
	Actor  string    `json:"actor"`
	Action string    `json:"action"` // e.g. REVOKED, EXPIRED, FORGOTTEN, RESOLVED
	// Record is the id of the record acted on; Kind is its kind (fact,
	// assertion, conflict, ...).
	Record string `json:"record"`
	Kind   string `json:"kind"`
	// By names the record that caused the act, when one did (the
	// assertion that revoked another, the decision that resolved a
	// conflict).
	By     string `json:"by,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// Actor returns how an identity is named in the trail.
func Actor(id authority.Identity) string {
	if id.UserName != "" {
		return id.UserName + " (" + id.UserID + ")"
	}
	return id.UserID
}

// NewID returns a fresh audit entry id made by g.
func NewID(g *ids.Generator) string { return g.New("AU-") }

// Record appends e to the trail of space sp inside tx. An empty ID is
// assigned (ulid.Make); services set it with NewID, from their generator.
func Record(tx *store.Txn, sp tenancy.Space, e Entry) error {
	if e.Record == "" || e.Action == "" || e.At.IsZero() {
		return errors.New("audit: entry needs a record, an action and a time")
	}
	if e.ID == "" {
		e.ID = NewID(nil)
	}
	if err := tx.PutRaw(sp, store.TableAudit, store.Suffix(nil).Time(e.At).Raw(e.ID), appendEntry(nil, e)); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return tx.Put(sp, store.TableAuditByRec, store.Suffix(nil).Str(e.Record).Time(e.At).Raw(e.ID), nil, 0)
}

// kindOfID names the kind of record an id is, by the prefix the service
// mints it with; any other id is a fact's (a client chooses fact ids).
func kindOfID(id string) string {
	prefix, _, _ := strings.Cut(id, "-")
	switch prefix {
	case "CF":
		return "conflict"
	case "DC":
		return "decision"
	case "ST":
		return "assertion"
	case "CR":
		return "consolidationRun"
	case "T", "AU", "WI", "EV":
		return prefix
	}
	return "fact"
}

// Trail reads audit entries.
type Trail struct {
	store *store.Store
	// visible, by record kind, says whether the caller may see a record;
	// the entries about a record it may not see are not returned.
	visible map[string]func(ctx context.Context, id string) (bool, error)
}

// NewTrail returns a Trail over st.
func NewTrail(st *store.Store) *Trail { return &Trail{store: st} }

// WithVisibility returns a copy of t that hides the entries about records
// of kind that visible says the caller may not see (a restricted fact), so
// that the trail of such a record looks like that of no record at all. The
// By of an entry about a record of kind names a record of kind too (the
// fact that superseded a fact) or another kind with a visibility (the
// decision that revoked it): one the caller may not see is left out of
// the entry, which then reads as if no record had caused the act.
func (t *Trail) WithVisibility(kind string, visible func(ctx context.Context, id string) (bool, error)) *Trail {
	c := &Trail{store: t.store, visible: map[string]func(context.Context, string) (bool, error){}}
	for k, v := range t.visible {
		c.visible[k] = v
	}
	c.visible[kind] = visible
	return c
}

// ForRecord returns the entries about record id in every space the caller
// of ctx can read, oldest first, as they stood in v: an entry is an event
// (temporal.View.Happened), present when done by v.AsOf and recorded by
// v.KnownAt.
func (t *Trail) ForRecord(ctx context.Context, id string, v temporal.View) ([]Entry, error) {
	p, err := tenancy.FromContext(ctx)
	if err != nil {
		return nil, err
	}
	var out []Entry
	err = t.store.View(ctx, p, func(tx *store.Txn) error {
		for _, sp := range p.Spaces() {
			type key struct {
				at time.Time
				id string
			}
			var keys []key
			err := tx.Scan(sp, store.TableAuditByRec, store.Suffix(nil).Str(id), store.ScanOptions{KeysOnly: true},
				func(suffix []byte, _ store.Item) (bool, error) {
					r := store.NewReader(suffix)
					r.Str()
					at := r.Time()
					if !v.Happened(at) { // entries are in time order
						return false, r.Err()
					}
					keys = append(keys, key{at, r.Rest()})
					return true, r.Err()
				})
			if err != nil {
				return err
			}
			for _, k := range keys {
				err := tx.ReadRaw(sp, store.TableAudit, store.Suffix(nil).Time(k.at).Raw(k.id), func(b []byte) error {
					e, err := decodeEntry(k.at, k.id, b)
					out = append(out, e)
					return err
				})
				if err != nil {
					return fmt.Errorf("audit: %w", err)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	shown := out[:0]
	for _, e := range out {
		if vis, ok := t.visible[e.Kind]; ok {
			see, err := vis(ctx, e.Record)
			if err != nil {
				return nil, err
			}
			if !see {
				continue
			}
		}
		if e.By != "" {
			// By names a record of its own kind (a fact that superseded a
			// fact, the decision that revoked it): one the caller may not
			// see is left out of the entry.
			if vis, ok := t.visible[kindOfID(e.By)]; ok {
				see, err := vis(ctx, e.By)
				if err != nil {
					return nil, err
				}
				if !see {
					e.By = ""
				}
			}
		}
		shown = append(shown, e)
	}
	out = shown
	slices.SortFunc(out, func(a, b Entry) int {
		if c := a.At.Compare(b.At); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, err
}
