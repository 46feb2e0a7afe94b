"""Create (or reset) one demo account per role and print the credentials."""

import json

from django.core.management.base import BaseCommand

from demo.users import create_demo_users


class Command(BaseCommand):
    help = "Create one demo user per role (reviewer, rater, manager, admin) with fresh passwords."

    def add_arguments(self, parser):
        parser.add_argument("--password", help="use this password for every demo user (scripts)")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, password, **options):
        credentials = create_demo_users(password)
        if options["json"]:
            self.stdout.write(json.dumps(credentials))
            return
        self.stdout.write(self.style.SUCCESS("Demo accounts (passwords are new on every run):"))
        for c in credentials:
            self.stdout.write(
                f"  {c['role']:<9} username {c['username']:<14} password {c['password']}"
            )
