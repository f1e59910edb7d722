package assertions

import (
	"time"

	"github.com/stategraph/stategraph/store"
)

// ChangeKind says what happened to a state assertion.
type ChangeKind string

// The change kinds.
const (
	// ChangeAsserted: a new assertion was admitted.
	ChangeAsserted ChangeKind = "ASSERTED"
	// ChangeExpired: its lease ended (time or event).
	ChangeExpired ChangeKind = "EXPIRED"
	// ChangeInvalidated: a newer record replaced it (a newer assertion of
	// an UNTIL_CHANGED slot, a conversation turn).
	ChangeInvalidated ChangeKind = "INVALIDATED"
	// ChangePromoted: an explicit decision made it a fact.
	ChangePromoted ChangeKind = "PROMOTED"
	// ChangeRevoked: a conflict decision (a caller's or a policy's) chose
	// another candidate.
	ChangeRevoked ChangeKind = "REVOKED"
)

// Change is an assertion admitted or ended, told to Service.OnChange after
// its transaction commits. It names the assertion; readers load it with
// their own permissions.
type Change struct {
	Kind ChangeKind
	ID   string
	Org  string
	At   time.Time
}

// endKind is the change kind of an assertion ending with status st,
// decided by decisionID ("" when no decision ended it).
func endKind(st Status, decisionID string) ChangeKind {
	switch {
	case st == Expired:
		return ChangeExpired
	case st == Promoted:
		return ChangePromoted
	case decisionID != "":
		return ChangeRevoked
	default:
		return ChangeInvalidated
	}
}

// changed tells OnChange, once tx commits, that assertion id changed.
func (s *Service) changed(tx *store.Txn, kind ChangeKind, id string, at time.Time) {
	if s.OnChange == nil {
		return
	}
	on, c := s.OnChange, Change{Kind: kind, ID: id, Org: tx.Partition().Org(), At: at}
	tx.AfterCommit(func() { on(c) })
}
