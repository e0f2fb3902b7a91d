"""Command line: one module per command, each a thin shell over plain functions."""
