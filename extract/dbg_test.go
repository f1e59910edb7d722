package extract

import (
	"fmt"
	"testing"
	"time"
)

func TestDbg(t *testing.T) {
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	for _, s := range []string{"Our account manager at the cloud vendor switched to rob.quinn@sablesoft.com.", "You can reach our account manager at the cloud vendor at +44 7700 900963.", "Got it: Mei for the on-call runbook."} {
		r := Analyze(Turn{Text: s, Speaker: "user", At: at})
		fmt.Printf("%s\n", s)
		for _, x := range r.Sentences {
			fmt.Printf("   sent reason=%q\n", x.Reason)
		}
		for _, st := range r.Statements {
			fmt.Printf("   st %s = %q (%s, %s)\n", st.Key, st.Value, st.Rule, st.Kind)
		}
		for _, sk := range r.Skipped {
			fmt.Printf("   skip %q %s\n", sk.Sentence, sk.Reason)
		}
	}
}
