// Package profile keeps identity profiles: per organization, one profile
// per user (display name, title, department, the manager they report to,
// communication preferences and optional DISC and OCEAN scores), written
// by a service or administrator token and read fresh by every context
// assembly. Token claims still win for authority: a profile never grants
// any.
package profile

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/stategraph/stategraph/audit"
	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/ids"
	"github.com/stategraph/stategraph/store"
	"github.com/stategraph/stategraph/temporal"
	"github.com/stategraph/stategraph/tenancy"
)

// PermWrite is the permission of an administrator token: with it a user
// or agent token may write profiles, as a service token always may.
const PermWrite = "admin:profiles"

// Limits of a profile's fields.
const (
	// MaxText bounds displayName, title, department and communicationStyle.
	MaxText = 256
	// MaxChain bounds the reporting chain walked (and returned).
	MaxChain = 64
)

// DISC holds DISC assessment scores, each 0 to 100.
type DISC struct {
	Dominance         int `json:"d"`
	Influence         int `json:"i"`
	Steadiness        int `json:"s"`
	Conscientiousness int `json:"c"`
}

// OCEAN holds Big Five (OCEAN) assessment scores, each 0 to 100.
type OCEAN struct {
	Openness          int `json:"o"`
	Conscientiousness int `json:"c"`
	Extraversion      int `json:"e"`
	Agreeableness     int `json:"a"`
	Neuroticism       int `json:"n"`
}

// Profile is one user's identity profile in an organization.
type Profile struct {
	UserID             string    `json:"userId"`
	DisplayName        string    `json:"displayName,omitempty"`
	Title              string    `json:"title,omitempty"`
	Department         string    `json:"department,omitempty"`
	ReportsTo          string    `json:"reportsTo,omitempty"`
	CommunicationStyle string    `json:"communicationStyle,omitempty"`
	DISC               *DISC     `json:"disc,omitempty"`
	OCEAN              *OCEAN    `json:"ocean,omitempty"`
	UpdatedAt          time.Time `json:"updatedAt"`
	UpdatedBy          string    `json:"updatedBy,omitempty"`
	// Stored is false for a placeholder: a manager named by reportsTo
	// who has no profile of their own (only UserID is set).
	Stored bool `json:"-"`
}

// ID returns the profile's id: its user's.
func (p Profile) ID() string { return p.UserID }

// Input is an upsertProfile request: the whole profile of UserID, which
// replaces any earlier one (a field left empty is cleared).
type Input struct {
	UserID             string
	DisplayName        string
	Title              string
	Department         string
	ReportsTo          string
	CommunicationStyle string
	DISC               *DISC
	OCEAN              *OCEAN
}

// Service writes and reads profiles. It is safe for concurrent use.
type Service struct {
	store *store.Store
	clock temporal.Clock
	ids   *ids.Generator
}

// NewService returns a Service over st.
func NewService(st *store.Store, clock temporal.Clock, g *ids.Generator) *Service {
	return &Service{store: st, clock: clock, ids: g}
}

// CanWrite reports whether id may write profiles: a service token, or a
// token holding PermWrite.
func CanWrite(id authority.Identity) bool {
	return id.Kind == authority.KindService || id.HasPermission(PermWrite)
}

// CanReadPrivate reports whether id may read the private part of the
// profile of user (communication style and assessments): the user, an
// agent acting for them (a token of the same subject), a service or an
// administrator.
func CanReadPrivate(id authority.Identity, user string) bool {
	return id.UserID == user || CanWrite(id)
}

func checkText(field, v string) error {
	switch {
	case len(v) > MaxText:
		return fault.BadInputf(field, "%s must be at most %d bytes", field, MaxText)
	case !utf8.ValidString(v):
		return fault.BadInputf(field, "%s must be valid UTF-8", field)
	case strings.ContainsAny(v, "\n\r"):
		return fault.BadInputf(field, "%s must be one line", field)
	}
	return nil
}

func checkScore(field string, v int) error {
	if v < 0 || v > 100 {
		return fault.BadInputf(field, "%s must be between 0 and 100, got %d", field, v)
	}
	return nil
}

