// Package vipercfg reads options through viper from a configuration file only.
package vipercfg

import "github.com/spf13/viper"

func Load() string {
	v := viper.New()
	v.SetConfigFile("app.yaml")
	_ = v.ReadInConfig()
	return v.GetString("mode")
}
