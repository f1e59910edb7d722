package extract

import "testing"

// TestLetter: a message's greeting and sign-off are cut; text that only
// looks like one stays.
func TestLetter(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Dear Phone, my daughter has moved house. Love, Edna", "my daughter has moved house."},
		{"Hello dear, Tom is coming Sunday the 11th instead. Love from Gran (Edna)", "Tom is coming Sunday the 11th instead."},
		{"Dear Sir or Madam, my Bank is now the one on Market Square. Yours sincerely, Edna Whitfield", "my Bank is now the one on Market Square."},
		{"Good afternoon, Gareth does my Feet now. Kind regards, Edna", "Gareth does my Feet now."},
		{"Dear Phone, I take One tablet a day now. Edna", "I take One tablet a day now."},
		{"Hi Tom! standup is at 10 now. Thanks, Priya x", "standup is at 10 now."},
		{"Mr Dobbs has given up Driving. God bless, Edna", "Mr Dobbs has given up Driving."},
		// A bare name at the end is a signature only after a greeting.
		{"The new dentist is Dr. Lee. Tuesdays.", "The new dentist is Dr. Lee. Tuesdays."},
		{"Standup moved to 10. Priya", "Standup moved to 10. Priya"},
		// A greeting with nothing after it, or no mark after it, stays.
		{"Hello dear,", "Hello dear,"},
		{"Hey the standup moved to 10", "Hey the standup moved to 10"},
		// Thanks followed by more than a name is a sentence.
		{"Code is 4411 now. Thanks, the old one expired", "Code is 4411 now. Thanks, the old one expired"},
		{"Thanks, Edna", "Thanks, Edna"},
	}
	for _, tc := range tests {
		if got := Letter(tc.in); got != tc.want {
			t.Errorf("Letter(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
