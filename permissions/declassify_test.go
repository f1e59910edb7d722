package permissions_test

import (
	"testing"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/permissions"
)

// TestLooser: a successor's restriction is looser than its predecessor's
// when it gives up any criterion or list entry of it, however spelled.
func TestLooser(t *testing.T) {
	r := permissions.MustDefault()
	exec := &permissions.Restriction{MinAuthority: "executive"}
	fin := &permissions.Restriction{MinAuthority: "manager", Departments: []string{"Finance", "HR"}}
	for _, tc := range []struct {
		name       string
		next, prev *permissions.Restriction
		want       bool
	}{
		{"both none", nil, nil, false},
		{"from none", exec, nil, false},
		{"to none", nil, exec, true},
		{"to empty", &permissions.Restriction{}, exec, true},
		{"same", &permissions.Restriction{MinAuthority: "Executive"}, exec, false},
		{"lower minimum", &permissions.Restriction{MinAuthority: "manager"}, exec, true},
		{"higher minimum", &permissions.Restriction{MinAuthority: "policy"}, exec, false},
		{"a role added", &permissions.Restriction{MinAuthority: "executive", Roles: []string{"CFO"}}, exec, false},
		{"a department dropped", &permissions.Restriction{MinAuthority: "manager", Departments: []string{"hr"}}, fin, false},
		{"a department added", &permissions.Restriction{MinAuthority: "manager", Departments: []string{"finance", "hr", "Sales"}}, fin, true},
		{"departments dropped", &permissions.Restriction{MinAuthority: "manager"}, fin, true},
		{"other order and case", &permissions.Restriction{MinAuthority: "manager", Departments: []string{"hr", "FINANCE"}}, fin, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := r.Looser(tc.next, tc.prev); got != tc.want {
				t.Errorf("Looser(%+v, %+v) = %v, want %v", tc.next, tc.prev, got, tc.want)
			}
		})
	}
}

// TestDeclassifyRule: declassifying needs a caller who reads the old
// restriction and a write whose authority reaches its minimum.
func TestDeclassifyRule(t *testing.T) {
	r := permissions.MustDefault()
	exec := authority.Identity{UserID: "e", Authority: "CFO", Department: "Finance"}
	peer := authority.Identity{UserID: "p", Authority: "peer"}
	for _, tc := range []struct {
		name     string
		caller   authority.Identity
		writeAs  string
		old      *permissions.Restriction
		wantKind fault.Kind
	}{
		{"unrestricted", peer, "peer", nil, ""},
		{"reader at its authority", exec, "executive", &permissions.Restriction{MinAuthority: "executive"}, ""},
		{"reader speaking below it", exec, "manager", &permissions.Restriction{MinAuthority: "executive"}, fault.Forbidden},
		{"not a reader", peer, "peer", &permissions.Restriction{MinAuthority: "executive"}, fault.Forbidden},
		{"outside the department", exec, "executive", &permissions.Restriction{Departments: []string{"HR"}}, fault.Forbidden},
		{"inside the department", exec, "executive", &permissions.Restriction{Departments: []string{"finance"}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := r.Declassify(tc.caller, tc.writeAs, tc.old)
			if got := fault.KindOf(err); err != nil && got != tc.wantKind || err == nil && tc.wantKind != "" {
				t.Errorf("Declassify = %v, want kind %q", err, tc.wantKind)
			}
		})
	}
}
