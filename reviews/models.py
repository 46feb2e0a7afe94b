"""Review cycles, verdicts and rubric ratings live here (DOMAIN §5, §6); none yet."""
