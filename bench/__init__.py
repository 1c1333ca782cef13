"""Benchmarks: each prints JSON; none asserts timings."""
