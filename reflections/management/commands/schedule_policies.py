"""Queue the daily policy run (it re-queues itself after each run); safe to call repeatedly."""

from django.core.management.base import BaseCommand

from reflections.tasks import schedule_daily_policies


class Command(BaseCommand):
    help = "Queue the daily decay/salience run for the next 01:00 UTC, unless one is queued."

    def handle(self, *args, **options):
        result = schedule_daily_policies()
        if result is None:
            self.stdout.write("The daily policy run is already queued.")
        else:
            self.stdout.write(
                f"Queued the daily policy run for {result.run_after:%Y-%m-%d %H:%M} UTC."
            )
