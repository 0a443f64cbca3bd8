// Package caarlos reads options with github.com/caarlos0/env struct tags.
package caarlos

import "github.com/caarlos0/env/v11"

type DB struct {
	Pool int `env:"POOL"`
}

type Config struct {
	Compress bool `env:"COMPRESS"`
	Level    int  `env:"LEVEL,required"`
	DB       DB   `envPrefix:"DB_"`
	Ignored  string
	secret   string `env:"SECRET"`
}

func Load() (Config, error) {
	var c Config
	err := env.Parse(&c)
	return c, err
}
