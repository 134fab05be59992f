package engine

import (
	"strconv"
	"strings"
)

// ConfigParam is one CONFIG GET/SET parameter the engine models.
type ConfigParam struct {
	Name    string
	Aliases []string
	Kind    string // "int", "memory" (accepts 1kb, 512mb…), "enum", "string"
	Default string
	Min     int64
	Max     int64
	Enum    []string
	Since   Version
}

// configParams are the parameters that change what the engine does. Others that clients ask
// for are answered read-only from configExtras.
var configParams = []*ConfigParam{
	{Name: "hll-sparse-max-bytes", Kind: "memory", Default: "3000", Min: 0, Max: 1<<63 - 1},
	{Name: "proto-max-bulk-len", Kind: "memory", Default: "536870912", Min: 1 << 20, Max: 1<<63 - 1},
	{Name: "hash-max-listpack-entries", Aliases: []string{"hash-max-ziplist-entries"}, Kind: "int", Default: "512", Min: 0, Max: 1<<63 - 1},
	{Name: "hash-max-listpack-value", Aliases: []string{"hash-max-ziplist-value"}, Kind: "memory", Default: "64", Min: 0, Max: 1<<63 - 1},
	{Name: "set-max-intset-entries", Kind: "int", Default: "512", Min: 0, Max: 1<<63 - 1},
	{Name: "set-max-listpack-entries", Kind: "int", Default: "128", Min: 0, Max: 1<<63 - 1, Since: V72},
	{Name: "set-max-listpack-value", Kind: "memory", Default: "64", Min: 0, Max: 1<<63 - 1, Since: V72},
	{Name: "zset-max-listpack-entries", Aliases: []string{"zset-max-ziplist-entries"}, Kind: "int", Default: "128", Min: 0, Max: 1<<63 - 1},
	{Name: "zset-max-listpack-value", Aliases: []string{"zset-max-ziplist-value"}, Kind: "memory", Default: "64", Min: 0, Max: 1<<63 - 1},
	{Name: "list-max-listpack-size", Aliases: []string{"list-max-ziplist-size"}, Kind: "int", Default: "-2", Min: -(1 << 31), Max: 1<<31 - 1},
	{Name: "list-compress-depth", Kind: "int", Default: "0", Min: 0, Max: 1<<31 - 1},
	{Name: "maxmemory", Kind: "memory", Default: "0", Min: 0, Max: 1<<63 - 1},
	{Name: "maxmemory-policy", Kind: "enum", Default: "noeviction", Enum: []string{"volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl", "allkeys-lru", "allkeys-lfu", "allkeys-random", "noeviction"}},
}

// Config holds the current parameter values.
type Config struct {
	e    *Engine
	vals map[string]string // canonical name → value as CONFIG GET prints it
	ints map[string]int64
}

func newConfig(e *Engine) *Config {
	c := &Config{e: e, vals: map[string]string{}, ints: map[string]int64{}}
	for _, p := range configParams {
		c.vals[p.Name] = p.Default
		if p.Kind == "int" || p.Kind == "memory" {
			n, _ := strconv.ParseInt(p.Default, 10, 64)
			c.ints[p.Name] = n
		}
	}
	return c
}

// Param finds a parameter by name or alias (case-insensitive) available in this profile.
func (c *Config) Param(name string) *ConfigParam {
	name = strings.ToLower(name)
	for _, p := range configParams {
		if !c.e.ver.Has(p.Since) {
			continue
		}
		if p.Name == name {
			return p
		}
		for _, a := range p.Aliases {
			if a == name {
				return p
			}
		}
	}
	return nil
}

// Int returns a numeric parameter's value.
func (c *Config) Int(name string) int64 { return c.ints[name] }

// Get returns a parameter's value as CONFIG GET prints it.
func (c *Config) Get(name string) string { return c.vals[name] }

// set stores an already validated value.
func (c *Config) set(p *ConfigParam, printed string, n int64) {
	c.vals[p.Name] = printed
	if p.Kind == "int" || p.Kind == "memory" {
		c.ints[p.Name] = n
	}
}

// Config gives read access to the engine's configuration.
func (e *Engine) Config() *Config { return e.cfg }
