package documents_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stategraph/stategraph/internal/apitest"
)

// BenchmarkSearch: searchDocuments over HTTP against n documents of three
// chunks each, every one visible to the caller through a group.
func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("docs=%d", n), func(b *testing.B) {
			env := apitest.New(b)
			svc := service(b, "org-a")
			words := strings.Fields("budget travel hotel vendor contract renewal invoice payroll audit launch pricing discount roadmap hiring office")
			for i := range n {
				var paras []string
				for p := range 3 {
					var ws []string
					for w := range 100 {
						ws = append(ws, words[(i*7+p*3+w)%len(words)]+fmt.Sprint((i+w)%50))
					}
					paras = append(paras, strings.Join(ws, " "))
				}
				in := map[string]any{"id": fmt.Sprintf("doc-%d", i), "title": "Doc", "text": strings.Join(paras, "\n\n"), "acl": map[string]any{"groups": []string{"all"}}}
				env.MustDo(b, svc, ingestQ, map[string]any{"in": in}, &struct{}{})
			}
			tok := member(b, "org-a", "ana", "all")
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				var out struct{ SearchDocuments []chunk }
				env.MustDo(b, tok, searchQ, map[string]any{"q": fmt.Sprintf("hotel%d vendor%d", i%50, (i+7)%50), "first": 10}, &out)
			}
		})
	}
}
