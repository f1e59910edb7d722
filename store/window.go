package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"sort"

	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/tenancy"
)

// PageArgs is a Relay page request: first/after pages forwards, last/before
// backwards (https://relay.dev/graphql/connections.htm). Both sizes nil
// means the first DefaultPageSize records.
type PageArgs struct {
	First, Last   *int
	After, Before string
}

// Window is a checked page request, bound to the scope its cursors belong
// to. Build it with PageArgs.Window.
type Window struct {
	n        int
	backward bool
	after    []byte // key tail, nil when absent
	before   []byte
	scope    string
}

// cursorTagLen is the length of the scope tag that ends every cursor.
const cursorTagLen = 8

// Window checks a and decodes its cursors. scope names the connection, the
// caller's partition and the filter (anything that changes which records
// are listed, but not the page): a cursor made under another scope (another
// organization, user, connection or filter) is refused with
// BAD_USER_INPUT, as is a malformed one. The tag is a digest, not a secret:
// it catches cursors used with the wrong query; isolation itself stays a
// property of the partition every read is confined to.
func (a PageArgs) Window(scope string) (Window, error) {
	w := Window{n: DefaultPageSize, scope: scope}
	switch {
	case a.First != nil && a.Last != nil:
		return Window{}, fault.BadInputf("last", "pass first (with after) or last (with before), not both")
	case a.First != nil:
		if *a.First < 0 || *a.First > MaxPageSize {
			return Window{}, fault.BadInputf("first", "first must be between 0 and %d", MaxPageSize)
		}
		w.n = *a.First
	case a.Last != nil:
		if *a.Last < 0 || *a.Last > MaxPageSize {
			return Window{}, fault.BadInputf("last", "last must be between 0 and %d", MaxPageSize)
		}
		w.n, w.backward = *a.Last, true
	}
	var err error
	if w.after, err = w.decode("after", a.After); err != nil {
		return Window{}, err
	}
	if w.before, err = w.decode("before", a.Before); err != nil {
		return Window{}, err
	}
	return w, nil
}

func (w Window) decode(field, c string) ([]byte, error) {
	if c == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || len(b) < minCursor+cursorTagLen {
		return nil, fault.BadInputf(field, "%s is not a cursor returned by this query", field)
	}
	tail, tag := b[:len(b)-cursorTagLen], b[len(b)-cursorTagLen:]
	if !bytes.Equal(tag, w.tag(tail)) {
		return nil, fault.BadInputf(field, "%s is not a cursor returned by this query: cursors are valid only with the query, filter and caller that returned them", field)
	}
	return tail, nil
}

func (w Window) tag(tail []byte) []byte {
	h := sha256.New()
	h.Write([]byte("stategraph cursor\x00"))
	h.Write([]byte(w.scope))
	h.Write([]byte{0})
	h.Write(tail)
	return h.Sum(nil)[:cursorTagLen]
}

// Cursor returns the opaque cursor of the record whose key tail is tail
// (recordedAt, id): stable for the same record, scope and tail.
func (w Window) Cursor(tail []byte) string {
	b := append(append([]byte(nil), tail...), w.tag(tail)...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Backward reports whether the request pages backwards (last/before).
func (w Window) Backward() bool { return w.backward }

// Size is the page size asked for.
func (w Window) Size() int { return w.n }

// Slice places the window over n records sorted by their key tails
// (tail(i), ascending and unique): the page is records [lo, hi). Records
// before lo and from hi on exist exactly when lo > 0 and hi < n, which is
// what PageInfo's hasPreviousPage and hasNextPage report.
func (w Window) Slice(n int, tail func(i int) []byte) (lo, hi int) {
	start, end := 0, n
	if w.after != nil {
		start = sort.Search(n, func(i int) bool { return bytes.Compare(tail(i), w.after) > 0 })
	}
	if w.before != nil {
		end = sort.Search(n, func(i int) bool { return bytes.Compare(tail(i), w.before) >= 0 })
	}
	if end < start {
		end = start
	}
	if w.backward {
		return max(start, end-w.n), end
	}
	return start, min(end, start+w.n)
}

// Scope names the records a connection lists, for PageArgs.Window: the
// connection's name, the partition's spaces and the filter's canonical
// text.
func Scope(connection string, p tenancy.Partition, filter string) string {
	return fmt.Sprintf("%s\x00%v\x00%s", connection, p.Spaces(), filter)
}
