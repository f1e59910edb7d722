package httpguard

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/stategraph/stategraph/fault"
)

// Limiter is a set of token buckets, one per key (an organization), created
// on first use: each organization has its own share of the server, which
// no other organization's traffic can use up. A request takes one token;
// a batch takes more (see BatchWeight and Charge), so that a bulk client
// pays for what it writes but far less than for the same writes one by
// one. It is safe for concurrent use and starts no goroutine.
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

// BatchSize is the number of items of a batch that weighs as much as one
// request.
const BatchSize = 100

// BatchWeight is what a batch of n items (facts of writeFacts) costs in
// requests: ceil(n/BatchSize), at least 1.
func BatchWeight(n int) int { return max(1, (n+BatchSize-1)/BatchSize) }

// Allow takes a token from key's bucket. When none is left it returns false
// and how long until one will be, without consuming anything.
func (l *Limiter) Allow(key string) (ok bool, retryAfter time.Duration) {
	return l.AllowN(key, 1)
}

// AllowN takes n tokens from key's bucket, or none, like Allow. A weight
// above the burst is taken as the burst, so that it passes once the bucket
// is full.
func (l *Limiter) AllowN(key string, n int) (ok bool, retryAfter time.Duration) {
	if l.limit <= 0 || n <= 0 {
		return true, 0
	}
	n = min(n, l.burst)
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
	res := b.lim.ReserveN(now, n)
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
			ctx := context.WithValue(r.Context(), chargeKey{}, charge{l: l, key: key})
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}

// retrySeconds rounds a positive d up to whole seconds, so at least 1.
func retrySeconds(d time.Duration) int {
	return int(math.Ceil(d.Seconds()))
}

type chargeKey struct{}

// charge is the bucket the request in a context was admitted by.
type charge struct {
	l   *Limiter
	key string
}

// Charge takes n more tokens, for the request of ctx, from the bucket that
// admitted it: a batch charges its weight beyond the one token its request
// already took (BatchWeight(n)-1). When the bucket lacks them, the error
// is FORBIDDEN (the rate-limit code) saying when to retry, and nothing is
// taken. Without a limiter in ctx (limiting disabled) it does nothing.
func Charge(ctx context.Context, n int) error {
	c, ok := ctx.Value(chargeKey{}).(charge)
	if !ok || n <= 0 {
		return nil
	}
	// With the request's own token, a batch never needs more than a full
	// bucket.
	n = min(n, c.l.burst-1)
	if ok, wait := c.l.AllowN(c.key, n); !ok {
		return fault.New(fault.Forbidden, "rate limit exceeded: this batch weighs %d requests more than your organization has left; retry in %d s, or send smaller batches", n+1, retrySeconds(wait))
	}
	return nil
}
