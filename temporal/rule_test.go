package temporal_test

import (
	"testing"
	"time"

	"github.com/stategraph/stategraph/temporal"
)

// TestHolds checks the one visibility rule at its edges.
func TestHolds(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2026, 1, d, 0, 0, 0, 0, time.UTC) }
	p := func(t time.Time) *time.Time { return &t }
	now := day(30)
	open := temporal.Record{Valid: temporal.Interval{From: day(10)}, RecordedAt: day(10)}
	changed := open // superseded by a change on day 20, valid from day 15
	changed.Retirement = temporal.Changed(day(20), day(15))
	corrected := open // corrected on day 20
	corrected.Retirement = temporal.Corrected(day(20))
	lease := temporal.Record{Valid: temporal.Interval{From: day(10), To: p(day(15))}, RecordedAt: day(10)}
	revoked := lease
	revoked.Retirement = temporal.Ended(day(12))
	stale := temporal.Record{Valid: temporal.Interval{From: day(10), To: p(day(10))}, RecordedAt: day(10)}
	future := temporal.Record{Valid: temporal.Interval{From: day(25)}, RecordedAt: day(10)}

	tests := []struct {
		name string
		r    temporal.Record
		v    temporal.View
		want bool
	}{
		{"exactly at from", open, temporal.View{AsOf: p(day(10))}, true},
		{"just before from", open, temporal.View{AsOf: p(day(10).Add(-time.Nanosecond))}, false},
		{"recorded exactly at knownAt", open, temporal.View{KnownAt: p(day(10))}, true},
		{"recorded after knownAt", open, temporal.View{KnownAt: p(day(9))}, false},
		{"change: before its end", changed, temporal.View{AsOf: p(day(15).Add(-time.Nanosecond))}, true},
		{"change: exactly at to", changed, temporal.View{AsOf: p(day(15))}, false},
		{"change: not current", changed, temporal.View{}, false},
		{"change recorded after knownAt: still open", changed, temporal.View{AsOf: p(day(16)), KnownAt: p(day(19))}, true},
		{"change recorded after knownAt: current then", changed, temporal.View{KnownAt: p(day(19))}, true},
		{"change recorded exactly at knownAt", changed, temporal.View{AsOf: p(day(16)), KnownAt: p(day(20))}, false},
		{"correction: empty interval at from", corrected, temporal.View{AsOf: p(day(10))}, false},
		{"correction: empty interval later", corrected, temporal.View{AsOf: p(day(25))}, false},
		{"correction recorded after knownAt", corrected, temporal.View{AsOf: p(day(10)), KnownAt: p(day(19))}, true},
		{"lease ending exactly at asOf", lease, temporal.View{AsOf: p(day(15))}, false},
		{"lease just before its end", lease, temporal.View{AsOf: p(day(15).Add(-time.Nanosecond))}, true},
		{"lease ending exactly at knownAt instant", lease, temporal.View{KnownAt: p(day(15))}, false},
		{"lease current before its end", lease, temporal.View{}, now.Before(day(15))},
		{"revocation ends at its own time", revoked, temporal.View{AsOf: p(day(12))}, false},
		{"revocation: before it", revoked, temporal.View{AsOf: p(day(11))}, true},
		{"revocation recorded after knownAt", revoked, temporal.View{AsOf: p(day(13)), KnownAt: p(day(11))}, true},
		{"stored invalid from birth", stale, temporal.View{AsOf: p(day(10))}, false},
		{"stored invalid from birth, current", stale, temporal.View{}, false},
		{"valid from the future: a current head", future, temporal.View{}, true},
		{"valid from the future: not yet as of now", future, temporal.View{AsOf: p(day(20))}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.v.Holds(tc.r, now); got != tc.want {
				t.Errorf("Holds = %v, want %v (interval in view %+v)", got, tc.want, tc.v.Interval(tc.r))
			}
		})
	}
}

// TestHappened checks the rule for events, whose valid time is their
// transaction time.
func TestHappened(t *testing.T) {
	at := time.Date(2026, 1, 10, 0, 0, 0, 0, time.UTC)
	p := func(t time.Time) *time.Time { return &t }
	before, after := at.Add(-time.Nanosecond), at.Add(time.Nanosecond)
	tests := []struct {
		name string
		v    temporal.View
		want bool
	}{
		{"now", temporal.View{}, true},
		{"known exactly then", temporal.View{KnownAt: p(at)}, true},
		{"known before", temporal.View{KnownAt: p(before)}, false},
		{"as of exactly then", temporal.View{AsOf: p(at)}, true},
		{"as of before", temporal.View{AsOf: p(before)}, false},
		{"as of after, known before", temporal.View{AsOf: p(after), KnownAt: p(before)}, false},
		{"as of before, known after", temporal.View{AsOf: p(before), KnownAt: p(after)}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.v.Happened(at); got != tc.want {
				t.Errorf("Happened = %v, want %v", got, tc.want)
			}
		})
	}
}
