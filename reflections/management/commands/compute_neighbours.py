"""Recompute the stored nearest neighbours (duplicate candidates) of reflections."""

import json

from django.core.management.base import BaseCommand, CommandError

from reflections.services.maintenance import vacuum_rewritten
from reflections.services.neighbours import refresh_neighbours
from reflections.similarity.backends import BackendError


class Command(BaseCommand):
    help = (
        "Recompute reflections' vectors and each department's nearest neighbours with the "
        "configured similarity backend (SIMILARITY_BACKEND), replacing its rows."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--department", action="append", help="only this department (slug); repeatable"
        )
        parser.add_argument(
            "--refit",
            action="store_true",
            help="refit the latent backend on every reflection even when the new texts are few "
            "enough to fold into the stored fit",
        )
        parser.add_argument(
            "--json", action="store_true", dest="as_json", help="print JSON for machines"
        )

    def handle(self, *args, department, refit, as_json, **options):
        def report(result):
            if not as_json:
                own = (
                    f"; compared in a fit of its own texts (its lessons are "
                    f"{result.background:.2f} alike in the installation's)"
                    if result.own_fit
                    else ""
                )
                self.stdout.write(
                    f"  {result.department}: {result.reflections:,} reflections, "
                    f"{result.neighbours:,} neighbour rows ({result.seconds:.1f} s){own}"
                )

        try:
            summary = refresh_neighbours(departments=department, progress=report, refit=refit)
        except (ValueError, BackendError) as error:
            raise CommandError(str(error)) from None
        vacuum_rewritten()  # the neighbour rows replaced, the vectors written
        if as_json:
            self.stdout.write(json.dumps(summary))
            return
        departments = len(summary["departments"])
        self.stdout.write(
            self.style.SUCCESS(
                f"Neighbours: {summary['neighbours']:,} rows for {summary['reflections']:,} "
                f"reflections in {departments} department{'' if departments == 1 else 's'} "
                f"({summary['seconds']:.1f} s{', refitted' if summary['refit'] else ''})"
            )
        )
