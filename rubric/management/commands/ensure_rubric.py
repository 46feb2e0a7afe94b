"""Create rubric v1 from the default spec when no rubric exists; print the current version."""

from django.core.management.base import BaseCommand

from rubric.models import Rubric
from rubric.services.rubric import ensure_rubric


class Command(BaseCommand):
    help = "Create the quality rubric's v1 if there is no rubric yet (idempotent)."

    def handle(self, *args, **options):
        existed = Rubric.objects.exists()
        rubric = ensure_rubric()
        if existed:
            self.stdout.write(f"Rubric v{rubric.version} is current; nothing to do.")
        else:
            self.stdout.write(self.style.SUCCESS(f"Created rubric v{rubric.version}."))
