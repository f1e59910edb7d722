package lexical

import "strings"

// stop are English function words: they carry no topic and no relevance.
var stop = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a about after all also am an and any are as at be been
		before being but by can could did do does doing for from had has have having he her
		here him his how i if in into is it its just me my no nor not of off on once only or
		other our out over own same she should so some such than that the their them then
		there these they this those to too under until up very was we were what when where
		which while who whom why will with would you your yours let lets s t
		us shall may might must re ll ve m d don doesn didn isn aren wasn weren hasn haven hadn
		couldn shouldn wouldn`) {
		stop[w] = true
	}
}

// IsStop reports whether token is a stop word.
func IsStop(token string) bool { return stop[token] }

// abbreviations end with a full stop without ending the sentence.
var abbreviations = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "dr": true, "st": true, "vs": true,
	"e.g": true, "i.e": true, "etc": true, "approx": true, "no": true,
	"jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true,
	"aug": true, "sep": true, "sept": true, "oct": true, "nov": true, "dec": true,
	"prof": true, "inc": true, "ltd": true, "co": true, "jr": true, "sr": true,
	"rev": true, "fr": true, "hon": true, "capt": true, "sgt": true, "lt": true, "col": true, "dept": true,
}

// Abbreviation reports whether w (without its full stop) is a word
// written with a full stop that does not end the sentence: "Dr", "St",
// "Jr", "etc".
func Abbreviation(w string) bool { return abbreviations[strings.ToLower(w)] }
