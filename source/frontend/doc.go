// Package frontend owns augur's front end: loading Go packages (Load), selecting the functions to
// analyse (Program.Select), and building for each function a statement-level control-flow graph
// (Build, CFG) that covers every Go statement of its body.
//
// It must not touch what later stages own: it assigns no probabilities, counts nothing, inserts no
// instrumentation and builds no DTMC. Synthesis (one DTMC state per node, one transition per edge)
// and instrumentation (a counter per node and per decision outcome) are written on top of the
// graph described here, so everything below is a contract.
//
// # Nodes
//
// A CFG has one node per statement and per decision, numbered in the source order of the
// statements they stand for (a pre-order walk of the function body: init, condition and post
// of a for loop come before its body), followed by the synthetic nodes that run deferred calls
// (DeferRun, DeferDispatch; numbered in the order the exit points, taken in ID order, first
// need them), followed by the two exits: End (the
// function returns normally) and Panic (the function ends abnormally: a panic that is not
// recovered, runtime.Goexit, or a call that ends the process). Entry is always node 0: an empty
// body is an Empty node. End is always len(Nodes)-2 and Panic len(Nodes)-1; both exist in every
// CFG, marked Unreachable when nothing reaches them.
//
// How each statement is represented (CFG.StmtNode maps every ast.Stmt of the body, function
// literals excluded, to exactly one node):
//
//   - assignment, expression, inc/dec, send and declaration statements: a Stmt node (an
//     expression statement that calls a function that never returns is a NoReturn node, see
//     below);
//   - return: a Return node, followed by the deferred calls (if any), then End;
//   - break, continue, goto, fallthrough: a Jump node whose one edge goes to the target;
//   - defer: a Defer node (it registers the call; the call itself runs in a DeferRun node);
//   - go: a Go node (the goroutine's body is not part of this function's flow);
//   - an empty statement (explicit ";" or the implicit one after a label that ends a block) or
//     an empty block "{}" (also an empty if/for/range/function body): an Empty node;
//   - a non-empty block and a labelled statement have no node of their own: StmtNode maps them to
//     their entry node (the first node of their first statement), which is where goto lands;
//   - if: the init statement (if any) is its own node, then a Decision node (outcomes "true",
//     "false") positioned at the condition;
//   - for with a condition: init node, Decision node at the condition ("true" enters the body,
//     "false" leaves), body, post node, back to the condition; continue goes to the post node
//     (or the condition when there is none);
//   - for without a condition: init node, a Loop node (a plain pass-through loop head, text
//     "for" or "for init; ; post (head)"), body, post node, back to the Loop node;
//   - range (over slices, arrays, pointers to arrays, strings, maps, channels, integers and
//     functions): a Decision node at the "for" keyword with outcomes "next" (one more iteration:
//     the body runs) and "done" (the loop ends). Range over a function (an iterator, Go 1.23) is
//     modelled exactly like the others, with Node.RangeFunc set: in reality the body is a
//     callback the iterator calls, but seen from this function each call of the body is one
//     "next" and the iterator's return is "done"; break, continue, return, goto and defer in the
//     body keep their ordinary meaning (a defer in the body belongs to this function, as the
//     language says), and the iterator's own code is not part of this graph;
//   - switch and type switch: the init statement (if any) is its own node, then a Decision node
//     (at the tag, or at the "switch" keyword when there is no tag; for a type switch at the
//     guard x := y.(type), which StmtNode also maps to the decision). Its outcomes are "case K",
//     K being the 1-based position of the clause among the switch's clauses in source order
//     (the default clause counts in that numbering), and "default" for the default clause
//     wherever it is written; when there is no default clause, "default" names the implicit
//     path taken when no case matches (it goes to the statement after the switch). Case and
//     default clauses have no node: StmtNode maps them (and the switch body block) to the
//     decision, and the outcome edge goes to the clause's first statement (or, for an empty
//     clause, to what follows the switch). fallthrough is a Jump node to the next clause's first
//     statement;
//   - select: a Decision node at the "select" keyword with one outcome per clause, "case K"
//     (1-based position in source order) or "default"; the communication statement of a clause
//     is performed by the select and StmtNode maps it to the decision. "select {}" blocks
//     forever: it is a Stmt node whose only edge goes to itself;
//   - a decision with a single outcome (a switch with only a default clause, or no clauses; a
//     select with one clause) is not a decision: it is a Stmt node with one plain edge.
//
// Plain nodes have exactly one edge, with Outcome "". Nodes with two or more edges
// (Node.IsDecision) carry distinct, non-empty outcome names; two outcomes may lead to the same
// node (for example two empty case clauses), and synthesis must then add their probabilities.
// Edges of a decision are listed in the order of the outcomes above.
//
// # Calls that never return
//
// Only calls the type checker resolves to the functions of one table (noReturn in noreturn.go)
// are known not to return; nothing else is (t.Fatal, a helper that always panics, a nil
// dereference are ordinary statements). An expression statement making such a call is a
// NoReturn node (Node.Term says which way it ends):
//
//   - panic(...) and log.Panic, log.Panicf, log.Panicln and the same methods of *log.Logger
//     (Term TermPanic): the deferred calls run (panic chain), then Panic, unless a deferred call
//     recovers;
//   - runtime.Goexit (TermGoexit): the deferred calls run (goexit chain, where recover has no
//     effect), then Panic;
//   - os.Exit, syscall.Exit, log.Fatal, log.Fatalf, log.Fatalln and the same methods of
//     *log.Logger (TermExit): the process ends at once, deferred calls do not run: the node's
//     edge goes straight to Panic.
//
// # Deferred calls
//
// A Defer node only registers its call. When the function leaves, the registered calls run last
// in, first out in DeferRun nodes (Node.Defer is the Defer node whose call runs,
// Node.Chain says why the function is leaving: ChainReturn, ChainPanic or ChainGoexit). A
// DeferRun node's successor is the next deferred call of its chain, or the chain's exit (End for
// the return chain, Panic for the others). The order is found by a data-flow pass over the body
// that computes, at every node, the stack of registered defers:
//
//   - static order (CFG.DynamicDefers false): every reachable node has one possible stack (the
//     common case: defers at the top level of the body, or in a branch that then always
//     leaves). Each exit point goes to the DeferRun of the top of its stack, which chains to
//     the one below, and so on: one DeferRun node per distinct (chain, stack) suffix, shared by
//     all exit points with that stack;
//   - dynamic order (CFG.DynamicDefers true): some node can be reached with different stacks (a
//     defer in a conditional that falls through, in a loop, or skipped by goto). Then each
//     chain has one DeferDispatch node; every exit point of that chain goes to it, and it has
//     one outcome "defer K" per defer statement of the function (K = its 1-based ordinal in
//     source order; CFG.Defers[K-1] is its Defer node) leading to the DeferRun of that call,
//     plus "done" (nothing left to run) leading to the chain's exit. Each DeferRun of the chain
//     goes back to the dispatch. Instrumentation counts "defer K" each time deferred call K
//     starts on that chain and "done" each time the chain finishes.
//
// A deferred call that itself never returns (defer panic(x), defer os.Exit(1)) continues on the
// panic chain, or goes to Panic for the exit kind. When the deferred function is a function
// literal that calls recover() directly (not inside a nested function literal), its DeferRun
// nodes on the panic chain have two outcomes: "recovered" (recover stopped the panic: the
// remaining deferred calls run on the return chain and the function returns normally, ending at
// End) and "panicking" (it did not: the panic chain goes on). Node.Recover marks such Defer and
// DeferRun nodes. A named function deferred by name is not inspected for recover.
//
// Implicit panics (index out of range, nil dereference, a panic inside a callee) are not
// represented: only the statements listed above lead to the panic chain.
//
// # Unreachable nodes
//
// Statements that cannot be reached (after a return, a panic, an infinite loop, a goto) are kept
// as nodes, with Node.Unreachable set, never dropped. Their exit edges use the defer stack of the
// preceding node in source order, which is a guess that cannot matter: no execution goes there.
//
// # Loops
//
// Node.LoopHead marks the targets of back edges (Edge.Back) of a depth-first search from Entry
// that follows edges in order (then from every unvisited node in ID order); Node.Loops lists the
// heads of the loops a node belongs to. For structured loops the heads are the condition,
// range or Loop nodes; goto can also make a loop, whose head is then the goto's target.
//
// # Dump
//
// CFG.Dump writes one line per node:
//
//	ID kind file.go:line:col  text  -> outcome:ID, ...  [flags]
//
// where a plain edge is written as its target ID alone, and flags are "loophead" and
// "unreachable". The golden tests of this package hold one dump per function of the corpus.
//
// Its size (about 2k lines) is Go's statements: every construct (loops, switches, selects, goto and
// labels, defer, panic and recover, function literals) gets its states and edges from one builder
// whose state they share, plus the dump format the golden tests read; one package keeps that
// builder unexported.
package frontend
