package feed_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stategraph/stategraph/fault"
	"github.com/stategraph/stategraph/feed"
)

func newBroker(t testing.TB, o feed.Options) *feed.Broker {
	t.Helper()
	b, err := feed.New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// TestPublishRoutes: an event reaches the subscribers of its organization
// and topic that accept it, and no one else.
func TestPublishRoutes(t *testing.T) {
	b := newBroker(t, feed.Options{})
	subs := map[string]*feed.Subscription{}
	for name, args := range map[string]struct {
		org    string
		topic  feed.Topic
		accept func(feed.Event) bool
	}{
		"facts":          {"org-a", feed.TopicFact, nil},
		"facts of city":  {"org-a", feed.TopicFact, feed.HasKey("city")},
		"conflicts":      {"org-a", feed.TopicConflict, nil},
		"other org":      {"org-b", feed.TopicFact, nil},
		"facts of team":  {"org-a", feed.TopicFact, feed.HasKey("team")},
		"assertions (b)": {"org-b", feed.TopicAssertion, nil},
	} {
		s, err := b.Subscribe(args.org, args.topic, args.accept)
		if err != nil {
			t.Fatal(err)
		}
		subs[name] = s
	}
	b.Publish(feed.Event{Topic: feed.TopicFact, Org: "org-a", ID: "F1", Keys: []string{"city", "town"}})
	want := map[string]bool{"facts": true, "facts of city": true}
	for name, s := range subs {
		select {
		case e := <-s.Events():
			if !want[name] || e.ID != "F1" {
				t.Errorf("%s received %+v", name, e)
			}
		default:
			if want[name] {
				t.Errorf("%s received nothing", name)
			}
		}
	}
}

// TestSlowSubscriberDropped: Publish never waits; a subscriber whose
// buffer is full is dropped with an error, the others go on.
func TestSlowSubscriberDropped(t *testing.T) {
	b := newBroker(t, feed.Options{Buffer: 2})
	slow, _ := b.Subscribe("org", feed.TopicFact, nil)
	fast, _ := b.Subscribe("org", feed.TopicFact, nil)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 100 {
			b.Publish(feed.Event{Topic: feed.TopicFact, Org: "org", ID: string(rune('a' + i%26))})
			<-fast.Events()
		}
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Publish blocked on a subscriber that does not read")
	}
	n := 0
	for range slow.Events() {
		n++
	}
	if n != 2 {
		t.Errorf("the slow subscriber got %d events before being dropped, want its buffer's 2", n)
	}
	if err := slow.Err(); !errors.Is(err, feed.ErrDropped) || fault.KindOf(err) != fault.Forbidden {
		t.Errorf("Err() = %v, want a FORBIDDEN fault wrapping ErrDropped", err)
	}
	if fast.Err() != nil || b.Subscribers("org") != 1 {
		t.Errorf("the reading subscriber: err %v, subscribers %d; want nil, 1", fast.Err(), b.Subscribers("org"))
	}
}

// TestLimits: subscriptions and connections are bounded per organization;
// ending one frees its slot.
func TestLimits(t *testing.T) {
	b := newBroker(t, feed.Options{MaxPerOrg: 2})
	s1, _ := b.Subscribe("org", feed.TopicFact, nil)
	if _, err := b.Subscribe("org", feed.TopicConflict, nil); err != nil {
		t.Fatal(err)
	}
	_, err := b.Subscribe("org", feed.TopicFact, nil)
	if !errors.Is(err, feed.ErrLimit) || fault.KindOf(err) != fault.Forbidden {
		t.Fatalf("third subscription: %v, want a FORBIDDEN fault wrapping ErrLimit", err)
	}
	if _, err := b.Subscribe("other", feed.TopicFact, nil); err != nil {
		t.Errorf("another organization: %v", err)
	}
	s1.Close()
	s1.Close() // idempotent
	if _, err := b.Subscribe("org", feed.TopicFact, nil); err != nil {
		t.Errorf("after Close: %v", err)
	}

	r1, _ := b.Connect("org")
	if _, err := b.Connect("org"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Connect("org"); !errors.Is(err, feed.ErrLimit) {
		t.Fatalf("third connection: %v, want ErrLimit", err)
	}
	r1()
	r1() // releases once
	if _, err := b.Connect("org"); err != nil {
		t.Errorf("after release: %v", err)
	}
	if _, err := b.Connect("org"); !errors.Is(err, feed.ErrLimit) {
		t.Errorf("a double release freed two slots: %v", err)
	}
}

// TestStream: Stream shows each event through see, skips what see
// withholds, and ends when the context does, freeing the subscription.
func TestStream(t *testing.T) {
	b := newBroker(t, feed.Options{})
	sub, _ := b.Subscribe("org", feed.TopicFact, nil)
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	out := feed.Stream(ctx, sub, func(_ context.Context, e feed.Event) (string, bool, error) {
		return "seen " + e.ID, e.ID != "secret", nil
	}, func(err error) { ended <- err })
	for _, id := range []string{"one", "secret", "two"} {
		b.Publish(feed.Event{Topic: feed.TopicFact, Org: "org", ID: id})
	}
	for _, want := range []string{"seen one", "seen two"} {
		if got := <-out; *got != want {
			t.Errorf("got %q, want %q", *got, want)
		}
	}
	cancel()
	if _, open := <-out; open {
		t.Error("the stream stayed open after its context ended")
	}
	if err := <-ended; err != nil {
		t.Errorf("ended with %v, want nil", err)
	}
	if n := b.Subscribers("org"); n != 0 {
		t.Errorf("%d subscriptions left, want 0", n)
	}
}

// TestClose: closing the broker ends every subscription without error and
// refuses new ones.
func TestClose(t *testing.T) {
	b := newBroker(t, feed.Options{})
	sub, _ := b.Subscribe("org", feed.TopicFact, nil)
	b.Close()
	if _, open := <-sub.Events(); open || sub.Err() != nil {
		t.Errorf("subscription after Close: open %v, err %v", open, sub.Err())
	}
	if _, err := b.Subscribe("org", feed.TopicFact, nil); err == nil {
		t.Error("Subscribe after Close succeeded")
	}
	select {
	case <-b.Done():
	default:
		t.Error("Done is not closed")
	}
}

// TestPublishAfterEverySubscriptionEnded: with no live subscription a
// publish is skipped without the lock; a subscription started afterwards,
// including after others were closed or dropped, receives what follows.
func TestPublishAfterEverySubscriptionEnded(t *testing.T) {
	b := newBroker(t, feed.Options{Buffer: 1})
	ev := func(id string) feed.Event { return feed.Event{Topic: feed.TopicFact, Org: "org", ID: id} }
	b.Publish(ev("nobody"))
	closed, _ := b.Subscribe("org", feed.TopicFact, nil)
	closed.Close()
	closed.Close()
	dropped, _ := b.Subscribe("org", feed.TopicFact, nil)
	b.Publish(ev("1"))
	b.Publish(ev("2")) // over the buffer: dropped
	if dropped.Err() == nil {
		t.Fatal("the subscriber over its buffer was not dropped")
	}
	dropped.Close()
	b.Publish(ev("before"))
	s, err := b.Subscribe("org", feed.TopicFact, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.Publish(ev("after"))
	select {
	case e := <-s.Events():
		if e.ID != "after" {
			t.Errorf("received %q, want %q", e.ID, "after")
		}
	default:
		t.Error("a subscription started after every other one ended received nothing")
	}
	if n := b.Subscribers("org"); n != 1 {
		t.Errorf("%d subscribers, want 1", n)
	}
}
