//go:build !race

package contextasm_test

// raceEnabled is true when the tests run under the race detector, which
// slows an assembly about tenfold.
const raceEnabled = false
