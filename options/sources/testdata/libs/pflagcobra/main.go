// Package pflagcobra reads options through pflag and a cobra command's flags.
package pflagcobra

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

var verbose = pflag.BoolP("verbose", "v", false, "")

func Command() *cobra.Command {
	var level int
	cmd := &cobra.Command{Use: "app", Run: func(cmd *cobra.Command, args []string) {
		fast, _ := cmd.Flags().GetBool("fast")
		_ = fast
	}}
	cmd.Flags().IntVarP(&level, "level", "l", 3, "")
	cmd.Flags().Bool("fast", false, "")
	return cmd
}
