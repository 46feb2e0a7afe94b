"""Unlock a username's sign-in from every address (for an admin locked out of the page)."""

from django.core.management.base import BaseCommand, CommandError

from accounts.services import unlock_everywhere


class Command(BaseCommand):
    help = (
        "Forget a username's failed sign-ins from every address, so it may sign in again at "
        "once (the page: Manage → Sign-in lockouts)."
    )

    def add_arguments(self, parser):
        parser.add_argument("username")

    def handle(self, *args, username, **options):
        try:
            removed = unlock_everywhere(username=username, by="manage.py unlock_sign_in")
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        if removed:
            self.stdout.write(
                f"Unlocked '{username}': its failed sign-ins are forgotten ({removed} record(s))."
            )
        else:
            self.stdout.write(f"'{username}' had no failed sign-ins on record: nothing to unlock.")
