"""`python -m arena.cli`: the arena command line."""

from arena.cli.main import main

raise SystemExit(main())
