"""Differential fuzzing of the whole shell against real bash 5.2.

grammar: a seeded generator of scripts built from the constructs agents write.
runner: runs a script in real bash and in the sandbox and compares the results.
minimize: shrinks a differing script while it keeps differing the same way.
"""
