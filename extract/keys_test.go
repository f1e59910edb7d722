package extract

import (
	"testing"
	"time"
)

func TestNormalizeKey(t *testing.T) {
	tests := []struct{ in, entity, attr string }{
		{"onboarding_deck.owner", "onboarding_deck", "owner"},
		{"Onboarding Deck.Owner", "onboarding_deck", "owner"},
		{"home_address", "", "address"},
		{"addr", "", "address"},
		{"current_address", "", "address"},
		{"userPhoneNumber", "user", "phone"},
		{"PGOwnerPhone", "pg_owner", "phone"},
		{"myGPAppt", "my_gp_appt", ""},
		{"URLs", "", "url"},
		{"deck_owner", "deck", "owner"},
		{"marketing_budget", "marketing", "budget"},
		{"widget-price", "widget", "price"},
		{"hay_price_per_bale", "hay", "price"},
		{"launch_due_date", "launch", "deadline"},
		{"favourite_colours", "favourite_colour", ""},
		{"", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			e, a := NormalizeKey(tc.in)
			if e != tc.entity || a != tc.attr {
				t.Errorf("NormalizeKey(%q) = (%q, %q), want (%q, %q)", tc.in, e, a, tc.entity, tc.attr)
			}
		})
	}
}

func TestStatementMatches(t *testing.T) {
	address := Extract(Turn{Text: "I'm at 12 Elm Row now.", Speaker: "user", At: turnTime})
	budget := Extract(Turn{Text: "The marketing budget was cut to $40k.", Speaker: "user", At: turnTime})
	total := Extract(Turn{Text: "The budget is $40k.", Speaker: "user", At: turnTime})
	deck := Extract(Turn{Text: "Jonas owns the onboarding deck.", Speaker: "user", At: turnTime})
	moving := Extract(Turn{Text: "Moving day is March 7.", Speaker: "user", At: turnTime})
	checkin := Extract(Turn{Text: "Check-in is March 5.", Speaker: "user", At: turnTime})
	if len(address) != 1 || len(budget) != 1 || len(total) != 1 || len(deck) != 1 || len(moving) != 1 || len(checkin) != 1 {
		t.Fatalf("setup: address %+v, budget %+v, total %+v, deck %+v, moving %+v, check-in %+v", address, budget, total, deck, moving, checkin)
	}
	tests := []struct {
		st   Statement
		key  string
		want bool
	}{
		{moving[0], "move_date", true},
		{moving[0], "mover_date", false},
		{moving[0], "move_budget", false},
		{address[0], "home_address", true},
		{address[0], "addr", true},
		{address[0], "user.address", true},
		{address[0], "office_address", false},
		{address[0], "email", false},
		{budget[0], "marketing_budget", true},
		{budget[0], "marketing.budget", true},
		{budget[0], "travel_budget", false},
		{budget[0], "budget", true},
		// Initials of the statement's words, and another word for its
		// owner.
		{Statement{Entity: "leo_physical_therapy", Attribute: "time"}, "pt_time", true},
		{Statement{Entity: "leo_personal_training", Attribute: "time"}, "ot_time", false},
		{Statement{Entity: "valentine_gig", Attribute: "location"}, "vday_gig_venue", true},
		{Statement{Entity: "draw_3", Attribute: "amount"}, "draw3_amt", true}, // "amt" is the amount
		{total[0], "budget", true},
		{total[0], "budget_amount", true},
		{total[0], "travel_budget", false},
		{deck[0], "onboarding_deck_owner", true},
		{deck[0], "onboardingDeckOwner", true},
		{deck[0], "deck_owner", true},
		{deck[0], "sales_deck_owner", false},
		{deck[0], "deckOwner", true},
		{deck[0], "od_owner", true},
		{deck[0], "onboarding_deck", false},
		{checkin[0], "hotel_checkin_date", true}, // "check-in" is "checkin"
		{checkin[0], "checkinDate", true},
		{checkin[0], "checkout_date", false},
	}
	for _, tc := range tests {
		t.Run(tc.st.Key+"~"+tc.key, func(t *testing.T) {
			if got := tc.st.Matches(tc.key); got != tc.want {
				t.Errorf("%s.Matches(%q) = %v, want %v", tc.st.Key, tc.key, got, tc.want)
			}
		})
	}
}

