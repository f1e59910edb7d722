package client_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/stategraph/stategraph/client"
)

// A fact, its successor, and the current value.
func Example() {
	ctx := context.Background()
	c := client.New("http://127.0.0.1:8080/graphql", "<token>")

	if _, err := c.WriteFact(ctx, client.FactInput{Key: "onboarding_deck.owner", Value: client.Value("Lena")}); err != nil {
		log.Fatal(err)
	}
	_, err := c.WriteFact(ctx, client.FactInput{
		Key: "onboarding_deck.owner", Value: client.Value("Jonas"),
		Supersedes: client.Ptr("onboarding_deck.owner"),
		Reason:     client.Ptr("Jonas took the deck over"),
	})
	if err != nil {
		log.Fatal(err)
	}
	cur, err := c.CurrentValue(ctx, "onboarding_deck.owner")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cur.Text)
}

// A turn, then the context for the answer.
func ExampleClient_AssembleContext() {
	ctx := context.Background()
	c := client.New("http://127.0.0.1:8080/graphql", "<token>")

	r, err := c.RecordTurn(ctx, client.TurnInput{
		SessionId: "s-1", Speaker: client.SpeakerUser,
		Text: "Jonas is taking the onboarding deck off Lena's hands.",
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range r.Detections {
		fmt.Println(d.Kind, d.Cue, d.Replacement)
	}
	ac, err := c.AssembleContext(ctx, client.ContextInput{
		Query: "Who owns the onboarding deck?", Budget: 1000, SessionId: client.Ptr("s-1"),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ac.Text)
}

// The generated functions take the client and expose every argument, here
// a view of the past.
func ExampleCurrentValue() {
	ctx := context.Background()
	c := client.New("http://127.0.0.1:8080/graphql", "<token>")
	asOf := time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)
	r, err := client.CurrentValue(ctx, c, "onboarding_deck.owner", &asOf, nil)
	if err != nil {
		log.Fatal(err)
	}
	if r.CurrentValue != nil {
		fmt.Println(r.CurrentValue.Text)
	}
}

// Branching on the error's code.
func ExampleError() {
	ctx := context.Background()
	c := client.New("http://127.0.0.1:8080/graphql", "<token>")
	_, err := c.WriteFact(ctx, client.FactInput{
		Key: "k", Value: client.Value("v"), Supersedes: client.Ptr("no.such.key"),
	})
	var e *client.Error
	switch {
	case errors.As(err, &e) && e.Code == client.CodeNotFound:
		fmt.Println("nothing to supersede:", e.Message)
	case client.CodeOf(err) == client.CodeUnauthenticated:
		fmt.Println("get a token: stategraph token --help")
	case err != nil:
		log.Fatal(err)
	}
}
