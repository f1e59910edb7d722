package httpguard

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limiter is a set of token buckets, one per key (an organization), created
// on first use. It is safe for concurrent use and starts no goroutine.
//
// Memory is bounded by the keys active recently: a bucket left alone long
// enough to refill completely behaves exactly like a new one, so buckets idle
// for that long are dropped by a sweep that runs during Allow at most once
// per refill period.
type Limiter struct {
	limit  rate.Limit
	burst  int
	refill time.Duration // time for an empty bucket to fill up
	now    func() time.Time

	mu        sync.Mutex
	buckets   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

// NewLimiter returns a limiter allowing each key rps requests per second on
// average with bursts of burst requests. rps <= 0 disables limiting; a burst
// below 1 is taken as 1.
func NewLimiter(rps float64, burst int) *Limiter {
	burst = max(burst, 1)
	l := &Limiter{
		limit:   rate.Limit(rps),
		burst:   burst,
		now:     time.Now,
		buckets: make(map[string]*bucket),
	}
	if rps > 0 {
		// Sweeping is O(buckets): not more often than once a second.
		// A rate so low that the refill overflows a Duration never evicts.
		fill := float64(burst) / rps * float64(time.Second)
		l.refill = time.Duration(math.MaxInt64)
		if fill < math.MaxInt64 {
			l.refill = max(time.Second, time.Duration(fill))
		}
	}
	return l
}

// Allow takes a token from key's bucket. When none is left it returns false
// and how long until one will be, without consuming anything.
func (l *Limiter) Allow(key string) (ok bool, retryAfter time.Duration) {
	if l.limit <= 0 {
		return true, 0
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	b, found := l.buckets[key]
	if !found {
		b = &bucket{lim: rate.NewLimiter(l.limit, l.burst)}
		l.buckets[key] = b
	}
	b.seen = now
	res := b.lim.ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return false, d
	}
	return true, 0
}

// sweep drops the buckets idle for a full refill period (at least
// a second). l.mu is held.
func (l *Limiter) sweep(now time.Time) {
	if now.Sub(l.lastSweep) < l.refill {
		return
	}
	l.lastSweep = now
	for k, b := range l.buckets {
		if now.Sub(b.seen) >= l.refill {
			delete(l.buckets, k)
		}
	}
}

// Middleware returns a middleware that rate-limits requests by the key keyOf
// finds (the organization of the verified identity, so it must run after
// authentication). Requests without a key pass. A rejected request is
// answered 429 with a Retry-After header in whole seconds (at least 1) and a
// RATE_LIMITED error. With limiting disabled it returns next unchanged.
func (l *Limiter) Middleware(keyOf func(*http.Request) (string, bool)) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if l.limit <= 0 {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			key, ok := keyOf(r)
			if !ok {
				next.ServeHTTP(w, r)
				return
			}
			if ok, wait := l.Allow(key); !ok {
				secs := retrySeconds(wait)
				w.Header().Set("Retry-After", strconv.Itoa(secs))
				WriteError(w, r, http.StatusTooManyRequests, CodeRateLimited,
					fmt.Sprintf("rate limit exceeded, retry in %d s", secs))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// retrySeconds rounds a positive d up to whole seconds, so at least 1.
func retrySeconds(d time.Duration) int {
	return int(math.Ceil(d.Seconds()))
}