func TestScope(t *testing.T) {
	tests := []struct{ text, want string }{
		{"Draft: the offsite is in Porto", ScopeDraft},
		{"draft - budget $50k", ScopeDraft},
		{"Hypothetically, the room holds 60.", ScopeHypothetical},
		{"Suppose the launch slips to March.", ScopeHypothetical},
		{"What if we move to Porto?", ScopeHypothetical},
		{"Maybe Lisbon.", ScopeHypothetical},
		{"12 Elm Row", ""},
		{"Lisbon. If that changes we will say so.", ""},
		{"The drafting table is in room 4", ""},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			if got := Scope(tc.text); got != tc.want {
				t.Errorf("Scope(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

// TestFits: a stored value is a statement's previous value only when it is
// of the statement's kind.
func TestFits(t *testing.T) {
	at := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		kind, stored string
		want         bool
		value        string // the statement's value, when it matters
	}{
		{KindChoice, "Tuesday spin", true, ""}, // a class, not a date
		{KindChoice, "January 15", false, ""},  // an appointment, not who
		{KindDate, "January 15", true, ""},
		{KindCount, "40", true, ""},
		{KindCount, "forty", false, ""},
		{KindContact, "jane@client.com", true, ""},
		{KindChoice, "jane@client.com", false, ""}, // a name does not replace an address
		{KindOwnership, "+1 617-555-0134", false, ""},
		{KindChoice, "Jane (jane@client.com)", true, ""},
		// How to reach someone: an email may replace a number.
		{KindContact, "555-0144", true, "rkowalski@gmail.com"},
	}
	for _, tt := range tests {
		if got := (Statement{Kind: tt.kind, Value: tt.value}).Fits(tt.stored, at); got != tt.want {
			t.Errorf("Statement{Kind: %s}.Fits(%q) = %v, want %v", tt.kind, tt.stored, got, tt.want)
		}
	}
}

func TestKeyHas(t *testing.T) {
	tests := []struct {
		key, entity string
		want        bool
	}{
		{"office_address", "office", true},
		{"monthly_rent", "rent", true},
		{"subscription_tier", "subscription", true},
		{"office_address", "office_kitchen", false},
		{"office_address", "", false},
		{"db_choice", "database", true}, // a synonym
	}
	for _, tt := range tests {
		if got := KeyHas(tt.key, tt.entity); got != tt.want {
			t.Errorf("KeyHas(%q, %q) = %v, want %v", tt.key, tt.entity, got, tt.want)
		}
	}
}

// TestNamedUnitIsAnother: a unit of people the statement names ("the
// platform team") is not the unit a key leaves unnamed (team_lead).
func TestNamedUnitIsAnother(t *testing.T) {
	tests := []struct {
		fact, statement string
		want            bool
	}{
		{"team", "team", true},
		{"team", "platform_team", false},
		{"platform_team", "platform_team", true},
		{"offsite", "team_offsite", true}, // not a unit: the team's offsite is the offsite
	}
	for _, tc := range tests {
		if got := sameEntity(tc.fact, tc.statement); got != tc.want {
			t.Errorf("sameEntity(%q, %q) = %v, want %v", tc.fact, tc.statement, got, tc.want)
		}
	}
}

// TestSetApart: a statement's thing set apart from the key's ("a
// different client", "the cafe wifi") is not the key's, whatever the
// plural.
func TestSetApart(t *testing.T) {
	tests := []struct {
		entity, key string
		want        bool
	}{
		{"different_client", "primary_contact", true},
		{"cafe_wifi", "wifi_network", true},
		{"guest", "guests", false},
		{"guest", "guest_count", false},
		{"client", "primary_contact", false},
	}
	for _, tc := range tests {
		if got := SetApart(tc.entity, tc.key); got != tc.want {
			t.Errorf("SetApart(%q, %q) = %v, want %v", tc.entity, tc.key, got, tc.want)
		}
	}
}
