"""Computations that a page of the site quotes beyond the worked examples, one module a topic."""
