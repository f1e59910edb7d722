// Command agent is a scripted agent loop over stategraph: it records each
// user turn, assembles the context before each answer, prints the context's
// facts, and shows a supersession taking effect. The answers come from a
// stand-in model; README.md shows where an LLM goes.
//
//	go run ./examples/agent --url http://127.0.0.1:8080/graphql --token "$STATEGRAPH_TOKEN"
package main

import (
	"bufio"
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/stategraph/stategraph/client"
)

//go:embed conversation.txt
var defaultScript string

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
	default:
		fmt.Fprintln(os.Stderr, "agent:", err)
		os.Exit(1)
	}
}

// run parses the flags, reads the script and runs the conversation.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("agent", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("url", "http://127.0.0.1:8080/graphql", "stategraph GraphQL endpoint")
	token := fs.String("token", "", "bearer token (default $STATEGRAPH_TOKEN)")
	script := fs.String("script", "", "conversation file, one user turn a line (default: the embedded conversation)")
	session := fs.String("session", "agent-example", "session id the turns are recorded in")
	budget := fs.Int("budget", 1000, "token budget of each assembled context")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q: the conversation comes from --script", fs.Args())
	}
	if *token == "" {
		*token = getenv("STATEGRAPH_TOKEN")
	}
	if *token == "" {
		return errors.New("--token (or STATEGRAPH_TOKEN) is required: use the demo token 'stategraph serve --dev' prints, or mint one with 'stategraph token'")
	}
	text := defaultScript
	if *script != "" {
		b, err := os.ReadFile(*script)
		if err != nil {
			return fmt.Errorf("read script: %w", err)
		}
		text = string(b)
	}
	turns, err := parseScript(strings.NewReader(text))
	if err != nil {
		return err
	}
	a := &Agent{
		Client:  client.New(*url, *token),
		Model:   scriptedModel{},
		Session: *session,
		Budget:  *budget,
		Out:     stdout,
	}
	return a.Converse(ctx, turns)
}

// parseScript returns the user turns of a script: one a line, blank lines
// and # comments skipped.
func parseScript(r io.Reader) ([]string, error) {
	var turns []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		turns = append(turns, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read script: %w", err)
	}
	if len(turns) == 0 {
		return nil, errors.New("the script has no turns")
	}
	return turns, nil
}

// Prompt is what the model answers from: the assembled context (the
// system prompt of an LLM call) and the user's turn.
type Prompt struct {
	Context string
	User    string
	// Facts are the lines of the context's fact sections, "key: value".
	Facts []string
}

// Model answers a user turn. An LLM goes here (see README.md).
type Model interface {
	Answer(ctx context.Context, p Prompt) (string, error)
}

// scriptedModel stands in for an LLM: it answers with the facts it was
// given, so the output shows what a model would have been told.
type scriptedModel struct{}

func (scriptedModel) Answer(_ context.Context, p Prompt) (string, error) {
	if len(p.Facts) == 0 {
		return "I know nothing about that yet.", nil
	}
	return "From what I know: " + strings.Join(p.Facts, "; ") + ".", nil
}

// factSections are the titles of the context sections that hold facts.
var factSections = map[string]bool{"Facts": true}

// Agent is the loop: for each user turn it records the turn, assembles the
// context, and asks the model for an answer.
type Agent struct {
	Client  *client.Client
	Model   Model
	Session string
	Budget  int
	Out     io.Writer
}

// Converse runs the conversation turns, then prints the history of every
// key a turn superseded.
func (a *Agent) Converse(ctx context.Context, turns []string) error {
	var changed []string
	seen := map[string]bool{}
	for i, text := range turns {
		if i > 0 {
			fmt.Fprintln(a.Out)
		}
		fmt.Fprintf(a.Out, "user> %s\n", text)
		keys, err := a.record(ctx, text)
		if err != nil {
			return err
		}
		for _, k := range keys {
			if !seen[k] {
				seen[k] = true
				changed = append(changed, k)
			}
		}
		ac, err := a.Client.AssembleContext(ctx, client.ContextInput{Query: text, Budget: a.Budget, SessionId: &a.Session})
		if err != nil {
			return fmt.Errorf("assemble context: %w", err)
		}
		facts := contextFacts(ac)
		fmt.Fprintf(a.Out, "  context (%d/%d tokens) facts:\n", ac.Tokens, ac.Budget)
		for _, f := range facts {
			fmt.Fprintf(a.Out, "    - %s\n", f)
		}
		answer, err := a.Model.Answer(ctx, Prompt{Context: ac.Text, User: text, Facts: facts})
		if err != nil {
			return fmt.Errorf("model: %w", err)
		}
		fmt.Fprintf(a.Out, "assistant> %s\n", answer)
	}
	for _, key := range changed {
		if err := a.history(ctx, key); err != nil {
			return err
		}
	}
	return nil
}

// record records a user turn, prints the supersessions it applied, and
// returns the keys of the facts they superseded.
func (a *Agent) record(ctx context.Context, text string) ([]string, error) {
	r, err := a.Client.RecordTurn(ctx, client.TurnInput{SessionId: a.Session, Speaker: client.SpeakerUser, Text: text})
	if err != nil {
		return nil, fmt.Errorf("record turn: %w", err)
	}
	var keys []string
	for _, d := range r.Detections {
		if d.Blocked {
			fmt.Fprintf(a.Out, "  blocked (%s, %q): %s ranks below what it would replace\n", d.Kind, d.Cue, d.Replacement)
			continue
		}
		for _, s := range d.Superseded {
			if s.Kind != client.SupersededKindFact {
				continue
			}
			old, err := a.Client.Fact(ctx, s.Id)
			if err != nil {
				return nil, fmt.Errorf("read superseded fact: %w", err)
			}
			if old == nil {
				continue
			}
			fmt.Fprintf(a.Out, "  superseded (%s, %q): %s -> %s\n", d.Kind, d.Cue, old.Text, d.Replacement)
			keys = append(keys, old.Key)
		}
	}
	return keys, nil
}

// history prints the supersession chain of key, oldest first.
func (a *Agent) history(ctx context.Context, key string) error {
	h, err := a.Client.FactHistory(ctx, key)
	if err != nil {
		return fmt.Errorf("fact history: %w", err)
	}
	fmt.Fprintf(a.Out, "\nhistory of %s:\n", key)
	for _, f := range h {
		state := "current"
		if !f.IsValid {
			state = "superseded"
		}
		fmt.Fprintf(a.Out, "  %-10s %s\n", state, f.Text)
	}
	return nil
}

// contextFacts returns the lines of the context's fact sections without
// their "- " bullets.
func contextFacts(ac *client.AssembledContext) []string {
	var out []string
	for _, s := range ac.Sections {
		if !factSections[s.Title] {
			continue
		}
		for _, line := range strings.Split(s.Text, "\n") {
			if l, ok := strings.CutPrefix(line, "- "); ok {
				out = append(out, l)
			}
		}
	}
	return out
}