// validate checks the shape of in; the cycle check needs the store.
func (in Input) validate() error {
	switch {
	case !facts.ValidID(in.UserID):
		return fault.BadInputf("userId", "userId %q is not valid: use 1 to 128 letters, digits and . _ : # -, starting with a letter or digit", in.UserID)
	case in.ReportsTo != "" && !facts.ValidID(in.ReportsTo):
		return fault.BadInputf("reportsTo", "reportsTo %q is not valid: use 1 to 128 letters, digits and . _ : # -, starting with a letter or digit", in.ReportsTo)
	case in.ReportsTo == in.UserID:
		return fault.BadInputf("reportsTo", "reportsTo cannot be the user themselves: give another user's id, or none")
	}
	for _, f := range []struct{ name, v string }{
		{"displayName", in.DisplayName}, {"title", in.Title}, {"department", in.Department}, {"communicationStyle", in.CommunicationStyle},
	} {
		if err := checkText(f.name, f.v); err != nil {
			return err
		}
	}
	if d := in.DISC; d != nil {
		for _, s := range []struct {
			name string
			v    int
		}{{"disc.dominance", d.Dominance}, {"disc.influence", d.Influence}, {"disc.steadiness", d.Steadiness}, {"disc.conscientiousness", d.Conscientiousness}} {
			if err := checkScore(s.name, s.v); err != nil {
				return err
			}
		}
	}
	if o := in.OCEAN; o != nil {
		for _, s := range []struct {
			name string
			v    int
		}{{"ocean.openness", o.Openness}, {"ocean.conscientiousness", o.Conscientiousness}, {"ocean.extraversion", o.Extraversion}, {"ocean.agreeableness", o.Agreeableness}, {"ocean.neuroticism", o.Neuroticism}} {
			if err := checkScore(s.name, s.v); err != nil {
				return err
			}
		}
	}
	return nil
}

func key(user string) []byte { return store.Suffix(nil).Raw(user) }

func reportKey(manager, user string) []byte { return store.Suffix(nil).Str(manager).Raw(user) }

// Upsert writes the profile of in.UserID in the caller's organization, in
// one transaction with its audit entry. It refuses a caller that is not a
// service or administrator (FORBIDDEN), bad input, and a reportsTo that
// would close a cycle in the reporting line (BAD_USER_INPUT).
func (s *Service) Upsert(ctx context.Context, in Input) (Profile, error) {
	caller, p, err := tenancy.Caller(ctx)
	if err != nil {
		return Profile{}, err
	}
	if !CanWrite(caller) {
		return Profile{}, fault.New(fault.Forbidden, "only a service token or a token with the %s permission may write profiles", PermWrite)
	}
	if err := in.validate(); err != nil {
		return Profile{}, err
	}
	now := s.clock.Now().UTC()
	out := Profile{
		UserID: in.UserID, DisplayName: in.DisplayName, Title: in.Title, Department: in.Department,
		ReportsTo: in.ReportsTo, CommunicationStyle: in.CommunicationStyle, DISC: in.DISC, OCEAN: in.OCEAN,
		UpdatedAt: now, UpdatedBy: audit.Actor(caller), Stored: true,
	}
	sp := p.Shared()
	err = s.store.Update(ctx, p, func(tx *store.Txn) error {
		// Walk the new manager's line: reaching the user again is a cycle.
		// The walk reads every profile on the line, so a concurrent
		// change of one of them conflicts with this transaction.
		seen := map[string]bool{in.UserID: true}
		for m := in.ReportsTo; m != ""; {
			if seen[m] {
				if m == in.UserID {
					return fault.BadInputf("reportsTo", "reportsTo %q would make a cycle: %s already reports, directly or not, to %s", in.ReportsTo, in.ReportsTo, in.UserID)
				}
				break // an older cycle above (refused since; cannot happen)
			}
			seen[m] = true
			var mp Profile
			err := tx.Get(sp, store.TableProfile, key(m), &mp)
			if errors.Is(err, store.ErrNotFound) {
				break
			}
			if err != nil {
				return err
			}
			m = mp.ReportsTo
		}
		var old Profile
		err := tx.Get(sp, store.TableProfile, key(in.UserID), &old)
		switch {
		case err == nil:
			if old.ReportsTo != "" {
				if err := tx.Delete(sp, store.TableProfileReport, reportKey(old.ReportsTo, in.UserID)); err != nil {
					return err
				}
			}
		case !errors.Is(err, store.ErrNotFound):
			return err
		}
		if err := tx.Put(sp, store.TableProfile, key(in.UserID), out, 0); err != nil {
			return err
		}
		if in.ReportsTo != "" {
			if err := tx.Put(sp, store.TableProfileReport, reportKey(in.ReportsTo, in.UserID), nil, 0); err != nil {
				return err
			}
		}
		detail := "written"
		if err == nil {
			detail = "replaced"
		}
		return audit.Record(tx, sp, audit.Entry{
			ID: audit.NewID(s.ids), At: now, Actor: audit.Actor(caller), Action: "PROFILE_WRITTEN",
			Record: in.UserID, Kind: "profile", Detail: detail,
		})
	})
	if err != nil {
		return Profile{}, fmt.Errorf("profile: upsert: %w", err)
	}
	return out, nil
}

