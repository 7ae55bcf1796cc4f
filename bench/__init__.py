"""Benchmarks (scripts, never timed tests): each prints ratios against a peer measured in the
same run.  See bench/README.md."""
