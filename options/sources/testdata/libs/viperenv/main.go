// Package viperenv reads options through viper with automatic environment variables.
package viperenv

import (
	"strings"

	"github.com/spf13/viper"
)

func Load() (bool, int) {
	viper.SetEnvPrefix("app")
	viper.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	viper.AutomaticEnv()
	return viper.GetBool("cache.enabled"), viper.GetInt("workers")
}
