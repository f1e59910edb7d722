package scalars

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/temporal"
)

// MarshalTime writes t as an RFC 3339 string with nanoseconds. Every
// instant is written, 0001-01-01T00:00:00Z (Go's zero time) included:
// optional times are pointers, so nothing uses the zero time as null.
func MarshalTime(t time.Time) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		_, _ = io.WriteString(w, strconv.Quote(t.Format(time.RFC3339Nano)))
	})
}

// UnmarshalTime reads an RFC 3339 time (nanoseconds optional, any offset)
// as given. A time outside the representable range
// (temporal.Min..temporal.Max, years 0001-9999 in UTC) is refused with
// BAD_USER_INPUT, so that no argument, filter or record field ever holds
// one.
func UnmarshalTime(v any) (time.Time, error) {
	var t time.Time
	switch v := v.(type) {
	case string:
		var err error
		if t, err = time.Parse(time.RFC3339Nano, v); err != nil {
			// gqlgen's Time also took "2006-01-02 15:04:05" (UTC).
			if t, err = time.Parse(time.DateTime, v); err != nil {
				return time.Time{}, fault.BadInputf("", "%q is not an RFC 3339 time such as 2026-01-05T09:00:00Z", v)
			}
		}
	case time.Time:
		t = v
	default:
		return time.Time{}, fault.BadInputf("", "a time must be an RFC 3339 string such as 2026-01-05T09:00:00Z")
	}
	if err := temporal.Check(t); err != nil {
		return time.Time{}, &fault.Error{Kind: fault.BadInput, Err: err, Msg: fmt.Sprintf(
			"%s is outside the representable range: times must lie between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999999Z in UTC",
			t.Format(time.RFC3339Nano))}
	}
	return t, nil
}
