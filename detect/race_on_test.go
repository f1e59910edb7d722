//go:build race

package detect

// raceEnabled is set under the race detector, which slows the replay of
// the StateBench train split past the test budget.
const raceEnabled = true
