package extract

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestRuleExamples checks that every documented example yields a statement
// from the rule that documents it.
func TestRuleExamples(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules {
		if seen[r.Name] {
			t.Errorf("rule name %q used twice", r.Name)
		}
		seen[r.Name] = true
		if r.Matches == "" || len(r.Examples) == 0 {
			t.Errorf("rule %s: want Matches and Examples documented", r.Name)
		}
		for _, ex := range r.Examples {
			t.Run(r.Name+"/"+ex, func(t *testing.T) {
				got := Extract(Turn{Text: ex, Speaker: "user", At: turnTime})
				for _, st := range got {
					if st.Rule == r.Name {
						return
					}
				}
				t.Errorf("Extract(%q) = %+v, want a statement from rule %s", ex, got, r.Name)
			})
		}
	}
}

// TestAnalyzeReasons checks the refusal reasons and per-sentence scope.
func TestAnalyzeReasons(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		speaker string
		want    []string // keys extracted, in order
		reasons []string // skip reasons, in order
	}{
		{"maybe scoped to its sentence", "Maybe we'll grab lunch. The offsite is in Lisbon.", "user", []string{"offsite.location"}, []string{ReasonHypothetical}},
		{"might scoped to its clause", "The room holds 40, but we might need more chairs.", "user", []string{"room.capacity"}, []string{ReasonHypothetical}},
		{"heading then assertion", "## Venue\nThe venue is the Grand Hotel.", "user", []string{"venue.location"}, []string{ReasonHeading}},
		{"topic-only list item", "- Venue\n- Budget", "user", nil, []string{ReasonListItem, ReasonListItem}},
		{"question", "Is the offsite in Lisbon?", "user", nil, []string{ReasonQuestion}},
		{"negated", "We are not moving the offsite.", "user", nil, []string{ReasonNegated}},
		{"declined", "Priya proposed Bellini's, but we said no.", "user", nil, []string{ReasonDeclined}},
		{"proposal", "Tom suggested moving the offsite to Porto.", "user", nil, []string{ReasonProposal}},
		{"someone asked to change it", "HR asked to move my quarterly review to Dec 19.", "user", nil, []string{ReasonProposal}},
		{"someone asked, after have", "I have asked the front desk to reset my library PIN to 8830.", "user", nil, []string{ReasonProposal}},
		{"held off", "thinking tacos go to $4 but holding off til i see how Feb goes", "user", nil, []string{ReasonDeclined}},
		{"thinking alone", "thinking tacos go to $4", "user", nil, []string{ReasonHypothetical}},
		{"still thinking governs the sentence", "Already go see apartment at 88 Oak Ave, quite nice, but lease not sign, still thinking.", "user", nil, []string{ReasonHypothetical}},
		{"not decided yet governs the sentence", "Moved the offsite to Porto, haven't decided yet.", "user", nil, []string{ReasonHypothetical}},
		{"never looking back denies nothing", "switched my gloss line to Wella Shinefinity, Shades EQ kept going brassy on my blondes 😤 never looking back", "user", []string{"gloss_line.location"}, nil},
		{"urged to switch", "Aunt Carol keeps telling mom to switch to her guy Tom Reyes, mom says Linda's doing fine and she's not changing.", "user", nil, []string{ReasonProposal}},
		{"told another to move it", "Dana told Dad to move his appointment to Friday.", "user", nil, []string{ReasonProposal}},
		{"an apology's if is no condition", "sorry if this is a weird thing to update but housing finally approved my room swap, so I'm in Maple Hall 308 now.", "user", []string{"user.location"}, []string{ReasonNoRule, ReasonNoRule}},
		{"a decision in the end, then what another wanted", "Renewed both vans with Simply Business in the end, Direct Line wanted another £600 for nothing.", "user", nil, []string{ReasonNoRule, ReasonNegated}},
		{"a denied cause, then the change it led to", "Movers can't do the 24th anymore so dad moved it to Thursday the 22nd.", "user", nil, []string{ReasonNoRule}},
		{"a change denied after so", "Movers can't do the 24th so dad never moved it.", "user", nil, []string{ReasonNegated}},
		{"a short day this week", "Status report goes out Thu this week, I'm OOO Fri 2026-01-09.", "user", nil, []string{ReasonException}},
		{"last January is past", "Last January we jumped from 90 members to over a hundred after the resolutions rush.", "user", nil, []string{ReasonPast}},
		{"back before is past", "Back before the cap kicked in I was paying $95 a month for insulin.", "user", nil, []string{ReasonPast}},
		{"nothing's changed", "Double-checked with the lab, fasting draw is still the 14th, nothing's changed, so I'll skip breakfast that morning.", "user", nil, []string{ReasonNegated}},
		{"nothing changed but one thing", "Nothing's changed except the standup, which is at 10 now.", "user", nil, []string{ReasonNoRule}},
		{"held off until now", "As of this month the unlimited monthly membership is $155, I held off as long as I could.", "user", []string{"unlimited_monthly_membership.amount"}, []string{ReasonHypothetical}},
		{"everyone seems happier", "We've moved the Saturday morning flow into Studio A for good, more light, and everyone seems so much happier in there, thank you!", "user", nil, []string{ReasonNoRule, ReasonOtherSubject}},
		{"grateful she could", "My accountant had a conflict, so our meeting is this Friday, January 9 now instead, grateful she could still fit me in!", "user", []string{"meeting.date"}, []string{ReasonNoRule, ReasonHypothetical}},
		{"why it was wrong is no past", "Oops, I told you 2 for the recital but it's actually 3pm, I was looking at last year's program.", "user", nil, []string{ReasonNoRule, ReasonNoRule}},
		{"one short day only", "Sandra's covering the porter rota Fri only, Gary back Mon.", "user", nil, []string{ReasonException}},
		{"every day of a kind only", "Book club meets Fridays only now.", "user", nil, []string{ReasonNoRule}},
		{"envy says whose", "The Skyline Astronomy Society just hit 80 members, I'm a little jealous.", "user", nil, []string{ReasonOtherSubject}},
		{"a group over there", "The astronomy club across the county just hit 80 members.", "user", nil, []string{ReasonOtherSubject}},
		{"originally, then will now", "Parent-teacher conferences, originally scheduled for February 12, will now be held on Thursday, February 19.", "user", nil, []string{ReasonNoRule}},
		{"as previously printed is no past", "Correction to Friday's newsletter: the Book Fair will run February 2-6, not January 26-30 as previously printed.", "user", nil, []string{ReasonNoRule}},
		{"a notice to update contacts", "Please update your contact lists: the main office may now be reached at 555-0236.", "user", nil, []string{ReasonNoRule}},
		{"an amount used in a past period", "We went through like 8 boxes of Heartgard last month, crazy", "user", nil, []string{ReasonPast}},
		{"tempting", "Agency pays £28 an hour daw, tempting pero bank pa rin ako.", "user", nil, []string{ReasonHypothetical}},
		{"thinkin bout", "thinkin bout bumping deposits to $150 but idk, might scare off the walk-in crowd", "user", nil, []string{ReasonHypothetical, ReasonHypothetical}},
		{"thanks but I'm good", "Kingpin rep hit me up w a 20% off promo to switch, told him thanks but I'm good w Eternal", "user", nil, []string{ReasonDeclined}},
		{"ours stays the same", "LAX base got a new crew sked number, 800-555-0311, ours at ORD stays the same.", "user", nil, []string{ReasonOtherSubject}},
		{"back to how it was after a past change", "soccer practice got moved to wednesday last week bc of the field thing, so glad it's back to thursdays", "user", nil, []string{ReasonException}},
		{"a one-day exception written short", "standup 8:45 tmrw only (Raj out AM).", "user", nil, []string{ReasonException}},
		{"a place gone to see", "Went to see an apartment at 88 Oak Ave, quite nice.", "user", nil, []string{ReasonHypothetical}},
		{"a place seen, then taken", "Went to see the apartment at 88 Oak Ave and signed the lease.", "user", nil, []string{ReasonNoRule}},
		{"a neighbour placed by where", "the taco truck next to us at the commissary pays $800.", "user", nil, []string{ReasonOtherSubject}},
		{"asked, then the question", "Jensen asked can we do callback Thurs instead.", "user", nil, []string{ReasonProposal}},
		{"a role's people", "the headliner's crew is posted up at the Ace for the festival, lucky them", "user", nil, []string{ReasonOtherSubject}},
		{"a role's office acts on mine", "The dentist's office moved my appointment to February 2.", "user", nil, []string{ReasonNoRule}},
		{"it has to be run by someone first", "Told the co-op to bump the mineral order to 30 tubs, gal said she'd have to run it by the manager first.", "user", nil, []string{ReasonProposal}},
		{"a draft held back", "I drafted a new price sheet with full day at $4,500 but I'm sitting on it until after the bridal expo.", "user", nil, []string{ReasonDraft}},
		{"a role with a modifier, then a remark on its holder", "Dr. Pruitt out of Millbrook is our large-animal vet now, she's already been out once for the sick heifer.", "user", []string{"user.vet"}, []string{ReasonNoRule}},
		{"a remark on the one just named", "Declan's retired, so Paddy Walsh is our plumber now, he sorted the boiler in Flat 1 last week and he's sound.", "user", []string{"plumber.choice"}, []string{ReasonNoRule, ReasonNoRule}},
		{"a change without its I", "Switched the card reader over to Square after SumUp ate three payments in a row.", "user", []string{"card_reader.location"}, nil},
		{"a change without its I, in lower case", "switched the card reader over to Square", "user", []string{"card_reader.location"}, nil},
		{"a past said short", "last yr we ordered like 6 vials of that antibody and wasted half of them lol", "user", nil, []string{ReasonPast}},
		{"just for one game", "Tom Becker's covering snacks just for Saturday's game, Mrs. Patel's back on it after that.", "user", nil, []string{ReasonException}},
		{"a run of weekdays is no date", "So the aide is now Monday through Friday.", "user", nil, []string{ReasonNoRule}},
		{"an initialism does not end the sentence", "I've switched your A.I. tech from Sheila Barnes to Marcus Webb.", "assistant", nil, []string{ReasonNoRule}},
		{"down to a count of nothing named", "I'm down to 7 now", "user", nil, []string{ReasonNoRule}},
		{"a holiday's thing is no one-off", "We went with Smokehouse 51 for the holiday party catering.", "user", []string{"holiday_party_catering.choice"}, nil},
		{"when the news came is no one-off", "Herr Müller wrote this morning, the deadline for the manual is now pushed to January 23.", "user", nil, []string{ReasonNoRule}},
		{"placed by a place", "HOA next to bldg 4 switched to Baker Snow & Ice, says they're way better.", "user", nil, []string{ReasonOtherSubject}},
		{"its own", "ped billing office has its own number 555-0160 fyi", "user", nil, []string{ReasonOtherSubject}},
		{"a shop's offer", "Bunnings had hearing aid batteries for $7.99.", "user", nil, []string{ReasonProposal}},
		{"what I had is no shop's", "I had the plan for $5 a month.", "user", nil, []string{ReasonNoRule}},
		{"before I moved", "Before I moved here I saw Dr. Nakamura for years.", "user", nil, []string{ReasonPast}},
		{"last cycle", "Last cycle I started tapering Mar 29 and felt flat on race day.", "user", nil, []string{ReasonPast}},
		{"just that once", "we're doing the session Wed 6am just that once.", "user", nil, []string{ReasonException}},
		{"a.m. before a word goes on", "The case review meeting will be held on Tuesday, January 20 at 9:00 a.m. that week only; we resume Mondays after.", "user", nil, []string{ReasonException}},
		{"a spouse without my", "hubby only has 2 PTO days left", "user", nil, []string{ReasonOtherSubject}},
		{"a request submitted", "A request for 30 additional student laptops has been submitted to the bursar, approval still outstanding.", "user", nil, []string{ReasonProposal}},
		{"a closing nevermind", "ok moving my scripts from walgreens to the Rite Aid on Maple. nevermind.", "user", nil, []string{ReasonNoRule, ReasonNoRule, ReasonNegated}},
		{"an action item", "Action: Procurement to ask TestHouse to drop the day rate from $650 to $600. Pending.", "user", nil, []string{ReasonProposal, ReasonNoRule}},
		{"looking at moving", "I'm looking at moving Alex's flight to the 25th", "user", nil, []string{ReasonProposal}},
		{"an idiom of can't", "Changed the alarm code to 8830 after the gardener left, can't be too careful, hey.", "user", nil, []string{ReasonNoRule}},
		{"a relation's, after of", "The landlord of my comadre Lupe raise her renta to $1,575, pobrecita.", "user", nil, []string{ReasonOtherSubject}},
		{"written up, not sent", "wrote up the hendersons new rate at 525 a month but havent sent it yet", "user", nil, []string{ReasonDraft}},
		{"just that one class", "Kayla can't make next Tuesday so Marcus is covering just that one class.", "user", nil, []string{ReasonException}},
		{"moved downstairs is no neighbour", "The confocal got moved downstairs to B108 during the renovation.", "user", nil, []string{ReasonNoRule}},
		{"on about moving", "The lads were on about moving the session to Thursday but sure half of them couldn't make it.", "user", nil, []string{ReasonProposal}},
		{"told him heck no", "Ray keeps hollerin' at me to switch to Bluebonnet Gas, but I told him heck no.", "user", nil, []string{ReasonDeclined}},
		{"leaning towards", "I'm leaning towards moving everything to the Walgreens on Main but haven't done it yet", "user", nil, []string{ReasonProposal}},
		{"the wife", "The wife's got the dentist on the 27th so I'll need to drop the kids at school.", "user", nil, []string{ReasonOtherSubject, ReasonNoRule}},
		{"a draft with its terms", "Landlord sent a renewal draft with rent at $1,925, but nothing's signed, so I'm paying $1,850.", "user", nil, []string{ReasonDraft}},
		{"the last event of a kind", "last Ruiz party the cake pickup got pushed to Thursday and it was chaos", "user", nil, []string{ReasonPast}},
		{"a wish typed without its apostrophe", "told dispatch id like my home time pushed to the twenty third for my daughters recital they said theyd see what they can do", "user", nil, []string{ReasonHypothetical}},
		{"toying with a price", "Toying with pushing the Cab to $396 a case, but I want to see how the club folks react first.", "user", nil, []string{ReasonHypothetical, ReasonHypothetical}},
		{"an email typed up, not sent", "typed up an email asking ms alvarez to do my rec instead of mr dunn but havent hit send lol", "user", nil, []string{ReasonDraft}},
		{"an email drafted, not sent", "I've got an email drafted to the VIPs moving dinner to 7:30 but it's not going out until the CEO's office confirms.", "user", nil, []string{ReasonDraft}},
		{"tried, its subject dropped", "tried to switch my act to westview but it was full so im stuck at lincoln", "user", nil, []string{ReasonProposal, ReasonNoRule}},
		{"a surcharge that is over", "Holiday surcharge had dog boarding at $60 a night through New Year's, that's over now.", "user", nil, []string{ReasonPast}},
		{"a form filled out, not handed in", "I filled out the form to change the pickup code to SUNFLOWER, just need to drop it off at the office.", "user", nil, []string{ReasonProposal}},
		{"a wish without its 'to'", "I want change my english class for Tuesday but the teacher don't answer me yet.", "user", nil, []string{ReasonHypothetical, ReasonNegated}},
		{"the one who does what a gerund says", "Margaret has had to step down with her hip, so Eleanor Price has very kindly taken over hosting the book club.", "user", []string{"book_club.host"}, []string{ReasonNoRule}},
		{"asked, still waiting", "I called the city and asked them to bump the rough-in inspection up to the 16th, still waiting on a callback.", "user", nil, []string{ReasonProposal}},
		{"a cofounder's lawyer", "My cofounder's personal lawyer is Marcus Bell, totally separate from company stuff.", "user", nil, []string{ReasonOtherSubject}},
		{"a request by email", "emailed FreshDirect to change my delivery address to 88 Birch Lane but they still haven't updated it ugh", "user", nil, []string{ReasonProposal, ReasonNegated}},
		{"a cart is no order", "added size 2 diapers to my amazon cart but havent ordered, gonna finish this pack of 1s first", "user", nil, []string{ReasonDraft}},
		{"the last meeting of a kind", "last sprint planning got bumped to tuesday bc of the outage, that was a mess", "user", nil, []string{ReasonPast}},
		{"then the holder is back", "Denise is out next week so Priya Shah's covering Harbor Club walk-throughs till the 16th, then Denise is back.", "user", nil, []string{ReasonException}},
		{"the last of something is no past", "The last payment is due March 3 now.", "user", []string{"last_payment.deadline"}, nil},
		{"placed by where, named", "Pete on the boat next to us pays $1,450 for winter storage over at Cutter Cove, glad ours is cheaper.", "user", nil, []string{ReasonOtherSubject}},
		{"a duty assumed is no supposition", "Mr. Rutherford is assuming primary responsibility for the Whitaker file.", "user", nil, []string{ReasonNoRule}},
		{"may be reached is no maybe", "The clinic may now be reached at 555-0178.", "user", nil, []string{ReasonNoRule}},
		{"assuming is still a supposition", "Assuming the clinic moves, we'd go to Dr. Park.", "user", nil, []string{ReasonHypothetical}},
		{"a number that opens a modifier counts nothing", "The meeting's been moved to the 4th-floor boardroom.", "user", nil, []string{ReasonNoRule}},
		{"done as someone suggested", "I've updated your easy-run HR cap to 150 bpm as Tom suggested.", "user", nil, []string{ReasonNoRule}},
		{"a channel is no talk in general", "The standup is at 9:45 now, pls post it in #general.", "user", []string{"standup.time"}, nil},
		{"a clause before 'is our' is nobody", "we liked them so much we switched, they're our vet now.", "user", nil, []string{ReasonNoRule}},
		{"just the one day", "Priya's covering the walks Thursday while Jamal's out sick, just the one day.", "user", nil, []string{ReasonException}},
		{"someone's own", "Dana's own cardiology follow-up just got moved to the 29th.", "user", nil, []string{ReasonOtherSubject}},
		{"a pitch to come", "Going to pitch 3-week sprints at retro Thursday.", "user", nil, []string{ReasonProposal}},
		{"chat's were for we're", "were fully on hubspot now", "user", nil, []string{ReasonNoRule}},
		{"a question with were", "were you on hubspot then", "user", nil, []string{ReasonQuestion}},
		{"a comparison with a thought", "The budget is $3,500 now, flights came in higher than we thought.", "user", []string{"budget.amount"}, nil},
		{"an offering given", "I raised my weekly offering to the church.", "user", nil, []string{ReasonNoRule}},
		{"an offer made", "The bank is offering 5.5% on savings.", "user", nil, []string{ReasonProposal}},
		{"one evening only", "only 5 patio tables tonight, heater on the end is busted", "user", nil, []string{ReasonException}},
		{"someone had their own thing moved", "Dana got her section moved to Moffitt 310.", "user", nil, []string{ReasonOtherSubject}},
		{"back then", "Back in college my rent was $400.", "user", nil, []string{ReasonPast}},
		{"a password's mark", "it's hive2026! not hive2024!", "user", nil, []string{ReasonNoRule}},
		{"talk of a change", "theres talk of bumping west q3 quota to 520k", "user", nil, []string{ReasonProposal}},
		{"a vendor calling about a change", "Summit Power keeps calling about moving the common-area electric over from Duke.", "user", nil, []string{ReasonProposal}},
		{"a change, then a wish about something else", "The standup moved to 10am, the team wants shorter updates.", "user", []string{"standup.time"}, nil},
		{"an opinion in the cause", "We moved to the premium tier since my teeth are apparently a disaster.", "user", nil, []string{ReasonNoRule}},
		{"an opinion of the whole", "The budget was cut to $30k, apparently.", "user", nil, []string{ReasonHearsay}},
		{"a condition on the listener's use", "My new number is 312-555-0246 if you need to update it anywhere.", "user", []string{"user.phone"}, nil},
		{"a condition on what is said", "My new number is 312-555-0246 if the port goes through.", "user", nil, []string{ReasonHypothetical}},
		{"a thought that did not come", "The old office got so noisy I couldn't think, so I moved to the library.", "user", nil, []string{ReasonNegated, ReasonNoRule}}, // read clause by clause, not refused as hearsay
		{"a plan being scoped", "We're scoping the Postgres 16 upgrade for Q2.", "user", nil, []string{ReasonHypothetical}},
		{"a search, not a pick", "I've been poking around at grad students like Devon Park for the math tutoring.", "user", nil, []string{ReasonHypothetical}},
		{"past", "Two years ago the launch slipped.", "user", nil, []string{ReasonPast}},
		{"other subject", "My sister moved her appointment to Friday.", "user", nil, []string{ReasonOtherSubject}},
		{"draft", "Draft: the offsite is in Porto.", "user", nil, []string{ReasonDraft}},
		{"suggestion", "I'd recommend Bellini's for the dinner.", "assistant", nil, []string{ReasonSuggestion}},
		{"code block", "```\nthe offsite is in Porto\n```", "user", nil, []string{ReasonHeading}},
		{"hearsay", "Apparently the budget was cut to $30k.", "user", nil, []string{ReasonHearsay}},
		{"two statements", "Jonas owns the deck; the deadline is Friday.", "user", []string{"deck.owner", "deadline.date"}, nil},
		{"one time instead", "This week we'll go to the coworking space on Thursday instead.", "user", nil, []string{ReasonException}},
		{"other subject swap", "My parents dropped Netflix for Disney+.", "user", nil, []string{ReasonOtherSubject}},
		{"a task", "I need to update my address to 5 Mill Road on the DMV site.", "user", nil, []string{ReasonProposal}},
		{"as of this week", "As of this week we're living at 41 Harbor View.", "user", []string{"user.address"}, nil},
		{"an idiom of n't", "I can't stop watching The Bear.", "user", nil, []string{ReasonNoRule}},
		{"one weekday this week", "Therapy is Friday this week.", "user", nil, []string{ReasonException}},
		{"tomorrow, for a reason", "School starts at 8:45am tomorrow for the late start.", "user", nil, []string{ReasonException}},
		{"asking for", "The client is asking for 99.9% uptime.", "user", nil, []string{ReasonProposal}},
		{"a road bike is no trip", "Final answer on the road bike I'm buying: Canyon Endurace.", "user", []string{"road_bike.choice"}, nil},
		{"a visit", "Dropped into a Modo Yoga class while visiting my sister.", "user", nil, []string{ReasonException}},
		{"a standing instruction", "Please reply in Spanish from now on.", "user", nil, []string{ReasonNoRule}},
		{"someone's relation", "Ben's cousin started at Riverside Middle School.", "user", nil, []string{ReasonOtherSubject}},
		{"one time, with its reason", "I bumped the heat to 70F tonight because it's freezing.", "user", nil, []string{ReasonException}},
		{"one-off cause", "This week's standup is at 10.", "user", nil, []string{ReasonException}},
		{"once we move", "Once we move, the office will be at 5 Mill Road.", "user", nil, []string{ReasonHypothetical}},
		{"a stand-in while the holder will be away", "Omar is leading the team while Priya is on vacation next week.", "user", nil, []string{ReasonException}},
		{"a lowercase name said alone, not with the clause after it", "tasha quit so marco's running the cafe now", "user", nil, []string{ReasonNoRule}},
		// The opinion is a clause of its own, about him (asideAt).
		{"an opinion of someone after the statement", "Marco is running the deliveries now, he seems chill", "user", []string{"delivery.owner"}, []string{ReasonOtherSubject}},
		{"a doubt about the statement", "Marco is taking over the deliveries, it seems", "user", nil, []string{ReasonHearsay}},
		{"a clause of the speaker's own thing spliced on", "I moved in with my daughter Karen last week, my address is 88 Birch Lane now", "user", []string{"user.address"}, []string{ReasonNoRule}},
		{"no worries denies nothing", "Marco is running the deliveries now, no worries", "user", []string{"delivery.owner"}, nil},
		{"a standing change from today, then a reason of something else", "We pushed standup to 10:15am starting today, which frankly is the most humane decision since the free snacks.", "user", []string{"standup.time"}, []string{ReasonNoRule}},
		{"a message passed on", "Mrs. Delgado has asked me to let you all know that rehearsal is at 7pm now.", "user", []string{"rehearsal.time"}, nil},
		{"one coming day only", "Lab meeting is on Zoom this Friday only, and then we're back in Stanley 412 the week after.", "user", nil, []string{ReasonException}},
		{"a proposal refused in an aside", "product keeps pushing 3-week sprints, told them no, staying at 2", "user", nil, []string{ReasonDeclined}},
		{"someone asking the speaker, refused", "HR keeps nagging me to switch payroll to Rippling, told them not until the round closes.", "user", nil, []string{ReasonDeclined}},
		{"a one-off, back to normal in a month", "Skipping the investor update this month because of the holidays, back to normal in February.", "user", nil, []string{ReasonException}},
		{"one day, then back", "Pickup's at the Elm St side lot just for tomorrow because of the band concert setup, then back to the front loop.", "user", nil, []string{ReasonException}},
		{"a request said without its subject, not yet answered", "asked the shop to push the brakes to Thursday, waiting to hear back", "user", nil, []string{ReasonProposal}},
		{"a cover for a coming day", "Jen's covering the front desk tomorrow while Rita's at her grandson's graduation.", "user", nil, []string{ReasonException}},
		{"the holder's coming return", "Sam is running payroll, Dee will be back on the 20th and she'll be back in charge.", "user", nil, []string{ReasonException}},
		{"a cover until the holder is back", "Marco handles the deliveries until Ana is back from Lisbon.", "user", nil, []string{ReasonException}},
		{"days that recur, together", "I switched my gym days to Tuesdays and Fridays.", "user", []string{"gym_day.days"}, nil},
		{"a plan for one coming day", "Tomorrow I'm setting my alarm for 5:45am to catch the early train.", "user", nil, []string{ReasonException}},
		{"a standing change from tomorrow", "From tomorrow we're moving the offsite to Porto.", "user", []string{"offsite.location"}, nil},
		{"a standing instruction sets a value", "Send invoices to Mei from here on, not Ravi.", "user", nil, []string{ReasonNoRule}},
		{"an idea kicked around", "The garden club's kicking around meeting on Thursdays instead.", "user", nil, []string{ReasonHypothetical}},
		{"not to return till a date says when", "The rental place extended the ice machine, so I don't have to return it till the 16th now.", "user", nil, []string{ReasonNoRule, ReasonNoRule}},
		{"an estimate's assumption", "The movers' estimate assumes about 60 boxes.", "user", nil, []string{ReasonHypothetical}},
		{"a past one-off, then back to normal", "Recycling got picked up on Friday last week because of New Year's, but we're back on the normal schedule.", "user", nil, []string{ReasonException}},
		{"someone after the speaker to change", "Jesse keeps after me to change the gate code to 2290 so he can remember it.", "user", nil, []string{ReasonProposal, ReasonOtherSubject}},
		{"tonight's occurrence done otherwise", "Running tonight's backup at 3am instead, firmware push on the NAS.", "user", nil, []string{ReasonException}},
		{"an auxiliary before no subject asks nothing", "did PT today so 3 left", "user", nil, []string{ReasonNoRule}},
		{"an auxiliary before its subject asks", "did you move the standup to 10", "user", nil, []string{ReasonQuestion}},
		{"a proposal defense is no proposal", "my proposal defense is now on March 30, which is earlier than I wanted.", "user", []string{"proposal_defense.date"}, nil},
		{"a lead owning a wrong value", "Oops I told you wrong, the wifi password is Familia2025, not 2024.", "user", []string{"wifi.password"}, nil},
		{"back to the stored day after", "Holiday week so trash comes Wednesday instead, back to Tuesday after.", "user", nil, []string{ReasonException}},
		{"back to something else, no return", "We moved the gym to the Y, back to basics.", "user", []string{"gym.choice"}, nil},
		{"not due until says when", "the photographer agreed, so the deposit isn't due until March 1 now.", "user", []string{"deposit.deadline"}, []string{ReasonNoRule}},
		{"not due on a day denies it", "the deposit isn't due on March 1.", "user", nil, []string{ReasonNegated}},
		{"a negation in the cause", "We moved the rehearsal dinner from Luigi's to the Copper Kettle since Luigi's can't fit 40.", "user", []string{"rehearsal_dinner.location"}, nil},
		{"a negation before the cause", "We didn't move the rehearsal dinner since Luigi's can fit 40.", "user", nil, []string{ReasonNegated}},
		{"someone's relation acts on our thing", "Jake's parents moved the rehearsal dinner to the Copper Kettle.", "user", nil, []string{ReasonNoRule}},
		{"someone's relation acts on their thing", "Dana's husband moved their dinner to Friday.", "user", nil, []string{ReasonOtherSubject}},
		{"a message asking for a change", "I left a message asking Dr. Raman's office to push my endo visit to the 21st; still waiting to hear back.", "user", nil, []string{ReasonProposal, ReasonProposal}},
		{"a title's stop ends no sentence", "Rev. Holt can't do it.", "user", nil, []string{ReasonNegated}},
		{"a request for once", "Send the invoice to Mei today.", "user", nil, []string{ReasonRequest}},
		{"one weekday, with its reason", "Pickup is 2:45pm on Friday for the half day.", "user", nil, []string{ReasonException}},
		{"others in general", "New hires in Europe get 20 PTO days.", "user", nil, []string{ReasonOtherSubject}},
		{"a verb's particle names no thing", "We moved up to the 5th floor over the weekend.", "user", nil, []string{ReasonNoRule}},
		{"the end of a month is no verb", "The deadline is end of May now.", "user", []string{"deadline.date"}, nil},
		{"a wish that causes a change", "Marketing wants more runway, so launch is now April 1.", "user", []string{"launch.date"}, []string{ReasonProposal}},
		{"an advert", "The bank is advertising 5.9% for new customers.", "user", nil, []string{ReasonProposal}},
		{"done as asked", "I've moved your dentist appointment to Thursday at 4pm as requested.", "assistant", []string{"dentist_appointment.date"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := Analyze(Turn{Text: tc.text, Speaker: tc.speaker, At: turnTime})
			var keys, reasons []string
			for _, st := range res.Statements {
				keys = append(keys, st.Key)
			}
			for _, sk := range res.Skipped {
				reasons = append(reasons, sk.Reason)
			}
			if strings.Join(keys, ",") != strings.Join(tc.want, ",") {
				t.Errorf("keys = %v, want %v", keys, tc.want)
			}
			if strings.Join(reasons, ",") != strings.Join(tc.reasons, ",") {
				t.Errorf("reasons = %v, want %v", reasons, tc.reasons)
			}
		})
	}
}

