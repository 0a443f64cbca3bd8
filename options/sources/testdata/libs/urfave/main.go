// Package urfave reads options through urfave/cli v2.
package urfave

import "github.com/urfave/cli/v2"

func App() *cli.App {
	return &cli.App{
		Flags: []cli.Flag{&cli.BoolFlag{Name: "compress"}, &cli.IntFlag{Name: "workers"}},
		Action: func(c *cli.Context) error {
			if c.Bool("compress") && c.Int("workers") > 2 {
				return nil
			}
			return nil
		},
	}
}
