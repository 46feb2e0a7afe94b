"""Create (or reset) one demo account per role and print the credentials."""

import json
import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.db import transaction

from reflections.access import ROLES
from reflections.models import Department

# Reviewers and raters work in the departments they are given; two each shows the boundary.
DEMO_DEPARTMENTS = {"reviewer": ["sales", "finance"], "rater": ["content", "delivery"]}


class Command(BaseCommand):
    help = "Create one demo user per role (reviewer, rater, manager, admin) with fresh passwords."

    def add_arguments(self, parser):
        parser.add_argument("--password", help="use this password for every demo user (scripts)")
        parser.add_argument("--json", action="store_true")

    @transaction.atomic
    def handle(self, *args, password, **options):
        User = get_user_model()
        departments = {d.slug: d for d in Department.objects.all()}
        credentials = []
        for role in ROLES:
            username = f"{role}-demo"
            user, _ = User.objects.get_or_create(username=username)
            secret = password or secrets.token_urlsafe(9)
            user.set_password(secret)
            user.is_staff = role == "admin"
            user.is_superuser = role == "admin"
            user.save()
            # The role groups come with the migrations; recreate one an admin deleted.
            user.groups.set([Group.objects.get_or_create(name=role)[0]])
            wanted = DEMO_DEPARTMENTS.get(role)
            if wanted is not None:
                user.departments.set([departments[s] for s in wanted if s in departments])
            credentials.append({"role": role, "username": username, "password": secret})
        if options["json"]:
            self.stdout.write(json.dumps(credentials))
            return
        self.stdout.write(self.style.SUCCESS("Demo accounts (passwords are new on every run):"))
        for c in credentials:
            self.stdout.write(
                f"  {c['role']:<9} username {c['username']:<14} password {c['password']}"
            )