// TestStatementFields checks every field of one statement.
func TestStatementFields(t *testing.T) {
	got := Extract(Turn{Text: "Sure. Actually the room holds 40, not 60.", Speaker: "user", At: turnTime})
	want := Statement{
		Entity: "room", Attribute: "capacity", Key: "room.capacity", Value: "40",
		Kind: KindAmount, Correction: true, Rule: "capacity-verb",
		Sentence: "Actually the room holds 40, not 60.", Index: 1,
	}
	if len(got) != 1 || got[0] != want {
		t.Fatalf("Extract = %+v, want [%+v]", got, want)
	}
}

// TestSentenceVerdicts checks that every sentence and heading line of a turn is
// listed once, in order, with the reason it states nothing real.
func TestSentenceVerdicts(t *testing.T) {
	text := "## Plan\nWhat if we moved to Lisbon? Maybe later. The venue is Café Lumière.\n- We are not changing the caterer."
	got := Analyze(Turn{Text: text, Speaker: "user", At: turnTime}).Sentences
	want := []Sentence{
		{Index: 0, Text: "## Plan", Reason: ReasonHeading},
		{Index: 1, Text: "What if we moved to Lisbon?", Reason: ReasonQuestion},
		{Index: 2, Text: "Maybe later."},
		{Index: 3, Text: "The venue is Café Lumière."},
		{Index: 4, Text: "We are not changing the caterer."},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Sentences =\n%+v\nwant\n%+v", got, want)
	}
}

