package tikvstore

import (
	"fmt"

	"github.com/tikv/client-go/v2/testutils"
	"github.com/tikv/client-go/v2/tikv"
)

// Mock is an Engine on client-go's in-process mock cluster (one PD, one
// TiKV store, in memory): the same client, transactions, two-phase commit
// and lock resolution as against a cluster, without a network. Tests and
// benchmarks run the store on it; Down simulates losing the cluster.
type Mock struct {
	*Engine
	faults *faultClient
}

// NewMock starts a mock cluster and returns an engine on it.
func NewMock(o Options) (*Mock, error) {
	quietClientLogs()
	client, cluster, pdClient, err := testutils.NewMockTiKV("", nil)
	if err != nil {
		return nil, fmt.Errorf("tikvstore: mock cluster: %w", err)
	}
	testutils.BootstrapWithSingleStore(cluster)
	fc := &faultClient{Client: client}
	kv, err := tikv.NewTestTiKVStore(fc, pdClient, nil, nil, 0)
	if err != nil {
		return nil, fmt.Errorf("tikvstore: mock cluster: %w", err)
	}
	return &Mock{Engine: newEngine(kv, o), faults: fc}, nil
}

// Down makes every request to the mock's TiKV store fail as if the store
// were unreachable (down), or serves them again (!down). PD keeps
// answering.
func (m *Mock) Down(down bool) { m.faults.setDown(down) }

// DownOn makes only requests of the given kinds fail (the commit of a
// transaction, for one), to lose the cluster between two phases.
func (m *Mock) DownOn(kinds ...string) { m.faults.setKinds(kinds) }
