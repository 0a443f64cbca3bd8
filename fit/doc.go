// Package fit is the group of parametric dependencies (Beagle): loop counts, branch
// probabilities and resource demands learnt as functions of a function's input parameters from
// per-invocation traces, judged by cross-validation, and used to predict for input
// distributions.
//
// fit/pmnf holds the expressions (performance-model normal form, as Extra-P searches them) and
// their least-squares search; fit/trace the augur-trace/1 format of per-invocation measurements;
// fit/board the blackboard on which analysers post proposals and a judge decides; fit/inputs the
// input distributions predictions are made for. The group may import source, probe and markov;
// it must not import analyze, options or cmd.
package fit