// TestLongAssistantTurn reads a markdown answer with headings, option
// lists and suggestions: only its restatements of the user's state count.
func TestLongAssistantTurn(t *testing.T) {
	text := strings.Join([]string{
		"## Offsite options",
		"",
		"Here are a few venues you could consider:",
		"",
		"1. **Café Lumière** – seats 40, costs about $2,000.",
		"2. **The Grand Hotel** – holds 120 people.",
		"3. Bellini's",
		"",
		"### Budget",
		"- Marketing budget: $40k",
		"- Travel budget",
		"",
		"If you go with Lisbon, the flights might cost $400 each. I'd recommend booking early.",
		"Great question! The deadline you mentioned is Friday. Based on what you told me, the room holds 40.",
		"Would you like me to draft an email?",
		"**Summary:** Your flight is LH 1234.",
		"- Next step: confirm the caterer.",
		"- Option A: Bellini's",
	}, "\n")
	got := Extract(Turn{Text: text, Speaker: "assistant", At: turnTime})
	var kv []string
	for _, st := range got {
		kv = append(kv, st.Key+"="+st.Value)
	}
	want := []string{"deadline.date=2026-11-27", "user.flight=LH 1234"}
	if strings.Join(kv, ",") != strings.Join(want, ",") {
		t.Errorf("statements = %v, want %v", kv, want)
	}
}

