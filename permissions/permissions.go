// Package permissions decides who may see and who may write which record:
// the read rule of a restriction (restrictedTo), and the write gates on
// policies, capability memory levels, user memory, source attribution and
// authority-based supersession.
//
// Every rule here is a pure function of the caller's verified identity and
// the record; nothing is cached, so a change of a token's claims takes
// effect on the next request. Denials are fault.Forbidden errors whose
// messages name the rule and never the content of a record.
package permissions

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/fault"
)

// Restriction limits who may read a record. Each non-empty criterion must
// hold (they are ANDed); within a list, any entry will do (ORed). The zero
// Restriction restricts nothing.
type Restriction struct {
	// Roles the caller's authority claim must match: either the role as
	// written ("VP Sales", compared by words, case-insensitively) or the
	// name of the order it resolves to ("executive").
	Roles []string `json:"roles,omitempty"`
	// Permissions of which the caller must hold at least one.
	Permissions []string `json:"permissions,omitempty"`
	// MinAuthority is the lowest authority (a name of the order) that may
	// read.
	MinAuthority string `json:"minAuthority,omitempty"`
	// Departments of which the caller's must be one (case-insensitive).
	Departments []string `json:"departments,omitempty"`
}

// Empty reports whether r restricts nothing.
func (r Restriction) Empty() bool {
	return len(r.Roles) == 0 && len(r.Permissions) == 0 && r.MinAuthority == "" && len(r.Departments) == 0
}

// Limits on a restriction.
const (
	maxEntries  = 32
	maxEntryLen = 256
)

// Violation says what happens to a write that asks to supersede a fact of
// higher authority than its own.
type Violation string

// The violation modes.
const (
	// ViolationConflict stores the write as a plain fact, supersedes
	// nothing, and opens a conflict between the two facts.
	ViolationConflict Violation = "conflict"
	// ViolationReject rejects the write with FORBIDDEN.
	ViolationReject Violation = "reject"
)

// Options configure Rules. Start from DefaultOptions.
type Options struct {
	// PolicyMinAuthority is the lowest authority that may write a policy
	// fact.
	PolicyMinAuthority string
	// Violation is the treatment of a lower-authority supersession.
	Violation Violation
}

// DefaultOptions returns the default rules: managers and above write
// policies; lower-authority supersessions become conflicts.
func DefaultOptions() Options {
	return Options{PolicyMinAuthority: "manager", Violation: ViolationConflict}
}

// Rules applies the permission rules over an authority order. It is
// immutable and safe for concurrent use.
type Rules struct {
	order *authority.Order
	opts  Options
}

// New returns the rules over order. The policy minimum must be a name of
// the order.
func New(order *authority.Order, o Options) (*Rules, error) {
	if order == nil {
		return nil, fmt.Errorf("permissions: no authority order")
	}
	o.PolicyMinAuthority = strings.ToLower(strings.TrimSpace(o.PolicyMinAuthority))
	if !order.Known(o.PolicyMinAuthority) {
		return nil, fmt.Errorf("permissions: policy minimum authority %q is not in the authority order %s",
			o.PolicyMinAuthority, strings.Join(order.Names(), ","))
	}
	switch o.Violation {
	case ViolationConflict, ViolationReject:
	default:
		return nil, fmt.Errorf("permissions: authority violation mode %q: want conflict or reject", o.Violation)
	}
	return &Rules{order: order, opts: o}, nil
}

// MustDefault returns the default rules over the default order.
func MustDefault() *Rules {
	r, err := New(authority.MustDefaultOrder(), DefaultOptions())
	if err != nil {
		panic(err)
	}
	return r
}

// Order returns the authority order the rules rank with.
func (r *Rules) Order() *authority.Order { return r.order }

// Violation returns the treatment of a lower-authority supersession.
func (r *Rules) Violation() Violation { return r.opts.Violation }

// Validate checks a restriction given as input; the error is BAD_USER_INPUT
// naming the field.
func (r *Rules) Validate(res Restriction) error {
	for field, list := range map[string][]string{
		"restrictedTo.roles": res.Roles, "restrictedTo.permissions": res.Permissions, "restrictedTo.departments": res.Departments,
	} {
		if len(list) > maxEntries {
			return fault.BadInputf(field, "%s may hold at most %d entries", field, maxEntries)
		}
		for _, s := range list {
			if strings.TrimSpace(s) == "" || len(s) > maxEntryLen || !utf8.ValidString(s) {
				return fault.BadInputf(field, "%s entries must be non-empty UTF-8 of at most %d bytes", field, maxEntryLen)
			}
		}
	}
	if res.MinAuthority != "" && !r.order.Known(res.MinAuthority) {
		return fault.BadInputf("restrictedTo.minAuthority", "restrictedTo.minAuthority %q is not in the authority order (%s)",
			res.MinAuthority, strings.Join(r.order.Names(), ", "))
	}
	return nil
}

