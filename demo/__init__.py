"""Demo data: the workspace generator and the seeding commands (never imported by the product)."""