// TestConversationalTurns reads whole user turns of several sentences:
// chatter, hedges, questions and asides around a few real changes.
func TestConversationalTurns(t *testing.T) {
	tests := []struct {
		text string
		want []string // key=value, in order
	}{
		{"Hey! Quick one. We had the planning call this morning and a few things changed. The offsite is now in Porto instead of Lisbon, and Marta is taking over the agenda from Dev. Budget stays the same. Can you update the doc?", []string{"offsite.location=Porto", "agenda.owner=Marta"}},
		{"Ugh, long day. My manager wants the report by Thursday but honestly I don't think it'll happen. Anyway, I finished 6 of the 9 slides. Maybe I'll do the rest tomorrow.", []string{"slide.completed=6"}},
		{"So I talked to the landlord. The rent is going up to $2,100 from January. We might move, not sure yet. If we do, it'd be somewhere near Alfama.", []string{"rent.amount=$2,100"}},
		{"Thanks for the suggestions! We went with the second option — the Old Mill. The date is locked: June 14, 2027. Guest count is around 80 for now.", []string{"date.date=2027-06-14", "guest.count=80"}},
		{"Can you remind me what we decided about the caterer? I think it was Bellini's but I'm not sure.", []string{}},
		{"Status: API migration done, billing migration blocked on legal, search revamp in progress.", []string{"api_migration.status=done", "billing_migration.status=blocked", "search_revamp.status=in progress"}},
		{"I switched teams last month, so I'm no longer on payments. Now I'm on the growth team and my manager is Ana.", []string{"user.manager=Ana"}},
		{"For the record, my email changed — it's now kai.w@protonmail.com. Phone is the same.", []string{"user.email=kai.w@protonmail.com"}},
		{"Just so you know, the launch slipped again. New date is March 2. Lena is still the owner.", []string{"date.date=2027-03-02"}},
		{"The doctor said my next appointment is on the 14th. I'll probably move it though.", []string{"appointment.date=2026-12-14"}}, // reported by the doctor, stated; the "probably" sentence is a thought
	}
	for _, tc := range tests {
		t.Run(tc.text[:min(40, len(tc.text))], func(t *testing.T) {
			var got []string
			for _, st := range Extract(Turn{Text: tc.text, Speaker: "user", At: turnTime}) {
				got = append(got, st.Key+"="+st.Value)
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("statements = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestCited checks that a relayed claim names whom it cites.
func TestCited(t *testing.T) {
	tests := []struct{ text, key, cited string }{
		{"The COO says the freeze starts Friday.", "freeze.start", "The COO"},
		{"Per the CEO, the offsite is in Lisbon.", "offsite.location", "the CEO"},
		{"The offsite is in Lisbon.", "offsite.location", ""},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			got := Extract(Turn{Text: tc.text, Speaker: "user", At: turnTime})
			if len(got) != 1 || got[0].Key != tc.key || got[0].Cited != tc.cited {
				t.Fatalf("Extract = %+v, want %s cited %q", got, tc.key, tc.cited)
			}
		})
	}
}

// TestDates checks date resolution against the turn's clock, not the wall
// clock.
func TestDates(t *testing.T) {
	tests := []struct {
		text string
		at   time.Time
		want string
	}{
		{"The deadline is Friday.", turnTime, "2026-11-27"},
		{"The deadline is Friday.", time.Date(2031, 3, 4, 9, 0, 0, 0, time.UTC), "2031-03-07"},
		{"The launch is on March 3rd.", turnTime, "2027-03-03"},
		{"The launch is on March 3rd.", time.Date(2027, 1, 5, 9, 0, 0, 0, time.UTC), "2027-03-03"},
		{"The launch is in a month.", turnTime, "2026-12-23"},
		{"The launch is on 2027-02-01.", turnTime, "2027-02-01"},
		{"The launch is on 4 December 2026.", turnTime, "2026-12-04"},
		{"The review is tomorrow at 9am.", turnTime, "2026-11-24 09:00"},
		// A day of the month said alone, and what the speaker adds.
		{"dentist appt got pushed to the 21st, ugh", turnTime, "2026-12-21"},
		{"I moved my checkup to the 21st same time.", turnTime, "2026-12-21"},
		// A day of the month and its hour; across the year's end, the
		// day's year; a German date.
		{"My GP appointment moved to the 22nd at 9:40.", time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC), "2026-01-22 09:40"},
		{"The lesson moved to the 5th at 9:30.", time.Date(2026, 12, 20, 9, 0, 0, 0, time.UTC), "2027-01-05 09:30"},
		{"The Abgabe is now 30.04.", time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC), "2026-04-30"},
		// A weekday that recurs, with its time: a weekly slot, as said.
		{"The standup is on Tuesdays at 9:30am.", turnTime, "Tuesdays at 9:30am"},
		{"we moved the community call to tuesdays 5pm utc", turnTime, "tuesdays 5pm utc"},
		// A month without a day: its first, its fifteenth after "mid",
		// its last after "end of"; never the turn's day of that month.
		{"The launch is in May.", turnTime, "2027-05-01"},
		{"The deadline is end of May now.", turnTime, "2027-05-31"},
		{"The launch is mid-June.", turnTime, "2027-06-15"},
		{"The deadline is the end of December.", turnTime, "2026-12-31"},
		{"The deadline is end of February.", time.Date(2028, 1, 5, 9, 0, 0, 0, time.UTC), "2028-02-29"},
		// A weekday with a day of the month: the day decides, on that
		// weekday ("Wednesday the 14th" after Monday 5 January 2026).
		{"The all-staff meeting is on Wednesday the 14th now.", time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC), "2026-01-14"},
		{"Framing inspection is Fri the 16th now.", time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC), "2026-01-16"},
		{"Framing inspection is Fri the 13th now.", time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC), "2026-02-13"},
	}
	for _, tc := range tests {
		t.Run(tc.text+"@"+tc.at.Format("2006-01-02"), func(t *testing.T) {
			got := Extract(Turn{Text: tc.text, Speaker: "user", At: tc.at})
			if len(got) != 1 || got[0].Value != tc.want || got[0].Kind != KindDate {
				t.Fatalf("Extract = %+v, want one date %s", got, tc.want)
			}
		})
	}
}

