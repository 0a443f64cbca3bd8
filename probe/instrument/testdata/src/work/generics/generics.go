// Package generics is generic code for the twins: generic functions and methods of generic types
// calling each other, with inferred and explicit type arguments, type parameters used only in
// results, interface calls through constraints and panics inside generic code.
package generics

import "cmp"

// tree is a small binary search tree over any ordered key, shaped like a B-tree's generic node.
type tree[K cmp.Ordered, V any] struct {
	root *node[K, V]
	n    int
}

type node[K cmp.Ordered, V any] struct {
	k           K
	v           V
	left, right *node[K, V]
}

// newTree's type parameters appear only in its result: the entry must name them.
func newTree[K cmp.Ordered, V any]() *tree[K, V] {
	return &tree[K, V]{}
}

func (t *tree[K, V]) put(k K, v V) {
	if t.root == nil {
		t.root = &node[K, V]{k: k, v: v}
		t.n++
		return
	}
	if t.root.insert(k, v) {
		t.n++
	}
}

func (n *node[K, V]) insert(k K, v V) bool {
	for {
		switch c := cmp.Compare(k, n.k); {
		case c < 0:
			if n.left == nil {
				n.left = &node[K, V]{k: k, v: v}
				return true
			}
			n = n.left
		case c > 0:
			if n.right == nil {
				n.right = &node[K, V]{k: k, v: v}
				return true
			}
			n = n.right
		default:
			n.v = v
			return false
		}
	}
}

func (t *tree[K, V]) get(k K) (V, bool) {
	n := t.root
	for n != nil {
		if less(k, n.k) {
			n = n.left
		} else if less(n.k, k) {
			n = n.right
		} else {
			return n.v, true
		}
	}
	var zero V
	return zero, false
}

// walk visits the keys in order, recursively, until visit says stop.
func (t *tree[K, V]) walk(visit func(K, V) bool) {
	walkNode(t.root, visit)
}

func walkNode[K cmp.Ordered, V any](n *node[K, V], visit func(K, V) bool) bool {
	if n == nil {
		return true
	}
	return walkNode(n.left, visit) && visit(n.k, n.v) && walkNode[K, V](n.right, visit)
}

func less[T cmp.Ordered](a, b T) bool {
	return a < b
}

// sum is generic over the element; it calls a method of the constraint (an interface call).
type sizer interface{ size() int }

type word string

func (w word) size() int { return len(w) }

func sizes[S ~[]E, E sizer](s S) int {
	total := 0
	for _, e := range s {
		total += e.size()
	}
	return total
}

// maxOf indexes its argument: it panics on an empty slice inside generic code, below a caller.
func maxOf[T cmp.Ordered](xs []T) T {
	m := xs[0]
	for _, x := range xs[1:] {
		m = max2(m, x)
	}
	return m
}

func max2[T cmp.Ordered](a, b T) T {
	if less(a, b) {
		return b
	}
	return a
}

func maxOfAll[T cmp.Ordered](xss [][]T) (m T, err error) {
	for i, xs := range xss {
		v := maxOf[T](xs)
		if i == 0 || less(m, v) {
			m = v
		}
	}
	return m, nil
}

// pair has two type parameters and an explicit two-argument instantiation at its call.
type pair[A, B any] struct {
	a A
	b B
}

func makePair[A, B any](a A, b B) pair[A, B] {
	if any(a) == nil {
		return pair[A, B]{b: b}
	}
	return pair[A, B]{a, b}
}

func swap[A, B any](p pair[A, B]) pair[B, A] {
	return makePair[B, A](p.b, p.a)
}

// blank's type parameter has no name: the entry could not instantiate a twin.
func blank[_ any](n int) int {
	if n > 2 && less(n, 40) && nonzero(n-7) {
		return n * 2
	}
	return n
}

func nonzero(n int) bool { return n != 0 }
