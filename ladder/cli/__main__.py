"""`python -m ladder.cli`: the ladder command line."""

from ladder.cli.main import main

raise SystemExit(main())
