// Command render is the field study's workload: a user of github.com/russross/blackfriday/v2
// turning their project's Markdown documents into HTML with the configuration their site uses.
// study.sh copies it into a copy of the module (as cmd/render) and runs it under augur profile.
//
//	render -config default|strict|rich|safe FILE...
//
// The configurations are what blackfriday's users choose between: its defaults (Run), plain
// Markdown without extensions, every extension with a table of contents, footnote links and
// smart punctuation, and a renderer for untrusted input that skips raw HTML and images.
package main

import (
	"flag"
	"fmt"
	"os"

	bf "github.com/russross/blackfriday/v2"
)

func main() {
	config := flag.String("config", "default", "default, strict, rich or safe")
	flag.Parse()
	var opts []bf.Option
	switch *config {
	case "default":
	case "strict":
		opts = []bf.Option{bf.WithNoExtensions(), bf.WithRenderer(bf.NewHTMLRenderer(bf.HTMLRendererParameters{}))}
	case "rich":
		opts = []bf.Option{
			bf.WithExtensions(bf.CommonExtensions | bf.Footnotes | bf.AutoHeadingIDs | bf.Titleblock | bf.NoEmptyLineBeforeBlock),
			bf.WithRenderer(bf.NewHTMLRenderer(bf.HTMLRendererParameters{
				Flags: bf.CommonHTMLFlags | bf.TOC | bf.FootnoteReturnLinks | bf.CompletePage | bf.HrefTargetBlank | bf.NofollowLinks,
				Title: "docs",
			})),
		}
	case "safe":
		opts = []bf.Option{bf.WithRenderer(bf.NewHTMLRenderer(bf.HTMLRendererParameters{
			Flags: bf.Safelink | bf.SkipHTML | bf.SkipImages | bf.NoreferrerLinks | bf.NoopenerLinks,
		}))}
	default:
		fmt.Fprintf(os.Stderr, "render: unknown configuration %q\n", *config)
		os.Exit(2)
	}
	total := 0
	for _, f := range flag.Args() {
		data, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		total += len(bf.Run(data, opts...))
	}
	fmt.Printf("%d files, %d bytes of HTML\n", flag.NArg(), total)
}
