package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"

	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/permissions"
	"github.com/stategraph/stategraph/store"
)

// Client-chosen ids are namespaced by the fact's read restriction, so that
// they collide only with records of the same readers: an unrestricted fact
// keeps the id it was given, a restricted one is stored under that id, the
// marker and a digest of its restriction ("deal-1#r.0f3a…"). A caller who
// may not read a restricted fact can thus take its client id for a fact of
// its own, exactly as a fresh id, and reads that fact back by the id. The
// write of a restricted fact answers the namespaced id; its readers find
// it by either (facts.Service resolves a client id to a namespaced fact
// they may read when no fact they may read holds the id itself).
//
// Facts stored before namespacing kept their client ids as given: a
// restricted one among them still holds its id.
const (
	// idMarker separates a client id from its restriction's digest. Client
	// ids may not contain it.
	idMarker = facts.RestrictedIDMarker
	// idDigestLen is the length of the digest, in hex digits.
	idDigestLen = 16
	// maxClientID is the longest client id that still fits facts.ValidID
	// once namespaced.
	maxClientID = 128 - len(idMarker) - idDigestLen
)

// namespacedID returns the id a fact given client id id is stored under,
// with read restriction r.
func namespacedID(id string, r *permissions.Restriction) string {
	if r == nil || r.Empty() {
		return id
	}
	raw, err := json.Marshal(r)
	if err != nil {
		// A Restriction is strings only: it always marshals.
		panic("pipeline: marshal restriction: " + err.Error())
	}
	sum := sha256.Sum256(raw)
	return id + idMarker + hex.EncodeToString(sum[:])[:idDigestLen]
}

// checkClientID refuses a client id that could not be namespaced.
func checkClientID(id string) error {
	switch {
	case strings.Contains(id, idMarker):
		return fault.BadInputf("id", "id %q must not contain %q, which marks the ids of restricted facts", id, idMarker)
	case len(id) > maxClientID:
		return fault.BadInputf("id", "id %q is too long: client ids have at most %d bytes", id, maxClientID)
	}
	return nil
}

// claimID gives w's fact its id: a fresh one, or the client's, namespaced
// by the fact's restriction as it stands, once no record of the caller's
// partition holds it.
func (p *Pipeline) claimID(tx *store.Txn, w *write) error {
	if w.in.ID == "" {
		w.f.ID = p.ids.New("F-")
		return nil
	}
	id := namespacedID(w.in.ID, w.f.RestrictedTo)
	if _, _, err := p.facts.Find(tx, id); err == nil {
		// Only the caller's own readers hold the namespaced id (or, for
		// a fact stored before namespacing, whoever took it then).
		return fault.New(fault.Conflict, "a fact with id %q already exists", id)
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	// A fact the caller reads by the client id, under another namespace.
	if f, _, err := p.facts.FindVisible(tx, w.caller, w.in.ID); err == nil {
		return fault.New(fault.Conflict, "a fact with id %q already exists", f.ID)
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	w.f.ID = id
	return nil
}

// reclaimID namespaces w's client id again once arbitration settled the
// fact's restriction (a successor inherits its predecessor's), and points
// the superseded fact at the new id.
func (p *Pipeline) reclaimID(tx *store.Txn, w *write) error {
	if w.in.ID == "" || w.f.ID == namespacedID(w.in.ID, w.f.RestrictedTo) {
		return nil
	}
	if err := p.claimID(tx, w); err != nil {
		return err
	}
	if w.old != nil {
		w.old.SupersededBy = w.f.ID
	}
	for _, d := range w.deps {
		if d.id == w.f.ID {
			return fault.BadInputf("dependsOn", "a fact cannot depend on itself")
		}
	}
	return nil
}
