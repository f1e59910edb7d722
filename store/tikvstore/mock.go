package tikvstore

import (
	"fmt"
	"sync"

	"github.com/pingcap/failpoint"
	"github.com/tikv/client-go/v2/util"

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
	if err := mockLiveness(); err != nil {
		return nil, err
	}
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

var liveness = sync.OnceValue(func() error {
	util.EnableFailpoints()
	return failpoint.Enable("tikvclient/injectLiveness", `return("reachable")`)
})

// mockLiveness answers the client's health checks of the mock store,
// which has no network address to probe: a client that lost the store
// routes to it again as soon as it answers, as it would to a real one.
// Failures come from the fault client, never from this check.
func mockLiveness() error {
	if err := liveness(); err != nil {
		return fmt.Errorf("tikvstore: mock cluster liveness: %w", err)
	}
	return nil
}
