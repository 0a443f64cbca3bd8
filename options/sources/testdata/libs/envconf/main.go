// Package envconf reads options with github.com/kelseyhightower/envconfig.
package envconf

import "github.com/kelseyhightower/envconfig"

type Spec struct {
	Debug   bool
	Workers int `envconfig:"threads"`
}

func Load() Spec {
	var s Spec
	envconfig.MustProcess("app", &s)
	return s
}
