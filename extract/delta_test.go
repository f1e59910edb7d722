package extract

import "testing"

func TestFormatLike(t *testing.T) {
	tests := []struct {
		stored string
		v      float64
		want   string
	}{
		{"$3,200/month", 3450, "$3,450/month"},
		{"$40k", 35000, "$35k"},
		{"$15.49", 17.49, "$17.49"},
		{"£13,200", 1234567, "£1,234,567"},
		{"$14/lb", 16, "$16/lb"},
		{"$1.5M", 1750000, "$1.75M"},
		{"250", 300, "300"},
	}
	for _, tc := range tests {
		_, parts, ok := moneyValue(tc.stored)
		if !ok {
			t.Fatalf("moneyValue(%q) read nothing", tc.stored)
		}
		if got := formatLike(tc.v, parts); got != tc.want {
			t.Errorf("formatLike(%v, %q) = %q, want %q", tc.v, tc.stored, got, tc.want)
		}
	}
}
