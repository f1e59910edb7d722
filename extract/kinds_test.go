package extract

import "testing"

// TestOtherKind: a new value of another kind than the stored one is none
// of its values.
func TestOtherKind(t *testing.T) {
	tests := []struct {
		stored, v string
		want      bool
	}{
		{"jess@novaenergy.gg", "tom", true},
		{"jess@novaenergy.gg", "tom.r@novaenergy.gg", false},
		{"555-0182", "Tanya", true},
		{"555-0182", "555-0319", false},
		{"2026-03-02", "Friday", false},
		{"Every second Monday", "Webster-paks", true},
		{"Every second Monday", "every second Thursday", false},
		{"Tuesday 7pm", "half seven", false},
		{"Sunday 5pm", "Dana and I agreed to do Sunday handoffs at 6", true},
		{"Sunday 5pm", "Sunday at 6", false},
		{"Janet Ruiz", "leave through the spring", true},
		{"Janet Ruiz", "rosa", false},
		{"Janet Ruiz", "Paul Okonkwo", false},
		{"February 8", "on the 15th of February", false},
		{"Sal's Auto", "after that brake fiasco", true},
		{"Sal's Auto", "Eastside Garage", false},
		{"Marriott lobby 3:15pm", "the side entrance", false}, // a place and a time: not only when
		{"Dr. Okafor", "Dr. Patel", false},
	}
	for _, tc := range tests {
		if got := OtherKind(tc.stored, tc.v); got != tc.want {
			t.Errorf("OtherKind(%q, %q) = %v, want %v", tc.stored, tc.v, got, tc.want)
		}
	}
}

// TestPlaceKey: a key whose words name a place.
func TestPlaceKey(t *testing.T) {
	for key, want := range map[string]bool{
		"office_location": true, "home_addr": true, "hq": true, "venue": true,
		"emergencyContact": false, "dentist": false, "webster_pak_pickup": false,
	} {
		if got := PlaceKey(key); got != want {
			t.Errorf("PlaceKey(%q) = %v, want %v", key, got, want)
		}
	}
}

func TestContrasted(t *testing.T) {
	tests := []struct {
		sentence, key string
		want          bool
	}{
		{"League rule change, so our home kits are switching to white.", "away_kit", true},
		{"They changed the back door code to 4471.", "front_door_code", true},
		{"Our away kit is white now.", "away_kit", false},
		{"The home kits are white, the away kit stays navy.", "away_kit", false},
		{"Kits are switching to white.", "away_kit", false},
		{"Dinner is at 7 now.", "lunch_time", false},
		// A key with no word of the group, and a sentence that sets two
		// apart.
		{"JV travel roster got cut to 18 for away games, varsity's untouched", "travelRosterSize", true},
		{"Travel roster got cut to 18 for away games", "travelRosterSize", false},
		{"The JV travel roster is 18 now", "travelRosterSize", false},
		{"cutover went clean last night, prod is fully on Hetzner now, killed the DO droplets this morning", "prod_host", false},
	}
	for _, tc := range tests {
		if got := Contrasted(tc.sentence, tc.key); got != tc.want {
			t.Errorf("Contrasted(%q, %q) = %v, want %v", tc.sentence, tc.key, got, tc.want)
		}
	}
}

func TestSharedOnly(t *testing.T) {
	tests := []struct {
		text, key, other string
		want             bool
	}{
		{"The budget was cut to $30,000.", "marketing_budget", "travel_budget", true},
		{"The marketing budget was cut to $30,000.", "marketing_budget", "travel_budget", false},
		{"The rent is $1,900 now.", "marketing_budget", "travel_budget", false},
	}
	for _, tc := range tests {
		if got := SharedOnly(tc.text, tc.key, tc.other); got != tc.want {
			t.Errorf("SharedOnly(%q, %q, %q) = %v, want %v", tc.text, tc.key, tc.other, got, tc.want)
		}
	}
}

func TestUnitName(t *testing.T) {
	tests := []struct {
		text, name, stored string
		want               bool
	}{
		{"Hana is the server admin for the Chen lab next door now", "Chen", "Miguel", true},
		{"We moved to the Berlin office.", "Berlin", "Munich office", false},
		{"Hana is our server admin now.", "Hana", "Miguel", false},
	}
	for _, tc := range tests {
		if got := UnitName(tc.text, tc.name, tc.stored); got != tc.want {
			t.Errorf("UnitName(%q, %q, %q) = %v, want %v", tc.text, tc.name, tc.stored, got, tc.want)
		}
	}
}

func TestLetterApart(t *testing.T) {
	tests := []struct {
		sentence, key string
		want          bool
	}{
		{"yard A at 17 trailers after AM drops, B didn't move", "yardB_trailer_count", true},
		{"yard B at 17 trailers after AM drops", "yardB_trailer_count", false},
		{"yard A at 12, yard B at 17 now", "yardB_trailer_count", false},
		{"the yard is at 17 trailers", "yardB_trailer_count", false},
		{"Correction on the water account, I had two digits swapped. It's WA-448821.", "water_account_no", false},
		{"Dock 4 is closed, trucks go to dock 6 now", "dock_2_hours", true},
		{"ward 4 insulin pens 12 → 18/wk.", "ward6_insulin_pens", true},
		{"ward 6 insulin pens 12 → 18/wk.", "ward6_insulin_pens", false},
	}
	for _, tc := range tests {
		if got := LetterApart(tc.sentence, tc.key); got != tc.want {
			t.Errorf("LetterApart(%q, %q) = %v, want %v", tc.sentence, tc.key, got, tc.want)
		}
	}
}

