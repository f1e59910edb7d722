package tikvstore

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/tikv/client-go/v2/tikv"
	"github.com/tikv/client-go/v2/tikvrpc"
)

// errStoreDown is what a request to a lost store gets.
var errStoreDown = errors.New("mock tikv: store unreachable")

// faultClient wraps the mock cluster's RPC client and fails requests on
// demand.
type faultClient struct {
	tikv.Client
	mu    sync.Mutex
	down  bool
	kinds []string
}

func (f *faultClient) setDown(down bool) {
	f.mu.Lock()
	f.down, f.kinds = down, nil
	f.mu.Unlock()
}

func (f *faultClient) setKinds(kinds []string) {
	f.mu.Lock()
	f.down, f.kinds = false, kinds
	f.mu.Unlock()
}

func (f *faultClient) SendRequest(ctx context.Context, addr string, req *tikvrpc.Request, timeout time.Duration) (*tikvrpc.Response, error) {
	f.mu.Lock()
	fail := f.down || slices.Contains(f.kinds, req.Type.String())
	f.mu.Unlock()
	if fail {
		return nil, errStoreDown
	}
	return f.Client.SendRequest(ctx, addr, req, timeout)
}
