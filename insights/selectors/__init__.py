"""Reads for the insights pages, one module per page: SQL aggregates, a fixed number of queries
per page whatever the volume of tasks, reflections or retrievals."""
