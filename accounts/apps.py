"""App config for sign-in protection: the lockout log line is connected here."""

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Sign-in protection"

    def ready(self) -> None:
        from axes.signals import user_locked_out

        from accounts import lockout

        user_locked_out.connect(lockout.log_lockout, dispatch_uid="accounts.log_lockout")
