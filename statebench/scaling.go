package statebench

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"
)

// Scaling writes the scaling timeline of n fact writes as one line of
// StateBench JSON: n state writes, every tenth a supersession of an
// earlier fact picked at random, n/10 conversation turns (one after every
// ten writes) and 20 queries spread evenly, each asking for a fact's
// current value. The same n and seed give the same bytes.
func Scaling(w io.Writer, n int, seed uint64) error {
	if n < 10 {
		return fmt.Errorf("statebench: a scaling timeline needs at least 10 writes, not %d", n)
	}
	rng := rand.New(rand.NewPCG(seed, 0x5ca1ab1e))
	at := time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC)
	tick := func() string {
		at = at.Add(time.Minute)
		return at.Format(time.RFC3339)
	}
	sentence := func(k int) string {
		words := make([]string, 6)
		for i := range words {
			words[i] = scalingWords[rng.IntN(len(scalingWords))]
		}
		return fmt.Sprintf("item %d is %s", k, strings.Join(words, " "))
	}
	type write = map[string]any
	var (
		events  []map[string]any
		current = map[string]string{} // key -> current value
		keys    []string
	)
	turns := n / 10
	queryEvery := max(1, turns/20)
	queries := 0
	for i := range n {
		key := fmt.Sprintf("scale_fact_%d", i)
		kind := KindStateWrite
		wr := write{"id": fmt.Sprintf("SF-%d", i), "layer": LayerFacts, "key": key, "value": sentence(i),
			"source": map[string]any{"type": "user", "authority": "employee"}}
		if i%10 == 9 {
			// Every tenth write supersedes an earlier fact, by key.
			old := keys[rng.IntN(len(keys))]
			kind, key = KindSupersession, old
			wr["key"], wr["supersedes"] = old, old
		} else {
			keys = append(keys, key)
		}
		current[key] = wr["value"].(string)
		events = append(events, map[string]any{"type": kind, "ts": tick(), "writes": []write{wr}})
		if i%10 != 9 {
			continue
		}
		t := i / 10
		events = append(events, map[string]any{"type": KindTurn, "ts": tick(), "speaker": "user",
			"text": fmt.Sprintf("Noted item %d; let's keep going with the next batch.", t)})
		if (t+1)%queryEvery == 0 && queries < 20 {
			k := keys[rng.IntN(len(keys))]
			events = append(events, map[string]any{"type": KindQuery, "ts": tick(),
				"prompt":       fmt.Sprintf("What is the current value of %s?", k),
				"ground_truth": map[string]any{"decision": current[k], "must_mention": []string{current[k]}, "must_not_mention": []string{}}})
			queries++
		}
	}
	tl := map[string]any{
		"id": fmt.Sprintf("SCALING-%d-%d", n, seed), "version": "1.0", "domain": "scaling", "track": "scaling",
		"difficulty": "scaling", "detection_mode": "explicit",
		"actors": map[string]any{"user": map[string]any{"id": "u1", "role": "Engineer", "org": "scaling"}, "assistant_role": "assistant"},
		"initial_state": map[string]any{
			"identity_role":    map[string]any{"user_name": "Sam", "authority": "employee", "department": "Engineering"},
			"persistent_facts": []any{}, "working_set": []any{},
			"environment": map[string]any{"now": at.Format(time.RFC3339)},
		},
		"events": events,
	}
	raw, err := json.Marshal(tl)
	if err != nil {
		return err
	}
	_, err = w.Write(append(raw, '\n'))
	return err
}

// scalingWords are the words of the scaling timeline's values.
var scalingWords = strings.Fields(`alpha amber anchor apex arbor atlas beacon birch bolt breeze cedar cobalt comet coral crest delta drift ember falcon fern flint forge frost garnet glade granite harbor hazel helix indigo iris jade juniper kestrel lagoon lark lumen maple marble meadow mesa nimbus oak onyx orbit osprey pine plume prism quartz quill raven reef ridge sable sage sierra slate sparrow spruce summit tango tide topaz tundra umber vale vertex willow zenith`)
