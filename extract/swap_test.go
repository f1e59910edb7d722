package extract

import "testing"

func TestSwap(t *testing.T) {
	tests := []struct{ sentence, old, want string }{
		// The sentence names the value it leaves.
		{"We upgraded from Pro to the Team plan.", "Pro", "Team plan"},
		{"ditched the Square reader, running everything on SumUp now", "Square", "SumUp"},
		{"IT swapped out my old MacBook for a ThinkPad X1.", "MacBook Pro 2019", "ThinkPad X1"},
		{"Send invoices to Mei from here on, not Ravi.", "Ravi", "Mei"},
		// Ours on the new one now, not another's.
		{"We dropped Gusto at the end of December and all the payroll clients are on ADP now.", "Gusto", "ADP"},
		{"We cancelled Comcast, the neighbors are on Verizon now.", "Comcast", ""},
		{"We cancelled Comcast, my parents are on Verizon now.", "Comcast", ""},
		{"Vendors keep sending invoices to the old street address instead of PO Box 118; I'll send a reminder letter.", "PO Box 118", ""},
		// The shorthand of a change: old -> new.
		{"sprint 42 end pushed Jan 16 -> Jan 23, QA needs the extra week", "Jan 16", "Jan 23"},
		{"standup 9:30 -> 10 starting tomorrow, cal invite already updated", "9:30am", "10am"},
		{"standup 8:15 -> 8:45 from today on, per Raj", "8:15am", "8:45am"},
		{"standup 8:15 -> 8:45: per Raj", "8:15am", "8:45am"},
		{"renamed default branch master -> main on the monorepo, update your remotes", "master", "main"},
		{"pipeline: build -> test -> deploy", "master", ""},
		// A code for a code written alike, before "not old".
		{"oh wait i gave u the wifi pw wrong lol its pancake24 not pancake42", "pancake42", "pancake24"},
		{"the code is 27-03-41, not 12-34-08", "12-34-08", "27-03-41"},
		{"it was the 2nd floor not pancake42", "pancake42", ""},
		{"We no longer use Jira; everything's in Linear.", "Jira", "Linear"},
		{"moved out of the Hive — I'm at Foundry Works on 3rd St now (way better coffee, worse chairs)", "The Hive", "Foundry Works"},
		{"I cancelled PureGym, I'm in a meeting with Dan now", "PureGym", ""},
		{"Ravi moved away, so I hit with Leo now.", "Ravi", "Leo"},
		{"Reyes Plumbing is closing up shop, so I've switched all three units over to Tri-County Plumbing.", "Reyes Plumbing", "Tri-County Plumbing"},
		{"For the communion of my daughter we don't take Rosa's Kitchen anymore, we booked Casa Lima now.", "Rosa's Kitchen", "Casa Lima"},
		{"We don't take Rosa's Kitchen for the party, we booked them for the shower.", "Rosa's Kitchen", ""},
		{"I keep meaning to move from Gmail to Fastmail.", "Gmail", ""},
		{"The Barn at Elm Creek double-booked, so we're getting married at Harbor House.", "The Barn at Elm Creek", "Harbor House"},
		{"My iPhone 12 finally died, so I picked up a Pixel 9.", "iPhone 12", "Pixel 9"},
		// A name that opens in lower case is its whole word, not the
		// capital inside it.
		{"I finally switched to memoQ, the Trados license was too expensive and I cancelled it yesterday.", "Trados Studio", ""},
		{"wait the wifi pw i gave you is wrong, it's Grey!Falcon42 not Blue!Otter77.", "Blue!Otter77", "Grey!Falcon42"},
		{"We finished Piranesi, and this month's pick is Demon Copperhead.", "Piranesi", "Demon Copperhead"},
		{"State Bird Provisions has dethroned Nopa as our favorite restaurant.", "Nopa", "State Bird Provisions"},
		// The old value said to be gone, in the passive, after or before
		// the new one.
		{"We're on AT&T now and Comcast is cancelled.", "Comcast", "AT&T"},
		{"We moved to Linear, Jira's read-only now.", "Jira", "Linear"},
		{"Comcast is cancelled, we're on Verizon now.", "Comcast", "Verizon"},
		{"Comcast is cancelled.", "Comcast", ""},
		// Taken up by "over to", "set up", "you have".
		{"Done, I've moved your card processing over to Clover and cancelled the Square subscription effective today.", "Square", "Clover"},
		{"I have cancelled the Meals on Wheels service and set up Mom's Meals in its place.", "Meals on Wheels", "Mom's Meals"},
		{"Your Hertz midsize is cancelled and you have an Avis full-size SUV for Mar 14-17.", "Hertz midsize", "Avis full-size SUV"},
		// The value, then "not" and the old one, without a comma.
		{"ok decision made, the paper goes to UIST not CSCW.", "CSCW", "UIST"},
		{"We are not going to CSCW.", "CSCW", ""},
		// A pronoun after the drop verb stands for the old value named
		// before it.
		{"GreenScape skipped us three weeks running, so I fired them and hired Miguel's Lawn Care.", "GreenScape", "Miguel's Lawn Care"},
		{"I fired them and hired Miguel's Lawn Care.", "GreenScape", ""},
		// A titled person is followed by a titled person, not the
		// practice named after them.
		{"Dropped Dr. Patel; Seeing Dr. Okafor at Riverside Dental going forward.", "Dr. Patel", "Dr. Okafor"},
		// Taken off one thing and put on another; ripped out, and what
		// runs now; gone home, and who does it now.
		{"My allergist took me off Zyrtec and put me on Claritin.", "Zyrtec", "Claritin"},
		{"We ripped out Jenkins last sprint; builds run on GitHub Actions.", "Jenkins", "GitHub Actions"},
		{"Rosa went back to Portugal, so Claire watches the kids now.", "Rosa", "Claire"},
		{"Coach Dave stepped down, and Coach Maria has the team for the spring season.", "Coach Dave", "Coach Maria"},
		{"Finished Dune last night and started Project Hail Mary.", "Dune", "Project Hail Mary"},
		{"We let Maria go and hired Spotless Co. to clean every other week.", "Maria", "Spotless Co."},
		{"My Trek got stolen, so I'm riding a Specialized Sirrus now.", "Trek FX 2", "Specialized Sirrus"},
		{"Sam and I split up; I'm seeing Jordan now.", "Sam", "Jordan"},
		{"Ms. Green's schedule filled up, so Mr. Patel tutors Eli now.", "Ms. Green", "Mr. Patel"},
		{"We consolidated everything into Google Drive and closed the Dropbox account.", "Dropbox", "Google Drive"},
		{"Maya's been at Bright Beginnings since January; Little Sprouts closed.", "Little Sprouts", "Bright Beginnings"},
		{"Sam Ortiz left Acme Supply, and Lena Park is our contact there now.", "Sam Ortiz", "Lena Park"},
		{"Tomás is off to college; Bree walks Pepper from Monday.", "Tomás", "Bree"},
		{"We migrated our tickets from the PLAT project into CORE.", "PLAT", "CORE"},
		// A value in another's place, a first name falling away, a child
		// taken out of one place and starting at another.
		{"Work gave me a ThinkPad X1 to replace the MacBook Air.", "MacBook Air", "ThinkPad X1"},
		{"Ana had to cancel, so Tom Becker is shooting the wedding.", "Ana Ruiz", "Tom Becker"},
		{"Emma starts at Bright Horizons on Monday; we pulled her out of Little Stars.", "Little Stars", "Bright Horizons"},
		{"Ana had to cancel, so we postponed.", "Ana Ruiz", ""},
		{"We finished moving off Heroku; everything runs on Fly.io.", "Heroku", "Fly.io"},
		{"We parted ways with Bright & Co and brought Northstar on board.", "Bright & Co", "Northstar"},
		{"Kemi started with us on Monday; Rosa's retiring.", "Rosa", "Kemi"},
		{"Kemi started with us on Monday and Rosa's retiring.", "Rosa", ""},
		{"We renamed the project from Falcon to Osprey.", "Falcon", "Osprey"},
		{"We moved from Leeds to York.", "Leeds", "York"},
		{"Let's meet at Nopa on Friday instead of Zuni.", "Zuni", "Nopa"},
		{"Instead of Zuni, let's meet at Nopa on Friday.", "Zuni", "Nopa"},
		{"I quit FitFirst and joined Iron Works down the road.", "FitFirst", "Iron Works"},
		{"We drove from Leeds to York.", "Leeds", ""},
		{"Sara replaced Kim as PM on the migration.", "Kim", "Sara"},
		{"Kofi took over from Dana on support.", "Dana", "Kofi"},
		{"Traded in the Civic for a Toyota Corolla.", "Honda Civic", "Toyota Corolla"},
		{"Sara replaced the printer cartridge.", "Kim", ""},
		{"We went with Nopa, not Zuni's sister restaurant.", "Zuni", ""},
		{"I cancelled PureGym and joined The Climbing Hangar.", "PureGym", "The Climbing Hangar"},
		{"We sold the Golf and bought a Skoda Octavia.", "Golf", "Skoda Octavia"},
		{"Scratch the Trek — I ordered the Canyon Endurace.", "Trek Domane", "Canyon Endurace"},
		{"We dropped TeamCity and went with GitLab CI.", "TeamCity", "GitLab CI"},
		{"We've ditched Jenkins for GitHub Actions.", "Jenkins", "GitHub Actions"},
		{"Sold the Golf and picked up a Corolla.", "VW Golf", "Corolla"},
		{"Golden Wok cancelled on us, so Mezze Republic is doing the food.", "Golden Wok", "Mezze Republic"},
		{"Dana retired, Marcus Lee at AssuredAv is handling my aviation policy now.", "Dana Whitfield", "Marcus Lee"},
		{"Pulled 21K's annual from Skyline, Mesa Aero Services has it now, dropping it off Thurs.", "Skyline Avionics", "Mesa Aero Services"},
		{"Mesa Aero Services has it now.", "Skyline Avionics", ""},
		{"Golden Wok cancelled on us, so Jen from Mezze Republic is doing the food.", "Golden Wok", "Jen"},
		{"The barn fell through, so we booked Millbrook Hall.", "Larkspur Barn", "Millbrook Hall"},
		{"Sold the Civic last month; I drive a Tesla Model 3 now.", "Honda Civic", "Tesla Model 3"},
		{"We rewrote the service in Go, so Python is out.", "Python", "Go"},
		{"Cancelled the Civic lease and I lease a Polestar 2 now.", "Honda Civic", "Polestar 2"},
		{"Marco has taken the Acme account over from Jess.", "Jess", "Marco"},
		{"We let BuildRight go and brought in Hammer & Co.", "BuildRight", "Hammer & Co"},
		{"We sold the Peloton and got a Tonal.", "Peloton", "Tonal"},
		{"I dropped Spanish and started Portuguese.", "Spanish", "Portuguese"},
		{"We checked out of the Radisson and into Hotel Indigo.", "Radisson", "Hotel Indigo"},
		{"We're running Postgres 16 in production now.", "Postgres 14", "Postgres 16"},
		{"Postgres 16 might be worth a look.", "Postgres 14", ""},
		{"Postgres 16 came out last year.", "Postgres 14", ""},
		{"We sold the Peloton and got a good price.", "Peloton", ""},
		{"We let BuildRight know and booked Hammer & Co for a quote.", "BuildRight", ""},
		// Not swaps.
		{"Sold the Civic last month; Mark gave me a lift home.", "Honda Civic", ""},
		{"Sold the Civic; I might get a Tesla or a Rivian.", "Honda Civic", ""},
		{"We sold the Civic and now Priya and Tom share the Audi.", "Honda Civic", ""},
		{"I joined The Climbing Hangar last week.", "PureGym", ""},
		{"We sold the old bike and bought a helmet.", "Golf", ""},
		{"We dropped the Golf off at the garage.", "Golf", ""},
		{"I cancelled the dentist and booked a haircut.", "PureGym", ""},
		{"Golden Wok is doing the food.", "Golden Wok", ""},
		{"Mezze Republic cancelled on us, so Golden Wok is doing the food.", "Golden Wok", ""},
		{"We ditched the plan for a week.", "Jenkins", ""},
	}
	for _, tc := range tests {
		got, ok := Swap(tc.sentence, "venue", tc.old)
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

// TestSwapAmounts: an amount or a number the sentence leaves counts only
// for a fact whose key the sentence names.
func TestSwapAmounts(t *testing.T) {
	tests := []struct{ sentence, key, old, want string }{
		{"Finance approved $1,800 per laptop instead of $1,500.", "laptop_budget", "$1,500", "$1,800"},
		{"The fee went up from $40 to $45.", "signup_fee", "$40", "$45"},
		{"Finance trimmed our headcount budget from 12 to 10.", "headcount_budget", "12", "10"},
		{"I've been reassigned from EMEA to APAC.", "sales_region", "EMEA", "APAC"},
		{"Study group meets in the library now instead of Room 214.", "study_group_location", "Room 214", ""}, // the key's own words
		{"Dana was reassigned from EMEA to APAC.", "sales_region", "EMEA", ""},
		{"It's 46 guests, not 40.", "guest_count", "40", "46"},
		{"It's 46 guests, not 40.", "room_capacity", "40", ""},
		{"Rent's due on the 15th now, not the 1st.", "payment_day", "the 1st", "the 15th"},
		{"Rent's due on the 15th now, not the 1st.", "payment_day", "the 15th", ""},
		{"Finance approved $1,800 per laptop instead of $1,500.", "monthly_rent", "$1,500", ""},
		// Another one of the key's things, told apart by its number.
		{"ward 4 insulin pens 12 → 18/wk.", "ward6_insulin_pens", "12", ""},
		{"ward 6 insulin pens 12 → 18/wk.", "ward6_insulin_pens", "12", "18/wk"},
		{"ward 4 insulin pens 12 → 18/wk; ward 6 no change", "ward6_insulin_pens", "12", ""},
		// A thing changed for another of its kind, named by the key.
		{"I switched dentists — I see Dr. Okafor now.", "dentist", "Dr. Patel", "Dr. Okafor"},
		{"We changed banks last week and we're with Monzo now.", "bank", "Chase", "Monzo"},
		{"I switched dentists — I see Dr. Okafor now.", "gym", "FitLife", ""},
		{"I switched dentists last year.", "dentist", "Dr. Patel", ""},
		// The old value without the kind of thing the new one shares.
		{"We hired FlowRight Plumbing for the bathroom instead of Mike's.", "contractor", "Mike's Plumbing", "FlowRight Plumbing"},
		{"We hired FlowRight Electric instead of Mike's.", "contractor", "Mike's Plumbing", ""},
		// Someone else's swap, a denied or a doubted one, is none.
		{"My parents dropped Netflix for Disney+.", "streaming_service", "Netflix", ""},
		{"We dropped Netflix for Disney+.", "streaming_service", "Netflix", "Disney+"},
		{"book club swapped Dune out for Piranesi this month", "book_club_book", "Dune", "Piranesi"},
		// A thing in lower case for another.
		{"I'm getting a salad for lunch from now on instead of the burrito bowl.", "lunch_order", "burrito bowl", "salad"},
		{"I'm getting an oat latte instead of a cortado.", "coffee_order", "cortado", "oat latte"},
		{"I want a new bike instead of the scooter.", "commute", "scooter", ""},
		{"Omar took another deck over from Priya.", "owner", "Priya", ""},
		{"We might drop Netflix for Disney+.", "streaming_service", "Netflix", ""},
		{"Taco Loco can't do the date, so we've hired Pho Real.", "caterer", "Taco Loco", "Pho Real"},
	}
	for _, tc := range tests {
		got, ok := Swap(tc.sentence, tc.key, tc.old)
		if tc.want == "" && ok || tc.want != "" && (!ok || got != tc.want) {
			t.Errorf("Swap(%q, %q, %q) = %q, %v, want %q", tc.sentence, tc.key, tc.old, got, ok, tc.want)
		}
	}
}

// TestDrops: the cheap gate lets through what Swap can read and keeps out
// a sentence with nothing to swap, a date beside a month included.
func TestDrops(t *testing.T) {
	for _, tc := range []struct {
		sentence string
		want     bool
	}{
		{"We've ditched Jenkins for GitHub Actions.", true},
		{"I switched dentists — I see Dr. Okafor now.", true},
		{"We let BuildRight go and brought in Hammer & Co.", true},
		{"We're running Postgres 16 in production now.", true},
		{"Sara replaced Kim as PM.", true},
		{"The launch is on March 17.", false},
		{"See you Friday 3pm at the office.", false},
		{"The budget is $40,000.", false},
	} {
		if got := Drops(tc.sentence); got != tc.want {
			t.Errorf("Drops(%q) = %v, want %v", tc.sentence, got, tc.want)
		}
	}
}