// TestDateSaidWithoutNow: a date's wording as said leaves out the "now"
// the date library reads with it; when a value holds is the fact's valid
// time, not its value.
func TestDateSaidWithoutNow(t *testing.T) {
	for text, want := range map[string]string{
		"Moving day is Saturday March 7 now.": "Saturday March 7",
		"The deadline is end of May now.":     "end of May",
	} {
		got := Extract(Turn{Text: text, Speaker: "user", At: turnTime})
		if len(got) != 1 || got[0].Said != want {
			t.Errorf("Extract(%q) = %+v, want one date said %q", text, got, want)
		}
	}
}

func TestAsides(t *testing.T) {
	tests := []struct {
		in, main string
		asides   []string
	}{
		{"Okay we caved, the appliance budget is $14,500 now (the induction range alone, don't even).", "Okay we caved, the appliance budget is $14,500 now.", []string{"the induction range alone, don't even"}},
		{"We switched to Granite Depot on Route 9 for the counters (StoneCraft kept ghosting me for like two weeks).", "We switched to Granite Depot on Route 9 for the counters (StoneCraft kept ghosting me for like two weeks).", nil},
		{"Painted a sample door and the cabinets are going Saybrook Sage now (Mark didn't love it at first).", "Painted a sample door and the cabinets are going Saybrook Sage now.", []string{"Mark didn't love it at first"}},
		{"The office is at 48 Harbor Rd (Suite 200) now.", "The office is at 48 Harbor Rd (Suite 200) now.", nil},
		{"The budget is $14,500 now (if finance signs off on it).", "The budget is $14,500 now (if finance signs off on it).", nil},
		{"Moving standup to 10 (not confirmed yet, though).", "Moving standup to 10 (not confirmed yet, though).", nil},
	}
	for _, tt := range tests {
		main, said := asides(tt.in)
		if main != tt.main || !slices.Equal(said, tt.asides) {
			t.Errorf("asides(%q) = %q, %q; want %q, %q", tt.in, main, said, tt.main, tt.asides)
		}
	}
}

