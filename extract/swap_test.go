package extract

import "testing"

func TestSwap(t *testing.T) {
	tests := []struct{ sentence, old, want string }{
		{"I cancelled PureGym and joined The Climbing Hangar.", "PureGym", "The Climbing Hangar"},
		{"We sold the Golf and bought a Skoda Octavia.", "Golf", "Skoda Octavia"},
		{"Scratch the Trek — I ordered the Canyon Endurace.", "Trek Domane", "Canyon Endurace"},
		{"We dropped TeamCity and went with GitLab CI.", "TeamCity", "GitLab CI"},
		{"We've ditched Jenkins for GitHub Actions.", "Jenkins", "GitHub Actions"},
		{"Sold the Golf and picked up a Corolla.", "VW Golf", "Corolla"},
		{"Golden Wok cancelled on us, so Mezze Republic is doing the food.", "Golden Wok", "Mezze Republic"},
		{"The barn fell through, so we booked Millbrook Hall.", "Larkspur Barn", "Millbrook Hall"},
		// Not swaps.
		{"I joined The Climbing Hangar last week.", "PureGym", ""},
		{"We sold the old bike and bought a helmet.", "Golf", ""},
		{"We dropped the Golf off at the garage.", "Golf", ""},
		{"I cancelled the dentist and booked a haircut.", "PureGym", ""},
		{"Golden Wok is doing the food.", "Golden Wok", ""},
		{"Mezze Republic cancelled on us, so Golden Wok is doing the food.", "Golden Wok", ""},
		{"We ditched the plan for a week.", "Jenkins", ""},
	}
	for _, tc := range tests {
		got, ok := Swap(tc.sentence, tc.old)
		if tc.want == "" {
			if ok {
				t.Errorf("Swap(%q, %q) = %q, want none", tc.sentence, tc.old, got)
			}
			continue
		}
		if !ok || got != tc.want {
			t.Errorf("Swap(%q, %q) = %q, %v, want %q", tc.sentence, tc.old, got, ok, tc.want)
		}
	}
}
