package taint

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
)

// TextOptions control WriteText.
type TextOptions struct {
	// Base makes file names relative to this directory when possible.
	Base string
	// OnlyInfluenced omits decisions no option influences.
	OnlyInfluenced bool
}

func rel(base, file string) string {
	if base == "" {
		return file
	}
	if abs, err := filepath.Abs(base); err == nil {
		base = abs
	}
	if r, err := filepath.Rel(base, file); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return file
}

func braces(names []string) string { return "{" + strings.Join(names, ", ") + "}" }

// WriteText writes one line per decision, "file:line:col  text  {A, B}",
// then the options and the irrelevant ones.
func (r *Result) WriteText(w io.Writer, opts TextOptions) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, d := range r.Decisions {
		if opts.OnlyInfluenced && !d.Influenced() {
			continue
		}
		fmt.Fprintf(tw, "%s:%d:%d\t%s\t%s\n", rel(opts.Base, d.Pos.Filename), d.Pos.Line, d.Pos.Column, d.Text, braces(d.Options))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "options: %s\nirrelevant: %s\n", braces(r.Options.Names()), braces(r.Irrelevant))
	return err
}

type jsonSite struct {
	Pos  string `json:"pos"`
	Kind string `json:"kind"`
	Call string `json:"call,omitempty"`
}

type jsonOption struct {
	Name   string     `json:"name"`
	Type   string     `json:"type"`
	Values []string   `json:"values,omitempty"`
	Sites  []jsonSite `json:"sites"`
}

type jsonDecision struct {
	Pos     string   `json:"pos"`
	Kind    string   `json:"kind"`
	Text    string   `json:"text"`
	Func    string   `json:"func"`
	Options []string `json:"options"`
	End     string   `json:"end,omitempty"` // empty: the function's exit
}

type jsonResult struct {
	Options    []jsonOption   `json:"options"`
	Decisions  []jsonDecision `json:"decisions"`
	Irrelevant []string       `json:"irrelevant"`
}

// WriteJSON writes the result as one JSON object with "options",
// "decisions" and "irrelevant"; positions are "file:line:col" made relative
// to base when possible.
func (r *Result) WriteJSON(w io.Writer, base string) error {
	out := jsonResult{Decisions: []jsonDecision{}, Irrelevant: append([]string{}, r.Irrelevant...), Options: []jsonOption{}}
	for _, o := range r.Options.Options {
		jo := jsonOption{Name: o.Name, Type: o.Type, Values: o.Values, Sites: []jsonSite{}}
		for _, s := range o.Sites {
			jo.Sites = append(jo.Sites, jsonSite{Pos: posString(base, s.Position.Filename, s.Position.Line, s.Position.Column), Kind: s.Kind.String(), Call: s.Callee})
		}
		out.Options = append(out.Options, jo)
	}
	for _, d := range r.Decisions {
		jd := jsonDecision{Pos: posString(base, d.Pos.Filename, d.Pos.Line, d.Pos.Column), Kind: d.Kind, Text: d.Text, Func: d.Func, Options: append([]string{}, d.Options...)}
		if d.End.IsValid() {
			jd.End = posString(base, d.End.Filename, d.End.Line, d.End.Column)
		}
		out.Decisions = append(out.Decisions, jd)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func posString(base, file string, line, col int) string {
	return fmt.Sprintf("%s:%d:%d", rel(base, file), line, col)
}
