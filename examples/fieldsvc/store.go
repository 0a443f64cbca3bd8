package main

import (
	"sort"
	"strings"
	"sync"
)

// A Request is one call on the store.
type Request struct {
	// Kind is get, put, delete, list or search.
	Kind string `json:"kind"`
	Key  string `json:"key,omitempty"`
	// Body and Tags are a put's document.
	Body string   `json:"body,omitempty"`
	Tags []string `json:"tags,omitempty"`
	// Prefix selects the keys a list returns; Tag the documents a search returns.
	Prefix string `json:"prefix,omitempty"`
	Tag    string `json:"tag,omitempty"`
	// Limit bounds what a list or search returns (0: 10).
	Limit int `json:"limit,omitempty"`
}

// A Response is a call's answer.
type Response struct {
	Status  int      `json:"status"`
	Body    string   `json:"body,omitempty"`
	Keys    []string `json:"keys,omitempty"`
	Version int      `json:"version,omitempty"`
}

type doc struct {
	body    string
	tags    []string
	version int
}

// Store is an in-memory document store with a tag index. The costs annotated on Handle's lines
// are abstract units; augur analyze's R{"cost"} is a request's expected cost.
type Store struct {
	mu    sync.Mutex
	docs  map[string]*doc
	byTag map[string]map[string]bool
}

// NewStore returns an empty store.
func NewStore() *Store {
	return &Store{docs: map[string]*doc{}, byTag: map[string]map[string]bool{}}
}

// Handle serves one request.
func (s *Store) Handle(r Request) Response {
	s.mu.Lock() // @cost=1
	defer s.mu.Unlock()
	limit := r.Limit
	if limit <= 0 {
		limit = 10
	}
	switch r.Kind {
	case "get":
		d, ok := s.docs[r.Key] // @cost=2
		if !ok {
			return Response{Status: 404}
		}
		return Response{Status: 200, Body: d.body, Version: d.version}
	case "put":
		if r.Key == "" || len(r.Body) > 4096 {
			return Response{Status: 400} // @cost=1
		}
		d, ok := s.docs[r.Key] // @cost=2
		if ok {
			for _, t := range d.tags {
				delete(s.byTag[t], r.Key) // @cost=3
			}
			d.body, d.tags = r.Body, r.Tags
			d.version++
		} else {
			d = &doc{body: r.Body, tags: r.Tags, version: 1} // @cost=5
			s.docs[r.Key] = d
		}
		for _, t := range r.Tags {
			if s.byTag[t] == nil {
				s.byTag[t] = map[string]bool{} // @cost=4
			}
			s.byTag[t][r.Key] = true // @cost=3
		}
		return Response{Status: 200, Version: d.version}
	case "delete":
		d, ok := s.docs[r.Key] // @cost=2
		if !ok {
			return Response{Status: 404}
		}
		for _, t := range d.tags {
			delete(s.byTag[t], r.Key) // @cost=3
		}
		delete(s.docs, r.Key) // @cost=2
		return Response{Status: 204}
	case "list":
		var keys []string
		for k := range s.docs {
			if strings.HasPrefix(k, r.Prefix) { // @cost=1
				keys = append(keys, k) // @cost=2
			}
		}
		sort.Strings(keys) // @cost=20
		if len(keys) > limit {
			keys = keys[:limit]
		}
		return Response{Status: 200, Keys: keys}
	case "search":
		var keys []string
		for k := range s.byTag[r.Tag] {
			keys = append(keys, k) // @cost=2
		}
		sort.Strings(keys) // @cost=20
		for i, k := range keys {
			if i == limit {
				keys = keys[:limit]
				break
			}
			if len(s.docs[k].body) == 0 { // @cost=2
				keys[i] = k + " (empty)"
			}
		}
		return Response{Status: 200, Keys: keys}
	}
	return Response{Status: 400} // @cost=1
}
