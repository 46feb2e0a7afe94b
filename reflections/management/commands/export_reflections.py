"""Export one record per reflection (state, multiplier, retrieval counts) as JSONL or CSV."""

import json

from django.core.management.base import BaseCommand, CommandError

from reflections.models import Department
from reflections.services.batches import quote_value
from reflections.services.export import EXPORT_FIELDS, iter_reflection_export
from reflexion_site.downloads import SafeCsvWriter


class Command(BaseCommand):
    help = "Write one record per reflection to standard output."

    def add_arguments(self, parser):
        parser.add_argument("--department", help="only this department (slug)")
        parser.add_argument("--format", choices=["jsonl", "csv"], default="jsonl")

    def handle(self, *args, department, format, **options):
        if department and not Department.objects.filter(slug=department).exists():
            raise CommandError(f"unknown department {quote_value(department)}")
        records = iter_reflection_export(department=department)
        if format == "csv":
            # Fields come from imported files: a cell that would run as a formula is disarmed.
            writer = SafeCsvWriter(self.stdout, lineterminator="\n")
            writer.writerow(EXPORT_FIELDS)
            writer.writerows([record[field] for field in EXPORT_FIELDS] for record in records)
        else:
            for record in records:
                self.stdout.write(json.dumps(record))
