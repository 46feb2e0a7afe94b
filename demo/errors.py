"""The one error the demo's seeding raises: a step it needs has not run, or a step failed."""


class DemoSeedError(Exception):
    """The message says what is missing or what went wrong; commands show it as it is."""