// GetTx returns the profile of user in the shared space of tx's
// partition, and whether there is one.
func GetTx(tx *store.Txn, user string) (Profile, bool, error) {
	var pr Profile
	err := tx.Get(tx.Partition().Shared(), store.TableProfile, key(user), &pr)
	if errors.Is(err, store.ErrNotFound) {
		return Profile{}, false, nil
	}
	if err != nil {
		return Profile{}, false, fmt.Errorf("profile: read: %w", err)
	}
	pr.Stored = true
	return pr, true, nil
}

// ChainTx returns the reporting line above pr, nearest manager first: the
// profile of each manager, or a placeholder (Stored false, only UserID)
// for one who has none, which ends the line. It stops at MaxChain.
func ChainTx(tx *store.Txn, pr Profile) ([]Profile, error) {
	var out []Profile
	seen := map[string]bool{pr.UserID: true}
	for m := pr.ReportsTo; m != "" && !seen[m] && len(out) < MaxChain; {
		seen[m] = true
		mp, ok, err := GetTx(tx, m)
		if err != nil {
			return nil, err
		}
		if !ok {
			out = append(out, Profile{UserID: m})
			break
		}
		out = append(out, mp)
		m = mp.ReportsTo
	}
	return out, nil
}

// ReportsTx returns the ids of the users whose profile names user as
// their manager, sorted.
func ReportsTx(tx *store.Txn, user string) ([]string, error) {
	var out []string
	err := tx.Scan(tx.Partition().Shared(), store.TableProfileReport, store.Suffix(nil).Str(user), store.ScanOptions{KeysOnly: true},
		func(suffix []byte, _ store.Item) (bool, error) {
			r := store.NewReader(suffix)
			r.Str()
			out = append(out, r.Rest())
			return true, r.Err()
		})
	if err != nil {
		return nil, fmt.Errorf("profile: reports: %w", err)
	}
	return out, nil
}

// Redact returns pr as caller may read it: without the private part
// (communication style and assessments) unless CanReadPrivate.
func Redact(caller authority.Identity, pr Profile) Profile {
	if !CanReadPrivate(caller, pr.UserID) {
		pr.CommunicationStyle, pr.DISC, pr.OCEAN = "", nil, nil
	}
	return pr
}

// Get returns the profile of user (the caller when ""), as the caller may
// read it, or nil when there is none.
func (s *Service) Get(ctx context.Context, user string) (*Profile, error) {
	caller, p, err := tenancy.Caller(ctx)
	if err != nil {
		return nil, err
	}
	if user == "" {
		user = caller.UserID
	}
	if !facts.ValidID(user) {
		return nil, fault.BadInputf("userId", "userId %q is not valid: use 1 to 128 letters, digits and . _ : # -, starting with a letter or digit", user)
	}
	var out *Profile
	err = s.store.View(ctx, p, func(tx *store.Txn) error {
		pr, ok, err := GetTx(tx, user)
		if ok {
			pr = Redact(caller, pr)
			out = &pr
		}
		return err
	})
	return out, err
}

// Chain returns the reporting line above pr (see ChainTx), as the caller
// may read it.
func (s *Service) Chain(ctx context.Context, pr Profile) ([]Profile, error) {
	caller, p, err := tenancy.Caller(ctx)
	if err != nil {
		return nil, err
	}
	var out []Profile
	err = s.store.View(ctx, p, func(tx *store.Txn) error {
		out, err = ChainTx(tx, pr)
		return err
	})
	for i := range out {
		out[i] = Redact(caller, out[i])
	}
	return out, err
}

// Reports returns the profiles of the users who report directly to user,
// as the caller may read them.
func (s *Service) Reports(ctx context.Context, user string) ([]Profile, error) {
	caller, p, err := tenancy.Caller(ctx)
	if err != nil {
		return nil, err
	}
	var out []Profile
	err = s.store.View(ctx, p, func(tx *store.Txn) error {
		us, err := ReportsTx(tx, user)
		if err != nil {
			return err
		}
		for _, u := range us {
			pr, ok, err := GetTx(tx, u)
			if err != nil {
				return err
			}
			if ok {
				out = append(out, Redact(caller, pr))
			}
		}
		return nil
	})
	return out, err
}

// TitleTx returns the title the profile of user gives, or "": what a
// turn's speakerId resolves authority from.
func TitleTx(tx *store.Txn, user string) (string, error) {
	pr, ok, err := GetTx(tx, user)
	if !ok || err != nil {
		return "", err
	}
	return pr.Title, nil
}