// TestAsideAt: a remark with a subject and a verb of its own, after a
// statement that says when it holds, is apart from it; a doubt of the
// statement is not.
func TestAsideAt(t *testing.T) {
	tests := []struct{ in, aside string }{
		{"ms. ruiz is his speech therapist from now on, she seems sweet but leo does not do well with new people", "she seems sweet but leo does not do well with new people"},
		{"priya shah is our case manager now, she already emailed me about the iep prep", "she already emailed me about the iep prep"},
		{"mr. hanley is his aide now, he started today and apparently leo let him help", "he started today and apparently leo let him help"},
		{"the venue is the hyatt now, they say the ballroom is bigger", ""},
		{"priya is our case manager now, i think", ""},
		{"priya is our case manager, she already emailed me", ""},
		{"the launch is march 3 now, she seems sure but i'd wait", ""},
		{"trash pickup is on wednesdays now, i found out when my bin sat alone on the curb like a kid nobody picked up", "i found out when my bin sat alone on the curb like a kid nobody picked up"},
		{"the venue is the hyatt now, i hope it stays that way", ""},
	}
	for _, tt := range tests {
		got := ""
		if i := asideAt(tt.in); i >= 0 {
			got = tt.in[i:]
		}
		if got != tt.aside {
			t.Errorf("asideAt(%q) = %q, want %q", tt.in, got, tt.aside)
		}
	}
}

