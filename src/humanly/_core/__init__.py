"""Private helpers shared by every layer above: count arithmetic, bootstrap intervals, argument
checks, random streams, parallel tasks, atomic writes, lazy imports, progress and the result base.
Nothing here is public API; the layers above import what they need by module."""