// CanRead reports whether caller satisfies res. A nil or empty restriction
// lets everyone who can reach the record read it.
func (r *Rules) CanRead(caller authority.Identity, res *Restriction) bool {
	if res == nil || res.Empty() {
		return true
	}
	if len(res.Roles) > 0 && !r.hasRole(caller, res.Roles) {
		return false
	}
	if len(res.Permissions) > 0 && !slices.ContainsFunc(res.Permissions, caller.HasPermission) {
		return false
	}
	if res.MinAuthority != "" && r.order.Rank(caller.Authority) < r.order.Rank(res.MinAuthority) {
		return false
	}
	if len(res.Departments) > 0 && !slices.ContainsFunc(res.Departments, func(d string) bool {
		return caller.Department != "" && strings.EqualFold(strings.TrimSpace(d), strings.TrimSpace(caller.Department))
	}) {
		return false
	}
	return true
}

func (r *Rules) hasRole(caller authority.Identity, roles []string) bool {
	if strings.TrimSpace(caller.Authority) == "" {
		return false
	}
	mine := normal(caller.Authority)
	resolved, ok := r.order.Resolve(caller.Authority)
	for _, role := range roles {
		if n := normal(role); n == mine || ok && n == resolved {
			return true
		}
	}
	return false
}

// normal is a role compared by its words, case-insensitively.
func normal(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(c rune) bool {
		return !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c > 127)
	}), " ")
}

// Attribute checks that caller may record a statement with the source
// authority claimed: nobody may attribute more authority than their own
// token carries, or a subordinate could write "policy" facts by saying so.
func (r *Rules) Attribute(caller authority.Identity, claimed string) error {
	if r.order.Rank(claimed) > r.order.Rank(caller.Authority) {
		return &fault.Error{Kind: fault.Forbidden, Field: "source.authority",
			Msg: fmt.Sprintf("source.authority %q ranks above your own authority %q: a writer cannot attribute more authority than it holds",
				claimed, caller.Authority)}
	}
	return nil
}

// IsPolicy reports whether a fact is a policy: a POLICY source, or a
// constraint whose source authority is the order's policy authority.
func (r *Rules) IsPolicy(policySource, isConstraint bool, sourceAuthority string) bool {
	if policySource {
		return true
	}
	n, ok := r.order.Resolve(sourceAuthority)
	return isConstraint && ok && n == "policy"
}

// WritePolicy checks that caller may write a policy fact.
func (r *Rules) WritePolicy(caller authority.Identity) error {
	if r.order.Rank(caller.Authority) < r.order.Rank(r.opts.PolicyMinAuthority) {
		return fault.New(fault.Forbidden, "writing a policy needs authority %s or above; yours is %s",
			r.opts.PolicyMinAuthority, r.describe(caller.Authority))
	}
	return nil
}

// describe names an authority claim and what it ranks as.
func (r *Rules) describe(claim string) string {
	n, ok := r.order.Resolve(claim)
	switch {
	case strings.TrimSpace(claim) == "":
		return "none (" + r.order.Lowest() + ")"
	case !ok:
		return fmt.Sprintf("%q (unknown, ranked %s)", claim, r.order.Lowest())
	case n == strings.ToLower(strings.TrimSpace(claim)):
		return n
	}
	return fmt.Sprintf("%q (%s)", claim, n)
}

var agentRank = map[authority.AgentLevel]int{authority.AgentJunior: 0, authority.AgentSenior: 1, authority.AgentMaster: 2}

// WriteCapability checks that caller may write capability memory that
// needs agent level need: agents by their agent_level (none means junior),
// services always, human users never (capability memory is learned by
// agents).
func (r *Rules) WriteCapability(caller authority.Identity, need authority.AgentLevel, level string) error {
	switch caller.Kind {
	case authority.KindService:
		return nil
	case authority.KindUser:
		return fault.New(fault.Forbidden, "capability memory is learned by agents; a user token cannot write it")
	}
	have := caller.AgentLevel
	if have == "" {
		have = authority.AgentJunior
	}
	if agentRank[have] < agentRank[need] {
		return fault.New(fault.Forbidden, "%s capability memory needs agent_level %s or above; this agent is %s", level, need, have)
	}
	return nil
}

