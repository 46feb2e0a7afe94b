"""Export one record per reflection (state, multiplier, retrieval counts) as JSONL or CSV."""

import csv
import json

from django.core.management.base import BaseCommand, CommandError

from reflections.models import Department
from reflections.services.export import EXPORT_FIELDS, iter_reflection_export


class Command(BaseCommand):
    help = "Write one record per reflection to standard output."

    def add_arguments(self, parser):
        parser.add_argument("--department", help="only this department (slug)")
        parser.add_argument("--format", choices=["jsonl", "csv"], default="jsonl")

    def handle(self, *args, department, format, **options):
        if department and not Department.objects.filter(slug=department).exists():
            raise CommandError(f"unknown department {department!r}")
        records = iter_reflection_export(department=department)
        if format == "csv":
            writer = csv.DictWriter(self.stdout, fieldnames=EXPORT_FIELDS, lineterminator="\n")
            writer.writeheader()
            writer.writerows(records)
        else:
            for record in records:
                self.stdout.write(json.dumps(record))
