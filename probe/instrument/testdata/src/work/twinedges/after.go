package twinedges

import "errors"

// Calls of twins in nodes that may still panic after the call returns (fastjson's
// kv.k, s, err = parseRawKey(s)): the callee returns with its spill word clear.

type kv struct{ k, v string }

func rawKey(s string) (string, string, error) {
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			return s[:i], s[i+1:], nil
		}
		if s[i] == '\\' {
			return s, "", errors.New("escape")
		}
	}
	return s, "", errors.New("no quote")
}

type pairNode struct{ next *pairNode }

func lastOf(p *pairNode, n int) *pairNode {
	for range n {
		p = p.next // panics when the list is shorter than n
	}
	return p
}

// keys parses "k" pairs into kvs; a nil entry panics after rawKey returns.
func keys(s string, kvs []*kv) (n int, err error) {
	for _, e := range kvs {
		e.k, s, err = rawKey(s)
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// deep follows the list and dereferences what lastOf returned, in the return's results.
func deep(p *pairNode, n int) *pairNode {
	if n > 3 {
		return lastOf(p, n-3).next.next
	}
	return lastOf(p, n).next
}
