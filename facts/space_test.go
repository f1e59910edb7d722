package facts

import (
	"testing"

	"github.com/stategraph/stategraph/authority"
	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/internal/storetest"
	"github.com/stategraph/stategraph/tenancy"
)

func TestSpaceOf(t *testing.T) {
	agent := partition(t, authority.Identity{Org: "acme", UserID: "ann", Capability: "billing", Kind: authority.KindAgent})
	user := partition(t, authority.Identity{Org: "acme", UserID: "bob"})
	capSpace, _ := agent.Capability()
	tests := []struct {
		name    string
		p       tenancy.Partition
		mt      MemoryType
		want    tenancy.Space
		wantErr bool
	}{
		{"user memory is private", agent, MemoryUser, agent.Private(), false},
		{"capability memory in the capability", agent, MemoryCapability, capSpace, false},
		{"organizational knowledge is shared", agent, MemoryOrganizational, agent.Shared(), false},
		{"unnamed type is shared", user, "", user.Shared(), false},
		{"capability memory without a capability", user, MemoryCapability, tenancy.Space{}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := SpaceOf(tc.p, tc.mt)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Fatalf("SpaceOf(%s) = %v, %v; want %v (error %v)", tc.mt, got, err, tc.want, tc.wantErr)
			}
			if err != nil && fault.KindOf(err) != fault.BadInput {
				t.Errorf("error %v: kind %q, want %q", err, fault.KindOf(err), fault.BadInput)
			}
		})
	}
	narrow := []struct {
		name string
		fs   []Fact
		want tenancy.Space
	}{
		{"none", nil, agent.Shared()},
		{"shared only", []Fact{{MemoryType: MemoryOrganizational}}, agent.Shared()},
		{"capability over shared", []Fact{{MemoryType: MemoryOrganizational}, {MemoryType: MemoryCapability}}, capSpace},
		{"private over all", []Fact{{MemoryType: MemoryUser}, {MemoryType: MemoryCapability}}, agent.Private()},
		{"private over all, any order", []Fact{{MemoryType: MemoryCapability}, {MemoryType: MemoryUser}}, agent.Private()},
	}
	for _, tc := range narrow {
		t.Run("narrowest "+tc.name, func(t *testing.T) {
			if got, err := NarrowestSpace(agent, tc.fs...); err != nil || got != tc.want {
				t.Errorf("NarrowestSpace = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

// partition returns id's partition as a verified token would give it.
func partition(t testing.TB, id authority.Identity) tenancy.Partition {
	t.Helper()
	_, p := storetest.Verified(t, id)
	return p
}
