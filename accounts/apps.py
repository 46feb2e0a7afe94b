"""App config for sign-in protection: the lockout log line and the single sign-on check are
connected here."""

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Sign-in protection"

    def ready(self) -> None:
        from axes.signals import user_locked_out
        from django.core import checks

        from accounts import lockout
        from accounts.checks import check_role_map

        checks.register(check_role_map)

        user_locked_out.connect(lockout.log_lockout, dispatch_uid="accounts.log_lockout")
