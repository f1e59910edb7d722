// Package extract turns the sentences of one conversation turn into
// (entity, attribute, value) statements, deterministically and without a
// language model.
//
// Extract and Analyze read a Turn sentence by sentence, without the
// greeting and sign-off a message written as a letter opens and closes
// with (Letter: "Dear Phone, … Love, Edna"). A sentence is first read the
// way it was meant (Shorthand, Spoken, Pauses, Affixed, Roles, asides): a
// text message's short days and halves of the day are written out
// ("tmrw", "2nite", "6:30a"), numbers said in words the way dictation writes them become
// digits where they can only be one kind of number ("at two thirty",
// "five five five oh one nine two", "march tenth", "nineteen fifty a
// month", "fifteen"), a filler ("um") is a pause, a spoken "comma" and a
// closing "period" are the marks, an English verb with a Tagalog affix
// ("nag-request", "i-move") is the verb, "has agreed to serve as" is
// "will be", "I made Tom Becker the owner of …" is "Tom Becker is now the
// owner of …", and an aside in parentheses that would refuse the sentence
// without qualifying it is a sentence of its own. It then
// passes the refusal filters, which are judged per sentence (and, for
// modality and negation, per clause), never per turn:
//
//   - heading: a markdown heading, a table row or a code block line;
//   - list-item: a list item that only names a topic (no rule fires on it);
//   - question: ends with "?" or opens with an interrogative and has no
//     terminal full stop;
//   - draft: "Draft: …", "in the draft …", "I'm drafting …";
//   - hypothetical: "suppose", "what if", "imagine", "hypothetically",
//     "let's say", "if …", "unless …", "in case …", "for example", "in the
//     movie" (whole sentence), and
//     "might", "maybe", "perhaps", "could", "would", "should", "may <verb>",
//     "I'd …", "thinking about", "planning to" (their own clause only);
//   - negated: "not", "n't", "never", "no longer", "no" (own clause only). A
//     correction's ", not 60" or "not X but Y" is not a negation: it is
//     removed and marks the statement a correction;
//   - proposal / declined: "Priya proposed Bellini's", "… but we said no",
//     "we turned it down", "ruled out";
//   - past: "two years ago", "back in 2019", "used to", "last year",
//     "originally", "when I first …", "initially", a year before the
//     turn's;
//   - exception: a one-off that leaves the standing value as it is ("Book
//     club is on Tuesday this week only", "just this once");
//   - other-subject: "my sister …", "my neighbour …", "he/she/they …",
//     except when they act on the speaker's thing ("my landlord raised the
//     rent", "they doubled our API limit") — and not when the thing is
//     theirs ("my sister booked the Ritz for her wedding");
//   - suggestion: an assistant's "you could …", "I'd recommend …",
//     "consider …", "how about …", "let's …";
//   - hearsay: "apparently", "I think", "I heard", "it looks like";
//   - request: a sentence that opens with an imperative ("Move the meeting
//     to Friday", "Tell me …", "Ask Jonas to …").
//
// Within a clause a rule refuses, and the clause yields nothing, when its
// subject is generic ("the average hotel", "the first option"), a pronoun,
// code ("`owner`"), or swallowed a subordinate clause ("After we moved …");
// when a chosen value is a judgement ("the plan is simple", "in the shop");
// or when a value is not said in the turn.
//
// A relayed claim ("The COO says the freeze starts Friday", "Per the CEO,
// …") is read without its frame; Statement.Cited names whom it cites, so the
// caller can weigh the cited authority.
//
// Before that, a few framings are read as the plain statement they make:
// "We agreed (that) the freeze is on February 10" without its frame;
// "Final answer on the paint colour: Harbour Grey" as a decision on the
// colour; "Scratch the earlier number for the seat count — we're at 360
// now" as a correction "the seat count is 360"; and a topic or label said
// up front with its value alone after it ("About the laptops: make that
// 71", "Change to the vet appointment: it's April 10 now", "Contact for
// the landlord: tom@x.net", "Address: 12 Elm Row", the last the speaker's)
// as "<topic> is <value>". A list item's label ("- Marketing budget:
// $40k") is not read so: a list names options.
//
// A sentence that survives is cut into clauses (at ";", dashes, "but",
// ", and", ", so", and a bare "and" that opens a new subject) and each clause
// is matched against Rules, in order: the first rule that yields a statement
// wins the clause, so one sentence may yield one statement per clause. A
// clause no rule reads that opens on a change in the past without its
// subject ("Switched the card reader over to Square") is read again as
// the speaker's ("I switched …"), as a chat drops the "I". A remark with a
// subject and a verb of its own after a statement that ends on its time
// ("… is his speech therapist from now on, she seems sweet") is a clause
// of its own: a report or a past in it ("apparently", "last year") is
// the remark's, not the statement's. So is someone else's change before
// the speaker's own ("carnicería changed their route, we place the meat
// order Mondays now").
// Values keep their characters as said ("Café Lumière", "LH 1234"); dates and deadlines are
// resolved against Turn.At with github.com/olebedev/when (ISO dates and dates
// with an explicit year are read directly) and written as 2006-01-02, or
// "2006-01-02 15:04" when a time of day was said. A month and day said
// without a year, or a relative phrase that would land before the turn's day,
// rolls forward to its next occurrence; "next Friday" is the library's
// reading, the first Friday after the turn.
//
// Entities and attributes are normalised: lower-case, articles,
// possessives and qualifiers ("new", "current", "final", "upcoming")
// removed, the last word made singular, words joined with "_" ("the
// onboarding decks" → onboarding_deck). "Y of X", "Y for X" and "Y to X"
// name X ("the owner of the deck" → deck.owner). A trailing attribute word
// moves into the attribute ("the launch date" → launch.date, "the widget
// price" → widget.price, "the marketing budget" → marketing.budget); a lone
// noun is the entity and the value's kind names the attribute ("the budget
// is $40k" → budget.amount). The first person (I, we) is the speaker:
// entity "user" when the speaker is "user", the speaker's name otherwise; an
// assistant's "your" is the user's. "My address" is user.address, but "our
// hiring budget" is hiring.budget: a possessive names the owner only when
// nothing else is left. Key is "entity.attribute", or the attribute alone
// when a choice names no topic ("we're going with X" → choice).
//
// NormalizeKey reads a client's key name the same way ("home_address",
// "addr" → address; "marketing_budget" → marketing.budget), and
// Statement.Matches tells whether a stored fact's key is the one a statement
// is about, so a caller can find the fact to supersede whatever its key is
// called.
//
// Retractions lists the sentences that take something back ("that was
// wrong", "ignore what I said about the rollout"); Swap reads a sentence
// that drops a stored value by name and takes up another ("I cancelled
// PureGym and joined The Climbing Hangar"), or names the value it leaves
// ("from Pro to the Team plan", "Nopa instead of Zuni", "Sara replaced
// Kim"; an amount or a number only when the sentence names a word of the
// fact's key); Anchor reads a sentence against
// one stored fact and finds the fact's new value when the sentence links
// the fact's topic to one value of the stored value's kind ("Board review
// is February 19 now"); State reads a sentence of
// short-lived state ("the build is red right now") with its lease.
//
// Anchor and Names match a key's words by meaning as well (topic.go): a
// synonym or abbreviation ("db", "database"; "k8s", "cluster"), an agent
// noun's verb ("approver", "signs off"), and a key word naming a category
// (database, language, framework, diet, ...) said by a known member of it
// ("MySQL", "Go", "vegan"); a value that stands for the whole key must
// come with a word of change or decision. Well-known brands are
// categories too (brands.go: banks, insurers, carriers, internet and TV
// providers, gyms, airlines, hotels, car makers and their models,
// streaming and music services, pharmacies, grocers, coffee chains, pet
// food, mail, cuisines, statuses, frequencies), and so are names whose
// form says what they are ("Roosevelt Elementary", "Hotel Indigo"). A
// value whose shape names its kind of thing (shape.go: "Floor 2", "3C",
// "BA117", "#launch", "Dr. Lang", "6.5%", "300 Mbps", "us-east-1") stands
// for every word of the key: "Biscuit sees Dr. Patel now" for vet = Dr.
// Lang. Such a reading is marked Implied, and the caller keeps it only
// when no other fact takes the value. A clause that opens on "it" ("…,
// bringing it to 28", "— it's delivered", "so we're at 65") continues the
// topic of the clause before, a past one included ("Initially the
// deadline was March 2, but now it's March 16"). A clause of aim ("my goal
// is to get down to 75 kg", "aiming for") says no new value unless the
// key is itself an aim (weight_goal). A stored weekday alone ("Thursday",
// "Thursdays") is a standing day: its new value is the weekday said, in
// the stored form, not a date.
//
// Scope applies the draft and hypothetical filters to a free text such as
// a fact's value ("Draft: …", "Hypothetically, …").
//
// Values are as said, with these exceptions: a first-person owner ("I'm
// taking over the deck") is the speaker; a date is resolved. Every value is
// therefore a substring of the turn's text, a resolved date, or the speaker
// (the fuzz target checks this).
//
// Limits: the rules read English only; pronoun subjects ("it is in Lisbon")
// are not resolved and yield nothing, but for "it's …" after a clause
// about a thing that arrived ("Package arrived — it's delivered"); a choice without a topic in its own
// sentence ("we're going with X") is keyed "choice"; prices and counts are
// kept as said ("$40k", "forty"), not converted; an unlisted verb ("sits
// with", "marked down to") yields nothing; an opening time phrase ("From
// Monday, …") is skipped, not applied; qualifiers are dropped even when they
// distinguish things ("the final report" → report). A turn is read up to
// its first 16 KiB.
package extract
