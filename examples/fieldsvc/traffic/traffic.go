// Package traffic plays the sites of examples/fieldsvc: each site has its own usage mix (a
// reader, a writer, a browser, a mixed site) and its own seed, so that what a site asks for is
// reproducible, and sites differ the way users of deployed software do.
package traffic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
)

// A Request mirrors fieldsvc's request (the service is a command, so its types are not
// importable).
type Request struct {
	Kind   string   `json:"kind"`
	Key    string   `json:"key,omitempty"`
	Body   string   `json:"body,omitempty"`
	Tags   []string `json:"tags,omitempty"`
	Prefix string   `json:"prefix,omitempty"`
	Tag    string   `json:"tag,omitempty"`
	Limit  int      `json:"limit,omitempty"`
}

// A Mix weighs the kinds of request a site makes.
type Mix struct {
	Name                                string
	Get, Put, Delete, List, Search, Bad int
}

// Mixes are the usage mixes, site k using Mixes[k%len(Mixes)].
var Mixes = []Mix{
	{Name: "reader", Get: 70, Put: 10, List: 10, Search: 9, Bad: 1},
	{Name: "writer", Get: 20, Put: 55, Delete: 20, List: 5},
	{Name: "browser", Get: 20, List: 40, Search: 40},
	{Name: "mixed", Get: 25, Put: 25, Delete: 15, List: 20, Search: 14, Bad: 1},
}

var tags = []string{"go", "perf", "markov", "field", "probe", "model", "trace", "cost"}

// Site returns site k's first n requests.
func Site(k, n int) []Request {
	m := Mixes[k%len(Mixes)]
	rng := rand.New(rand.NewPCG(uint64(k), 0xf1e1d))
	total := m.Get + m.Put + m.Delete + m.List + m.Search + m.Bad
	reqs := make([]Request, n)
	for i := range reqs {
		// Keys are skewed: the square of a uniform draw makes low keys hot.
		u := rng.Float64()
		key := fmt.Sprintf("doc%03d", int(u*u*300))
		var r Request
		switch w := rng.IntN(total); {
		case w < m.Get:
			r = Request{Kind: "get", Key: key}
		case w < m.Get+m.Put:
			r = Request{Kind: "put", Key: key, Body: body(rng)}
			for range rng.IntN(4) {
				r.Tags = append(r.Tags, tags[rng.IntN(len(tags))])
			}
		case w < m.Get+m.Put+m.Delete:
			r = Request{Kind: "delete", Key: key}
		case w < m.Get+m.Put+m.Delete+m.List:
			r = Request{Kind: "list", Prefix: key[:3+rng.IntN(3)], Limit: 5 + rng.IntN(20)}
		case w < m.Get+m.Put+m.Delete+m.List+m.Search:
			r = Request{Kind: "search", Tag: tags[rng.IntN(len(tags))], Limit: 5 + rng.IntN(20)}
		default:
			r = Request{Kind: "patch", Key: key}
		}
		reqs[i] = r
	}
	return reqs
}

// body is a document: empty one time in ten, too large for the store one time in a hundred.
func body(rng *rand.Rand) string {
	switch p := rng.IntN(100); {
	case p < 10:
		return ""
	case p < 11:
		return strings.Repeat("x", 5000)
	}
	return strings.Repeat("lorem ", 1+rng.IntN(40))
}

// Play sends reqs to the service at url (http://host:port), one after another, and returns the
// number of answers per HTTP status of the store.
func Play(c *http.Client, url string, reqs []Request) (map[int]int, error) {
	statuses := map[int]int{}
	for i, r := range reqs {
		data, err := json.Marshal(r)
		if err != nil {
			return nil, err
		}
		resp, err := c.Post(url+"/do", "application/json", bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("request %d: %v", i, err)
		}
		var answer struct {
			Status int `json:"status"`
		}
		err = json.NewDecoder(resp.Body).Decode(&answer)
		resp.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("request %d: %v", i, err)
		}
		statuses[answer.Status]++
	}
	return statuses, nil
}