func TestQualifiedApart(t *testing.T) {
	tests := []struct {
		sentence, key string
		want          bool
	}{
		{"raised the loft cleaning fee to $95 since it's a bigger turnover", "cleaning_fee_cottage", true},
		{"raised the cleaning fee to $95", "cleaning_fee_cottage", false},
		{"raised the new cleaning fee to $95", "cleaning_fee_cottage", false},
		{"the cottage cleaning fee is $95 now", "cleaning_fee_cottage", false},
		{"my cleaning fee is $95 now", "cleaning_fee_cottage", false},
		{"raised the loft cleaning fee to $95", "cleaning_fee", false}, // nothing of the key unsaid
	}
	for _, tc := range tests {
		if got := QualifiedApart(tc.sentence, tc.key); got != tc.want {
			t.Errorf("QualifiedApart(%q, %q) = %v, want %v", tc.sentence, tc.key, got, tc.want)
		}
	}
}

func TestOthersAttr(t *testing.T) {
	tests := []struct {
		sentence, key string
		want          bool
	}{
		{"The fringe benefit rate has gone up to 31% from 1 January, so please factor that into the revised budget.", "indirect_cost_rate", true},
		{"The new rate is 55% from 1 January.", "indirect_cost_rate", false},
		{"The indirect cost rate has gone up to 55%.", "indirect_cost_rate", false},
		{"Our rate went up to 55%.", "indirect_cost_rate", false},
	}
	for _, tc := range tests {
		if got := OthersAttr(tc.sentence, tc.key); got != tc.want {
			t.Errorf("OthersAttr(%q, %q) = %v, want %v", tc.sentence, tc.key, got, tc.want)
		}
	}
}

func TestSameWords(t *testing.T) {
	tests := []struct {
		stored, v string
		want      bool
	}{
		{"Starbucks on Elm St", "Elm St Starbucks", true},
		{"Starbucks on Elm St", "the police station lot on 4th", false},
		{"Starbucks on Elm St", "Starbucks on Main St", false},
		{"Conf Room B", "Conf B", true},
		{"Brightline Media", "Let Brightline", true},
		{"Brightline Media", "Kestrel Digital", false},
		{"Conf Room B", "3rd floor training room", false},
		{"Garage B, level 3", "Garage D level 2", false},
		{"every 3rd weekend", "every other weekend", false},
	}
	for _, tc := range tests {
		if got := SameWords(tc.stored, tc.v); got != tc.want {
			t.Errorf("SameWords(%q, %q) = %v, want %v", tc.stored, tc.v, got, tc.want)
		}
	}
}

// TestOwnedByKey: another's thing is the key's when the key names its
// owner, by a name the pronoun refers back to or by the speaker's
// relation, said with or without "my".
func TestOwnedByKey(t *testing.T) {
	tests := []struct {
		sentence, key string
		want          bool
	}{
		{"no no, my sister's birthday is June 21", "sister_bday", true},
		{"sis bday = Mar 19, not 9", "sisterBday", true},
		{"mom moved her appointment to Friday", "mom_appt", true},
		{"mom moved her appointment to Friday", "appointment", false},
		{"my sister moved her appointment to Friday", "appointment", false},
		{"sis moved her dentist to Friday", "dentist_appt", false},
	}
	for _, tc := range tests {
		if got := OwnedByKey(tc.sentence, tc.key); got != tc.want {
			t.Errorf("OwnedByKey(%q, %q) = %v, want %v", tc.sentence, tc.key, got, tc.want)
		}
	}
}

// TestKeptAsIs: a thing said to stay as it was, by every word of the key.
func TestKeptAsIs(t *testing.T) {
	tests := []struct {
		text, key string
		want      bool
	}{
		{"Noted — the guest network password is bluejay2026 now; I left your main wifi password as is.", "wifi_pw", true},
		{"The guest network password is bluejay2026 now, your wifi password stays the same.", "wifiPassword", true},
		{"The guest network password is bluejay2026 now; I left your router alone.", "wifi_pw", false},
		{"Your wifi password is bluejay2026 now.", "wifi_pw", false},
		{"I kept the dentist appointment where it was and moved the cleaning.", "dentist_appt", true},
		{"Prod deploy approver changed to Omar (CHG-77). UAT sign-off unaffected.", "uatApprover", true},
		{"Prod deploy approver changed to Omar (CHG-77). UAT sign-off unaffected.", "prod_deploy_approver", false},
		{"Main line changed to 555-0199. Fax number unchanged.", "fax_number", true},
	}
	for _, tc := range tests {
		if got := KeptAsIs(tc.text, tc.key); got != tc.want {
			t.Errorf("KeptAsIs(%q, %q) = %v, want %v", tc.text, tc.key, got, tc.want)
		}
	}
}
