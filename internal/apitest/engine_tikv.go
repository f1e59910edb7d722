//go:build tikvtest

package apitest

import (
	"testing"

	"github.com/stategraph/stategraph/internal/enginetest"
	"github.com/stategraph/stategraph/store"
)

// Built with -tags tikvtest (make test-tikv), every API test runs on a
// fresh TiKV mock cluster instead of in-memory Badger, unless it chose
// an engine itself.
func init() {
	defaultEngine = func(t testing.TB) store.Engine { return enginetest.Mock(t) }
}
