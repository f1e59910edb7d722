//go:build !unix

package contextasm_test

import "time"

// cpuTime returns 0 where the process' CPU time is not read: the
// benchmarks then report no cpu-ms.
func cpuTime() time.Duration { return 0 }