// WriteUserMemory checks that caller may create user memory: agents and
// services write it on a user's behalf; the user may read and forget it but
// not create it.
func (r *Rules) WriteUserMemory(caller authority.Identity) error {
	if caller.Kind == authority.KindUser {
		return fault.New(fault.Forbidden, "user memory is written by agents and services on your behalf; a user may read and forget it but not create it (write ORGANIZATIONAL memory instead)")
	}
	return nil
}

// Supersedes reports whether a statement of authority newer may supersede
// one of authority older: only at equal or higher rank.
func (r *Rules) Supersedes(newer, older string) bool {
	return r.order.Rank(newer) >= r.order.Rank(older)
}

// Describe names an authority claim and the name of the order it ranks as,
// for messages.
func (r *Rules) Describe(claim string) string { return r.describe(claim) }

// Join returns a restriction at least as strict as both a and b (nil when
// neither restricts anything): what a successor inherits from the record it
// supersedes, pass the predecessor's as a. Every criterion of either is
// kept. Where both restrict by the same list (roles, permissions,
// departments), only the entries common to both remain; when they share
// none, a's list is kept, so the successor never reaches readers its
// predecessor did not. The higher of the two minimum authorities applies.
func (r *Rules) Join(a, b *Restriction) *Restriction {
	switch {
	case a == nil || a.Empty():
		if b == nil || b.Empty() {
			return nil
		}
		c := *b
		return &c
	case b == nil || b.Empty():
		c := *a
		return &c
	}
	minAuth := a.MinAuthority
	if b.MinAuthority != "" && (minAuth == "" || r.order.Rank(b.MinAuthority) > r.order.Rank(minAuth)) {
		minAuth = b.MinAuthority
	}
	return &Restriction{
		Roles:        joinList(a.Roles, b.Roles),
		Permissions:  joinList(a.Permissions, b.Permissions),
		Departments:  joinList(a.Departments, b.Departments),
		MinAuthority: minAuth,
	}
}

// Declassify checks that caller, writing with source authority
// writeAuthority, may give a successor less restriction than old, its
// predecessor's: the caller must satisfy old (read the fact) and the
// write's own authority must reach old's minimum authority (a writer who
// attributes a lower authority to the statement speaks below it). The
// denial is FORBIDDEN and never describes old beyond the authority it
// asks for, which the caller, able to read the fact, already knows.
func (r *Rules) Declassify(caller authority.Identity, writeAuthority string, old *Restriction) error {
	if old == nil || old.Empty() {
		return nil
	}
	if !r.CanRead(caller, old) {
		return &fault.Error{Kind: fault.Forbidden, Field: "declassify",
			Msg: "declassify needs a caller who can read the superseded fact"}
	}
	if old.MinAuthority != "" && r.order.Rank(writeAuthority) < r.order.Rank(old.MinAuthority) {
		return &fault.Error{Kind: fault.Forbidden, Field: "declassify",
			Msg: fmt.Sprintf("declassifying this fact needs the write's authority to be %s or above; it is %s (drop source.authority, or supersede without declassify to keep the restriction)",
				old.MinAuthority, r.describe(writeAuthority))}
	}
	return nil
}

// Looser reports whether a successor restricted by next may be read by
// someone its predecessor, restricted by prev, kept out: whether next
// gives up any part of prev.
func (r *Rules) Looser(next, prev *Restriction) bool {
	return !r.same(r.Join(prev, next), next)
}

// same reports whether a and b restrict the same readers, criterion by
// criterion (lists compared as sets of normalised entries).
func (r *Rules) same(a, b *Restriction) bool {
	ae, be := a == nil || a.Empty(), b == nil || b.Empty()
	if ae || be {
		return ae == be
	}
	if r.order.Rank(a.MinAuthority) != r.order.Rank(b.MinAuthority) || (a.MinAuthority == "") != (b.MinAuthority == "") {
		return false
	}
	return sameSet(a.Roles, b.Roles) && sameSet(a.Permissions, b.Permissions) && sameSet(a.Departments, b.Departments)
}

func sameSet(a, b []string) bool {
	norm := func(l []string) []string {
		out := make([]string, len(l))
		for i, s := range l {
			out[i] = normal(s)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	return slices.Equal(norm(a), norm(b))
}

func joinList(a, b []string) []string {
	switch {
	case len(a) == 0:
		return slices.Clone(b)
	case len(b) == 0:
		return slices.Clone(a)
	}
	var both []string
	for _, x := range a {
		if slices.ContainsFunc(b, func(y string) bool { return normal(x) == normal(y) }) {
			both = append(both, x)
		}
	}
	if len(both) == 0 {
		return slices.Clone(a)
	}
	return both
}
