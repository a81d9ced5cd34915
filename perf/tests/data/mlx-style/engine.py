#!/usr/bin/env python3
"""A stand-in for an MLX-based inference engine that perfgate has no adapter for: it prints its
version and commit and its prompt and generation rates in its own words, as such engines do, and
holds its weights in memory while it runs. Its speed divides by the number in the file `slowdown`
beside it (1 when there is none), so a test can make it slower without touching the suite. Its
weights are held by a worker process it starts, as engines that serve from a child do: the peak
memory perfgate records must be the process tree's, not this small parent's."""
import argparse
import os
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--model", required=True)
ap.add_argument("--prompt-tokens", type=int, required=True)
ap.add_argument("--max-tokens", type=int, required=True)
a = ap.parse_args()
if not os.path.isdir(a.model):
    sys.exit("engine: no model folder %s" % a.model)
here = os.path.dirname(os.path.abspath(__file__))
try:
    slowdown = float(open(os.path.join(here, "slowdown")).read())
except OSError:
    slowdown = 1.0
# The worker: 96 MiB resident while it "generates".
subprocess.run([sys.executable, "-c", "w = bytearray(96 << 20); w[::4096] = b'w' * len(w[::4096])"], check=True)
print("mlx-style-engine 0.7.2 (commit 9f8e7d6c5b4a)")
print("prompt: %d tokens at %.3f tok/s" % (a.prompt_tokens, 812.5 / slowdown))
print("generation: %d tokens at %.3f tok/s" % (a.max_tokens, 55.25 / slowdown))
