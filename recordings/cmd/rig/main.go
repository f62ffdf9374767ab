// Command rig records real agent sessions offline into the corpus, or
// installs pinned agents (and the MCP hosts OpenClaw and Pi, with their
// own pinned Node) into the cache.
//
//	go run ./recordings/cmd/rig -agent claude -version 2.1.267 -scenario idle -out recordings/testdata/claude/2.1.267
//	go run ./recordings/cmd/rig -install claude@2.1.267 codex@0.155.1
//	go run ./recordings/cmd/rig -install openclaw@2026.9.6 pi@1.6.0
//	go run ./recordings/cmd/rig -list
//	go run ./recordings/cmd/rig -qualify claude@2.1.325..2.1.337 [-full] [-keep-installs] [-versions-md docs/versions.md]
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"

	"github.com/agent-knock-knock/akk/recordings/rig"

	// The agents the rig records: each registers its npm package, world,
	// fake-model dialect and scenarios.
	_ "github.com/agent-knock-knock/akk/agents/registry/rigs"
)

func main() {
	var cfg rig.Config
	var install, list, verbose bool
	var q qualifyFlags
	q.register()
	flag.StringVar(&cfg.Agent, "agent", "", "the agent: "+strings.Join(rig.AgentNames(), ", "))
	flag.StringVar(&cfg.Version, "version", "", "the agent's npm version")
	flag.StringVar(&cfg.Scenario, "scenario", "", "scenario name (-list shows them)")
	flag.StringVar(&cfg.OutDir, "out", "", "directory for NAME.cast, NAME.final.txt and the transcript/rollout")
	flag.StringVar(&cfg.Name, "name", "", "file name stem (default: the scenario name)")
	flag.BoolVar(&cfg.Keep, "keep", false, "keep the run's directory (HOME, request log)")
	flag.BoolVar(&install, "install", false, "install mode: the arguments are agent@version or host@version (openclaw, pi) to install into the cache")
	flag.BoolVar(&list, "list", false, "list the scenarios")
	flag.BoolVar(&verbose, "v", false, "log every wait")
	flag.Parse()
	level := slog.LevelInfo
	if verbose {
		level = slog.LevelDebug
	}
	lg := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	cfg.Logger, cfg.Install = lg, true
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var err error
	if q.spec != "" {
		err = q.run(ctx, lg)
	} else {
		err = run(ctx, cfg, install, list)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "rig:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, cfg rig.Config, install, list bool) error {
	switch {
	case list:
		for _, a := range rig.AgentNames() {
			fmt.Printf("%s: %s\n", a, strings.Join(rig.ScenarioNames(a), " "))
		}
		return nil
	case install:
		for _, spec := range flag.Args() {
			agent, version, ok := strings.Cut(spec, "@")
			if !ok {
				return fmt.Errorf("install %q: want agent@version", spec)
			}
			if _, ok := rig.Hosts[agent]; ok {
				in, err := rig.InstallHost(ctx, cfg.Logger, agent, version)
				if err != nil {
					return err
				}
				fmt.Println(in.Dir)
				continue
			}
			in, err := rig.Install(ctx, cfg.Logger, agent, version)
			if err != nil {
				return err
			}
			fmt.Println(in.Dir)
		}
		return nil
	}
	if cfg.Agent == "" || cfg.Version == "" || cfg.Scenario == "" {
		flag.Usage()
		return fmt.Errorf("need -agent, -version and -scenario")
	}
	res, err := rig.Run(ctx, cfg)
	if res != nil && res.Dir != "" && cfg.Keep {
		fmt.Fprintln(os.Stderr, "run directory:", res.Dir)
	}
	if err != nil {
		return err
	}
	fmt.Printf("%s %s %s: %s\n", cfg.Agent, cfg.Version, cfg.Scenario, res.Summary())
	return nil
}
