//go:build race

package statebench_test

// raceEnabled is true when the tests run under the race detector, which
// slows a replay about tenfold.
const raceEnabled = true
