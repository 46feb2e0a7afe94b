"""Writes that span models, one module per concern (imports, counters, rollups, policies, …)."""
