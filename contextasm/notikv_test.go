//go:build !tikvtest

package contextasm_test

// tikvEnabled is true when the API tests run on the TiKV mock cluster
// (make test-tikv).
const tikvEnabled = false
