// Command redscope runs the Redis simulator: `redscope resp` is a RESP2 server (redis-cli,
// redis-benchmark and client libraries can talk to it), `redscope serve` serves the browser app,
// `redscope lab` runs the course labs.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

const usage = `redscope: a Redis internals simulator

usage:
  redscope resp  [--addr 127.0.0.1:6380] [--redis-version 8.8] [--allocator jemalloc|jemalloc-16] [--seed N]
      serve the Redis protocol (RESP2) on addr, answering as the chosen Redis version
  redscope serve [--addr 127.0.0.1:8080] [--dir dist]
      serve the built browser app (./build.sh dist) over HTTP
  redscope lab   ring|bloom|hll|bitmap|bitfield|random|listpack|lesson [flags]
      run a course lab on the engine and print its table ('redscope lab help' lists the flags)

run 'redscope COMMAND -h' for a command's flags
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the exit, for tests.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "resp":
		err = cmdResp(args[1:], stdout, stderr)
	case "serve":
		err = cmdServe(args[1:], stdout, stderr)
	case "lab":
		err = cmdLab(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "redscope: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "redscope %s: %v\n", args[0], ue.err)
		return 2
	default:
		fmt.Fprintf(stderr, "redscope %s: %v\n", args[0], err)
		return 1
	}
}

// usageError is a bad flag or argument (exit status 2).
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }

// newFlags makes a subcommand's flag set that reports errors instead of exiting.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("redscope "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parse parses flags and refuses stray arguments.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	return nil
}
