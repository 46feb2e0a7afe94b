"""Re-scan stored reflections for secrets, personal data, internal hosts and injected text."""

import json

from django.core.management.base import BaseCommand, CommandError

from reflections.models import Department
from reflections.services.batches import quote_value
from reflections.services.scanning import scan_reflections


class Command(BaseCommand):
    help = "Scan stored reflections; quarantine those with new findings."

    def add_arguments(self, parser):
        parser.add_argument("--department", help="only this department (slug)")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, department, **options):
        if department and not Department.objects.filter(slug=department).exists():
            raise CommandError(f"unknown department {quote_value(department)}")
        result = scan_reflections(department=department)
        if options["json"]:
            self.stdout.write(json.dumps(result))
            return
        self.stdout.write(
            f"Scanned {result['scanned']:,} reflections: {result['new_findings']} new findings, "
            f"{result['quarantined']} newly quarantined; {result['masked_names']} agent names "
            "and task labels masked."
        )
