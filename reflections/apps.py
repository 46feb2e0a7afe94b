"""App config for the memory."""

from django.apps import AppConfig
from django.db.models.signals import post_migrate


class ReflectionsConfig(AppConfig):
    name = "reflections"
    verbose_name = "Reflection memory"

    def ready(self) -> None:
        from reflections import receivers

        receivers.connect()
        post_migrate.connect(_new_release, sender=self, dispatch_uid="figures_of_a_new_release")


def _new_release(sender, using, **kwargs) -> None:
    """Every release runs `migrate` (docs/operations.md): the figures cached under the data's
    version were computed by the code before it, so they go (a changed computation would
    otherwise be served until the next import; seen with the projection's scope)."""
    from reflections.caching import bump_for_release

    bump_for_release()
