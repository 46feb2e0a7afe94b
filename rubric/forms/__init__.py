"""Forms of the rubric pages: they validate shapes; the services enforce the rules."""
