"""Sign-in protection: lockouts after repeated failed sign-ins (django-axes), unlocking."""
