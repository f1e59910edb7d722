package conflicts

import (
	"time"

	"github.com/stategraph/stategraph/store"
)

// ChangeKind says what happened to a conflict.
type ChangeKind string

// The change kinds.
const (
	// ChangeOpened: a new OPEN conflict was recorded.
	ChangeOpened ChangeKind = "OPENED"
	// ChangeDecided: a conflict was resolved by a decision (a caller's or
	// a policy's).
	ChangeDecided ChangeKind = "DECIDED"
)

// Change is a conflict opened or decided, told to Service.OnChange after
// its transaction commits. It names the conflict; readers load it with
// their own permissions.
type Change struct {
	Kind ChangeKind
	ID   string
	Org  string
	At   time.Time
}

// changed tells OnChange, once tx commits, that conflict id changed.
func (s *Service) changed(tx *store.Txn, kind ChangeKind, id string, at time.Time) {
	if s.OnChange == nil {
		return
	}
	on, c := s.OnChange, Change{Kind: kind, ID: id, Org: tx.Partition().Org(), At: at}
	tx.AfterCommit(func() { on(c) })
}
