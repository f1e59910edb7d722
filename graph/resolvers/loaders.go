package resolvers

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/vikstrous/dataloadgen"

	"github.com/stategraph/stategraph/facts"
	"github.com/stategraph/stategraph/temporal"
)

// viewKey is a comparable form of a temporal.View: each time as whole
// seconds and nanoseconds (UnixNano would overflow outside 1678-2262 and
// merge distinct views).
type viewKey struct {
	asOf, knownAt       instant
	hasAsOf, hasKnownAt bool
}

// instant is a comparable time.Time without its location.
type instant struct {
	sec  int64
	nsec int32
}

func instantOf(t time.Time) instant { return instant{t.Unix(), int32(t.Nanosecond())} }

func (i instant) time() *time.Time {
	t := time.Unix(i.sec, int64(i.nsec)).UTC()
	return &t
}

func keyOf(v temporal.View) viewKey {
	var k viewKey
	if v.AsOf != nil {
		k.asOf, k.hasAsOf = instantOf(*v.AsOf), true
	}
	if v.KnownAt != nil {
		k.knownAt, k.hasKnownAt = instantOf(*v.KnownAt), true
	}
	return k
}

func (k viewKey) view() temporal.View {
	var v temporal.View
	if k.hasAsOf {
		v.AsOf = k.asOf.time()
	}
	if k.hasKnownAt {
		v.KnownAt = k.knownAt.time()
	}
	return v
}

type factKey struct {
	id   string
	view viewKey
}

// loaders batch the edge lookups of one request, so that a list of facts
// with their edges costs one store transaction per edge kind and view, not
// one per fact.
type loaders struct {
	fact    *dataloadgen.Loader[factKey, *facts.Fact]
	derived *dataloadgen.Loader[factKey, []facts.Fact]
}

type loadersKey struct{}

func (r *Resolver) newLoaders() *loaders {
	return &loaders{
		fact: dataloadgen.NewLoader(func(ctx context.Context, keys []factKey) ([]*facts.Fact, []error) {
			return batchByView(ctx, keys, r.FactService.GetMany)
		}, dataloadgen.WithWait(time.Millisecond)),
		derived: dataloadgen.NewLoader(func(ctx context.Context, keys []factKey) ([][]facts.Fact, []error) {
			return batchByView(ctx, keys, r.FactService.DerivedMany)
		}, dataloadgen.WithWait(time.Millisecond)),
	}
}

// batchByView groups keys by view and makes one call per view.
func batchByView[V any](ctx context.Context, keys []factKey, get func(context.Context, []string, temporal.View) ([]V, error)) ([]V, []error) {
	out := make([]V, len(keys))
	byView := map[viewKey][]int{}
	for i, k := range keys {
		byView[k.view] = append(byView[k.view], i)
	}
	for vk, idx := range byView {
		ids := make([]string, len(idx))
		for j, i := range idx {
			ids[j] = keys[i].id
		}
		got, err := get(ctx, ids, vk.view())
		if err != nil {
			return nil, []error{err}
		}
		for j, i := range idx {
			out[i] = got[j]
		}
	}
	return out, nil
}

// requestLoaders are a request's loaders, made on first use: most
// requests (a write, an assembly) load no edge, and making the loaders
// costs about nine allocations. Field resolvers may run concurrently; they
// all get the same loaders.
type requestLoaders struct {
	r    *Resolver
	once sync.Once
	l    *loaders
}

func (rl *requestLoaders) get() *loaders {
	rl.once.Do(func() { rl.l = rl.r.newLoaders() })
	return rl.l
}

// Middleware puts fresh per-request loaders into every request's context.
func (r *Resolver) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		ctx := context.WithValue(req.Context(), loadersKey{}, &requestLoaders{r: r})
		next.ServeHTTP(w, req.WithContext(ctx))
	})
}

// loadersFrom returns the request's loaders, or fresh ones when the
// request did not pass through Middleware (no batching then).
func (r *Resolver) loadersFrom(ctx context.Context) *loaders {
	if rl, ok := ctx.Value(loadersKey{}).(*requestLoaders); ok {
		return rl.get()
	}
	return r.newLoaders()
}

// edge loads the fact with id in view v through the request's loader.
func (r *factResolver) edge(ctx context.Context, id string, v temporal.View) (*facts.Fact, error) {
	if id == "" {
		return nil, nil
	}
	return r.loadersFrom(ctx).fact.Load(ctx, factKey{id: id, view: keyOf(v)})
}
