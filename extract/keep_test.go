package extract

import (
	"testing"
	"time"
)

func TestKeepsTopic(t *testing.T) {
	tests := []struct {
		sentence, key string
		want          bool
	}{
		{"they changed the med room code to 1379 today, at least the unit door code didn't change", "unitDoorCode", true},
		{"jess got moved to mountain west, my territory stays pnw thank god", "territory", true},
		{"Well, the gate code over at Riverside got changed to 8830, anyhow Maple Grove is still the same old one, thank heavens.", "maple_grove_gate_code", true},
		{"Different guy from my apartment landlord, don't mix them up.", "landlord_phone", true},
		{"A different company from our old caterer.", "landlord_phone", false},
		{"The U14 girls' team budget went up to $4,000, good for them, ours is exactly the same as before.", "team_budget", true},
		{"The standup is still at 9, we just moved rooms.", "standup_time", true},
		{"The gate code hasn't changed.", "gate_code", true},
		{"fyi the landlord's email changed to rkowalski@gmail.com, phone is the same though", "landlord_phone", true},
		{"fyi the landlord's email changed to rkowalski@gmail.com, phone is the same though", "landlord_email", false},
		{"the plumber's email changed, phone is the same though", "landlord_phone", false},
		{"Changed the guest wifi password at Elm to breadbasket26, Harbor's is the same as before.", "wifi_pw_harbor", true},
		{"Changed the guest wifi password at Elm to breadbasket26, Harbor's is the same as before.", "wifi_pw_elm", false},
		{"I changed the estimate prefix to EST-26 but left the invoice prefix alone.", "invoicePrefix", true},
		{"I changed the estimate prefix to EST-26 but left the invoice prefix alone.", "estimatePrefix", false},
		{"For the minutes: the Kessler Trust deadline was pushed to March 2; the Harmon deadline is unchanged.", "grant_deadline_harmon", true},
		{"the Kessler Trust deadline was pushed to March 2", "grant_deadline_harmon", false},
		{"The parking fee is going up to $85 a month, though thankfully the rent itself is staying exactly where it was.", "monthly_rent", true},
		{"I have asked the front desk to reset my library PIN to 8830, but for the moment it is still the old one.", "library_card_pin", true},
		{"For the moment it is still the old one.", "library_card_pin", false},
		// Another thing stays; the key's thing may change.
		{"they changed the door code to 1379, the alarm code didn't change", "door_code", false},
		{"The standup moved to 10, the room stays the same.", "standup_time", false},
		{"Ours is the same as before.", "team_budget", false}, // "ours" with the key unnamed
		{"The door code changed to 1379.", "door_code", false},
		// The standard one of a thing named elsewhere stays.
		{"happy hour oysters down to $2 at the bar. regular price stays.", "oyster_price", true},
		{"the regular price stays.", "oyster_price", true},
		{"happy hour oysters down to $2 at the bar. the menu stays.", "oyster_price", false},
		{"LHR per diem went to £95, US one unchanged.", "perDiemUS", true},
		{"Water and gas both start Feb 9, electric's still the 6th.", "electric_start_date", true},
		{"office wifi pw changed to maple-river-88, home one's unchanged", "wifi_pw", true},
		{"Rick changed the office safe combo to 8823, alarm code's untouched though.", "alarm_code", true},
		{"Billing for the surgeon's office is 555-0188, that's a separate line from the main number.", "surgeon_office_phone", true},
		{"Eileen's just moved into plot 12 beside the tap, lucky duck, but I'm staying put.", "community_plot", true},
		{"Eileen's just moved into plot 12 beside the tap, but I'm staying put.", "wifi_pw", false},
		{"my wifi pw changed to maple-river-88, the other one's unchanged", "wifi_pw", false},
		{"The piano movers' number is 937-555-0342, but that's a separate company the church hired, not our movers.", "movers_phone", true},
		{"The movers' number is 937-555-0342, not 555-0188.", "movers_phone", false},
		{"Water and gas both start Feb 9, electric's still the 6th.", "gas_start_date", false},
		{"LHR per diem went to £95, that one unchanged.", "perDiemUS", false},
		// The thing the speaker will not change stays.
		{"Neurology has a 9:45 opening on the 14th but I'm not moving Mom's appointment, she's foggy in the mornings.", "neuro_appt_time", true},
		{"We're not moving the launch, but the launch venue is now Hall B.", "launch_venue", false},
		{"We won't switch caterers again, Rosa's Kitchen is great.", "caterer", true},
	}
	for _, tt := range tests {
		if got := KeepsTopic(tt.sentence, tt.key); got != tt.want {
			t.Errorf("KeepsTopic(%q, %q) = %v, want %v", tt.sentence, tt.key, got, tt.want)
		}
	}
}

func TestKeepsStored(t *testing.T) {
	tests := []struct {
		sentence, stored string
		want             bool
	}{
		{"no word yet, so the 17th stands", "Jan 17", true},
		{"prod stays on 13 until then", "13", true},
		{"the 24th stands out as the best option", "Jan 17", false},
		{"Maria's still doing my books", "Maria Lopez", true},
		{"Pilates 10-class packs are now $180, drop-in price stays the same.", "$20 drop-in", true},
		{"Drop-in price went up to $22, class packs stay the same.", "$20 drop-in", false},
		{"did 15 heel slides today instead of 10 because I lost count, oops. back to 10 tomorrow like PT said", "10", true},
		{"we're going back to 9am from 8", "8am", false},
	}
	for _, tc := range tests {
		if got := KeepsStored(tc.sentence, tc.stored); got != tc.want {
			t.Errorf("KeepsStored(%q, %q) = %v, want %v", tc.sentence, tc.stored, got, tc.want)
		}
	}
}

func TestSameDate(t *testing.T) {
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		stored, value, sentence string
		want                    bool
	}{
		{"Jan 8", "2026-01-08", "the clothes container exam is still Thursday", true},
		{"Fri Jan 9 8am", "2026-01-09", "ok fasting bloodwork friday at 8", true},
		{"Saturday 10am", "2026-01-10", "swim lessons got bumped to Saturday at 9", false},
		{"Fri Jan 9 8am", "2026-01-09 10:00", "bloodwork moved to 10am friday", false},
		{"Jan 8", "2026-01-15", "the exam is on the 15th now", false},
		{"Jan 8", "Thursday", "the exam is Thursday", false},
	}
	for _, tc := range tests {
		if got := SameDate(tc.stored, tc.value, tc.sentence, at); got != tc.want {
			t.Errorf("SameDate(%q, %q, %q) = %v, want %v", tc.stored, tc.value, tc.sentence, got, tc.want)
		}
	}
}
