package extract

import "testing"

func TestRetractions(t *testing.T) {
	tests := []struct {
		text  string
		topic string // "-" when the sentence retracts nothing
		first bool
	}{
		{"That was wrong.", "", false},
		{"Actually, scratch that.", "", false},
		{"Sorry, what I just said is incorrect.", "", false},
		{"Ignore what I said about the rollout.", "rollout", false},
		{"Please disregard everything I told you earlier about the venue.", "venue", false},
		{"The first diagnosis was wrong.", "diagnosis", true},
		{"My original estimate was wrong.", "estimate", true},
		{"I was wrong about the deadline.", "deadline", false},
		{"The budget I gave you was wrong.", "budget", false},
		{"Forget the earlier quote I sent.", "quote", false},
		// Not retractions.
		{"That wasn't wrong.", "-", false},
		{"Was that wrong?", "-", false},
		{"If that was wrong, tell me.", "-", false},
		{"The weather was wrong for a picnic.", "-", false},
		{"What if the diagnosis was wrong?", "-", false},
		{"The diagnosis is Lyme disease.", "-", false},
		{"Two years ago the estimate was wrong.", "-", false},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			rs := Retractions(Analyze(Turn{Text: tc.text, Speaker: "user", At: turnTime}))
			if tc.topic == "-" {
				if len(rs) != 0 {
					t.Fatalf("Retractions = %+v, want none", rs)
				}
				return
			}
			if len(rs) != 1 || rs[0].Topic != tc.topic || rs[0].First != tc.first {
				t.Fatalf("Retractions = %+v, want topic %q first %v", rs, tc.topic, tc.first)
			}
		})
	}
}
