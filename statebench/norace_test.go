//go:build !race

package statebench

// RaceEnabled is true when the tests run under the race detector, which
// slows a replay about tenfold.
const RaceEnabled = false
