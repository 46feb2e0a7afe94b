"""Reads for the memory pages, one module per page or panel; they return rows, never write."""
