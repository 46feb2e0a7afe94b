"""Create an API token; the token is printed once, on the last line."""

from datetime import date

from django.core.management.base import BaseCommand, CommandError

from api.models import ApiToken
from api.services.tokens import create_token, end_of_day


class Command(BaseCommand):
    help = "Create an API token (printed once, on the last line; only its hash is stored)."

    def add_arguments(self, parser):
        parser.add_argument("--name", required=True, help="who or what uses the token")
        parser.add_argument("--scope", required=True, choices=ApiToken.Scope.values)
        parser.add_argument(
            "--expires",
            type=date.fromisoformat,
            help="YYYY-MM-DD: the token works until the end of that day (default: until revoked)",
        )

    def handle(self, *args, name, scope, expires=None, **options):
        try:
            token, raw = create_token(
                name=name, scope=scope, expires_at=end_of_day(expires) if expires else None
            )
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            f"Created {scope} token '{token.name}' (id {token.pk}). It is shown only now; "
            "an admin revokes it under API tokens."
        )
        self.stdout.write(raw)
