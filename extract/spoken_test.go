package extract

import "testing"

func TestSpoken(t *testing.T) {
	tests := []struct{ in, want string }{
		// Times of day, after a word that says a time or before the part
		// of the day.
		{"they had to move me so its march tenth now at two thirty instead", "they had to move me so its march 10th now at 2:30 instead"},
		{"gym is tuesdays and thursdays now like six thirty in the morning", "gym is tuesdays and thursdays now like 6:30 in the morning"},
		{"lilys piano got moved to wednesdays at four fifteen the teacher texted", "lilys piano got moved to wednesdays at 4:15 the teacher texted"},
		{"pickup moved to ten oh five", "pickup moved to 10:05"},
		// The half and the quarter hour.
		{"Choir practice is on Thursdays at half past six now.", "Choir practice is on Thursdays at 6:30 now."},
		{"pickup is quarter to seven", "pickup is 6:45"},
		{"quarter past 9 in the morning works", "9:15 in the morning works"},
		{"a quarter of the budget", "a quarter of the budget"},
		// A phone number said digit by digit.
		{"its five five five oh one nine two so um dont use the old one", "its 555-0192 so um dont use the old one"},
		// Days of the month: after a month always, after "the" only
		// where no noun follows.
		{"its june twenty first not the twelfth my mom just told me", "its june 21st not the 12th my mom just told me"},
		{"they moved my due date to the twenty second um so its the twenty second every month now", "they moved my due date to the 22nd um so its the 22nd every month now"},
		{"the first diagnosis was wrong", "the first diagnosis was wrong"},
		{"the second time we went", "the second time we went"},
		// Amounts said in hundreds before what they are paid by.
		{"rent went up to nineteen fifty a month", "rent went up to $1,950 a month"},
		{"the payment is three forty two a month now instead of three eighty nine", "the payment is $342 a month now instead of three eighty nine"},
		{"she quoted fifteen hundred dollars", "she quoted $1,500 dollars"},
		// Counts from thirteen; smaller ones and pronouns stay words.
		{"the party head count is fifteen now three more kids rsvped", "the party head count is 15 now three more kids rsvped"},
		{"we're at twenty-one people", "we're at 21 people"},
		{"I'll take the blue one, one of them is fine", "I'll take the blue one, one of them is fine"},
		{"Nothing spoken here: 3 pm on the 5th", "Nothing spoken here: 3 pm on the 5th"},
	}
	for _, tt := range tests {
		if got := Spoken(tt.in); got != tt.want {
			t.Errorf("Spoken(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

func TestPauses(t *testing.T) {
	tests := []struct{ in, want string }{
		{"so its the 22nd um so its the 22nd every month now", "so its the 22nd, so its the 22nd every month now"},
		{"um so the dentist office called", "so the dentist office called"},
		{"Hmm, the summit is in Umbria, uh, I think", "the summit is in Umbria, I think"},
		{"drums and umbrellas", "drums and umbrellas"},
		{"a new number but um the landlords cell is the same", "a new number but the landlords cell is the same"},
	}
	for _, tt := range tests {
		if got := Pauses(tt.in); got != tt.want {
			t.Errorf("Pauses(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzSpoken(f *testing.F) {
	for _, s := range []string{"march tenth at two thirty", "five five five oh one nine two", "nineteen fifty a month", "the twenty second", "fifteen hundred and fifty dollars"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Spoken(s)
		if out != s && !reSpokenCue.MatchString(s) {
			t.Fatalf("Spoken changed %q without a number word: %q", s, out)
		}
	})
}

func TestEmoji(t *testing.T) {
	tests := []struct{ in, want string }{
		{"rotated the wifi pw :lock: new one is Pelican#77", "rotated the wifi pw, new one is Pelican#77"},
		{"acme bumped their sponsorship to $750/mo starting this month 🎉", "acme bumped their sponsorship to $750/mo starting this month"},
		{"friday lunch is Tacombi from now on :taco:", "friday lunch is Tacombi from now on"},
		{"Note: the meeting is at 10:30:00 now", "Note: the meeting is at 10:30:00 now"},
	}
	for _, tt := range tests {
		if got := Emoji(tt.in); got != tt.want {
			t.Errorf("Emoji(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDotDates(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Prüfungsamt approved my Verlängerung, Abgabe is now 30.04.", "Prüfungsamt approved my Verlängerung, Abgabe is now 30 April"},
		{"my new Termin is 03.02. at 10:15.", "my new Termin is 3 February at 10:15."},
		{"signed on 14.01.2026 in Tübingen", "signed on 14 January 2026 in Tübingen"},
		{"upgraded to 1.2.3 today", "upgraded to 1.2.3 today"},
		{"the total is 30.04 euros", "the total is 30.04 euros"},
		{"on 45.13. nothing", "on 45.13. nothing"},
	}
	for _, tt := range tests {
		if got := DotDates(tt.in); got != tt.want {
			t.Errorf("DotDates(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRefCodes(t *testing.T) {
	tests := []struct{ in, want string }{
		{"the sponsor has extended the R01 submission deadline (ref. NIH-PA-25-301) to March 2", "the sponsor has extended the R01 submission deadline to March 2"},
		{"I've rebooked the viva in Committee Room A (booking ref. CR-30451), since Room B is closed", "I've rebooked the viva in Committee Room A, since Room B is closed"},
		{"the new room is (as before) on floor 2", "the new room is (as before) on floor 2"},
	}
	for _, tt := range tests {
		if got := RefCodes(tt.in); got != tt.want {
			t.Errorf("RefCodes(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestInlineCode(t *testing.T) {
	tests := []struct{ in, want string }{
		{"migration's done, prod lives in `eu-west-1` now", "migration's done, prod lives in eu-west-1 now"},
		{"HQ is `220 Brannan St` now", "HQ is 220 Brannan St now"},
		{"set `timeout = 30` in the config", "set `timeout = 30` in the config"},
		{"call `client.Retry(3)` first", "call `client.Retry(3)` first"},
		{"The variable `owner` is set to Jonas.", "The variable `owner` is set to Jonas."},
		{"The `room.capacity` field holds 40.", "The `room.capacity` field holds 40."},
		{"no code here", "no code here"},
		{"an unclosed ` mark", "an unclosed ` mark"},
	}
	for _, tt := range tests {
		if got := InlineCode(tt.in); got != tt.want {
			t.Errorf("InlineCode(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRoles(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Mr. Abernathy has graciously agreed to serve as our accompanist from this Thursday onward.", "Mr. Abernathy will be our accompanist from this Thursday onward."},
		{"Ana will act as treasurer.", "Ana will be treasurer."},
		{"Ana serves as treasurer now.", "Ana is treasurer now."},
		{"The board has agreed to consider Ana as treasurer.", "The board has agreed to consider Ana as treasurer."},
		{"Ana agreed to serve on the committee.", "Ana agreed to serve on the committee."},
		{"Priya's out on leave so I made Tom Becker the owner of the billing shared mailbox.", "Priya's out on leave so Tom Becker is now the owner of the billing shared mailbox."},
		{"We appointed Dana Pruitt as the new lead for onboarding.", "Dana Pruitt is now the new lead for onboarding."},
		{"I made the owner of the mailbox happy.", "I made the owner of the mailbox happy."},
		{"At last night's meeting, Mr. Daniel Okoye was elected PTA treasurer, succeeding Mrs. Marquez.", "At last night's meeting, Mr. Daniel Okoye is now PTA treasurer, succeeding Mrs. Marquez."},
		{"Harvest Table Catering has been selected as our new cafeteria vendor.", "Harvest Table Catering is now our new cafeteria vendor."},
		{"Harvest Table Catering was selected because of price.", "Harvest Table Catering was selected because of price."},
	}
	for _, tt := range tests {
		if got := Roles(tt.in); got != tt.want {
			t.Errorf("Roles(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestAffixed(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Nag-request ako na i-move sa January 19 yung embassy appointment", "requested ako na move sa January 19 yung embassy appointment"},
		{"Na-cancel na po yung flight", "cancel na po yung flight"},
		{"the follow-up is at 3pm", "the follow-up is at 3pm"},
		{"a re-do of the i-9 form", "a re-do of the i-9 form"},
	}
	for _, tt := range tests {
		if got := Affixed(tt.in); got != tt.want {
			t.Errorf("Affixed(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSpokenMarks(t *testing.T) {
	tests := []struct{ in, want string }{
		{"the heart doctors office called this morning comma they had to push my appointment back", "the heart doctors office called this morning, they had to push my appointment back"},
		{"my address is 88 Birch Lane now period", "my address is 88 Birch Lane now."},
		{"the trial period ends Friday", "the trial period ends Friday"},
		{"that was a comma splice", "that was a comma splice"},
	}
	for _, tt := range tests {
		if got := spokenMarks(tt.in); got != tt.want {
			t.Errorf("spokenMarks(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestShorthand: a text message's short days and halves of the day are
// written out; a unit or a code is not.
func TestShorthand(t *testing.T) {
	tests := []struct{ in, want string }{
		{"standup 8:45 tmrw only", "standup 8:45 tomorrow only"},
		{"pickup 2nite", "pickup tonight"},
		{"shift start now 6:30a per mgr email", "shift start now 6:30am per mgr email"},
		{"TPN cutoff now 1p.", "TPN cutoff now 1pm."},
		{"gym now T/Th/Sat 5:30a", "gym now T/Th/Sat 5:30am"},
		{"moved to unit 4a", "moved to unit 4a"},
		{"Apt 12a", "Apt 12a"},
		{"tmrwland tickets", "tmrwland tickets"},
	}
	for _, tc := range tests {
		if got := Shorthand(tc.in); got != tc.want {
			t.Errorf("Shorthand(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestUncontracted: the "'s" the rules read as a verb is written out; a
// possessive stays.
func TestUncontracted(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Budget's been trimmed to $30k", "Budget has been trimmed to $30k"},
		{"Omar's running support", "Omar is running support"},
		{"so Megan's driving dad down to Florida now", "so Megan is driving dad down to Florida now"},
		{"Rick's mowing the lawn on Fridays", "Rick is mowing the lawn on Fridays"},
		{"Dad's driving record is clean", "Dad's driving record is clean"},
		{"Megan's wedding is in June", "Megan's wedding is in June"},
	}
	for _, tc := range tests {
		if got := Uncontracted(tc.in); got != tc.want {
			t.Errorf("Uncontracted(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
