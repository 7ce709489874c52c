"""A bot that fails at once, with more output than the error message should quote."""

import sys

for i in range(30):
    print(f"noise line {i}", file=sys.stderr)
print("fatal: cannot find strategy.bin", file=sys.stderr)
sys.exit(3)