// TestStripOldValue: the value a correction quotes as the old one is cut
// from the sentence, and the sentence is a correction.
func TestStripOldValue(t *testing.T) {
	tests := []struct {
		in, want string
		corr     bool
	}{
		// The unit said between the two goes with the old one.
		{"Actually the room holds 40, not 60.", "Actually the room holds 40", true},
		{"the gateway limit is 120 req/s not 100", "the gateway limit is 120", true},
		{"reefer's supposed to be 28 degrees not 34 i had that wrong", "reefer's supposed to be 28 i had that wrong", true},
		{"the paper goes to UIST not CSCW", "the paper goes to UIST", true},
		{"my gpu is a 4070 Ti not a 3080", "my gpu is a 4070 Ti", true},
		{"typo in the brief, CPM target should be $22 not $18", "typo in the brief, CPM target should be $22", true},
		{"Had me licence expiry wrong, it's 30 September 2026 not June", "Had me licence expiry wrong, it's 30 September 2026", true},
		{"oops I had Jess's birthday wrong, it's June 21 not the 12th", "oops I had Jess's birthday wrong, it's June 21", true},
		{"we are not moving the launch", "we are not moving the launch", false},
	}
	for _, tt := range tests {
		got, corr := stripOldValue(tt.in)
		if got != tt.want || corr != tt.corr {
			t.Errorf("stripOldValue(%q) = %q, %v; want %q, %v", tt.in, got, corr, tt.want, tt.corr)
		}
	}
}
