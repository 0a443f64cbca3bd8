// Package work is the recorder's test subject: one loop linear in a slice's length, one
// quadratic in an integer, one that halves.
package work

// Work sums xs and counts pairs below n.
func Work(xs []int, n int, name string) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			s++
		}
	}
	for k := len(name); k > 1; k /= 2 {
		s--
	}
	return s
}

// Page limits a request.
type Page struct{ Limit int }

// Req is a request: items to sum, and an optional page.
type Req struct {
	Items []int
	Page  *Page
}

// Serve sums the request's items and counts to its page's limit, if it has a page.
func Serve(r *Req) int {
	s := 0
	for _, x := range r.Items {
		s += x
	}
	if r.Page != nil {
		for i := 0; i < r.Page.Limit; i++ {
			s++
		}
	}
	return s
}
