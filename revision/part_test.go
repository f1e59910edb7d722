package revision

import "testing"

// TestPartInStored: a part said alone takes its place in the stored value:
// an hour, a day of the month, an item of a list.
func TestPartInStored(t *testing.T) {
	tests := []struct {
		name, stored, previous, replacement, want string
	}{
		{"an hour beside the days", "Tue/Thu 3:30pm", "", "4", "Tue/Thu 4pm"},
		{"an hour in the morning", "Mon 9:30am", "", "10", "Mon 10am"},
		{"an hour beside more than days", "2 tickets for the 7pm show", "", "3", "3"},
		{"a day of the month", "Jan 14 at 9:30am", "", "21st", "Jan 21 at 9:30am"},
		{"a day of an ISO date", "2026-01-14", "", "the 3rd", "2026-01-03"},
		{"no day of a month", "Jan 14", "", "40th", "40th"},
		{"one item of a list", "6am and 4pm", "4pm", "5pm", "6am and 5pm"},
		{"an item said inside a word", "Mon/Wed/Fri 6am", "Fr", "Sa", "Sa"},
		{"a value that is no list", "4pm", "4pm", "5pm", "5pm"},
	}
	for _, tc := range tests {
		got := inList(tc.stored, tc.previous, atDay(tc.stored, atHour(tc.stored, tc.replacement)))
		if got != tc.want {
			t.Errorf("%s: %q → %q, want %q", tc.name, tc.stored, got, tc.want)
		}
	}
}
