// Package benchcpu reads the CPU time the process has used, for benchmarks
// that report CPU per operation (which a busy machine disturbs less than
// latency).
package benchcpu
