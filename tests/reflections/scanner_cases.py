"""One positive and one near miss per scanner rule: (rule, text, the unsafe value, near miss).

Fake values are assembled from pieces so that no complete credential-shaped literal sits in
the repository for other scanners to trip over.
"""

from __future__ import annotations

AWS_ID = "AKIA" + "4PDT4KNPZT2BJIGQ"
AWS_SECRET = "C9iWXUQew/n0/Edoh9JZF5k" + "Ano9bXHJb3BZVfzVU"
GITHUB_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
STRIPE_KEY = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"
JWT = (
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
    + "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
)
HEX32 = "9f2c4e81a07b3d56" + "c1e8f0a2b4d69e37"
B62 = "Zq8vT2mXk4Rw9Lp3Ns7Bd6Hf1Yc5Gj0Ue"
AGE_KEY = "AGE-SECRET-KEY-1" + ("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L" * 2)[:58]

SECRET_CASES: list[tuple[str, str, str, str]] = [
    (
        "detect-secrets:AWSKeyDetector",
        f"The export worked with {AWS_ID} in the notes.",
        AWS_ID,
        "Keys that start with AKIA are AWS access key ids; ask for a role instead.",
    ),
    (
        "detect-secrets:JwtTokenDetector",
        f"The session cookie was {JWT} for the whole run.",
        JWT,
        "The eyJ prefix marks a base64 JSON header, so the cookie was a JWT.",
    ),
    (
        "detect-secrets:SlackDetector",
        "Posted with xoxb-123456789012-abcdefghijklmnop today.",
        "xoxb-123456789012-abcdefghijklmnop",
        "Slack bot tokens start with xoxb; keep them vaulted.",
    ),
    (
        "detect-secrets:PrivateKeyDetector",
        "The file began BEGIN OPENSSH PRIVATE KEY then base64.",
        "BEGIN OPENSSH PRIVATE KEY",
        "An OpenSSH private key never goes into the task notes.",
    ),
    (
        "secret.reflexion_api_token",
        "The runtime called the API with rrapi_Q7vK2mX9pL4tR8wZ1nB6cF3hJ5sD0gY2uE7iO4aTqW today.",
        "rrapi_Q7vK2mX9pL4tR8wZ1nB6cF3hJ5sD0gY2uE7iO4aTqW",
        "Tokens of this dashboard start with rrapi_ and live in the runtime's secret store.",
    ),
    (
        "secret.github_fine_grained_pat",
        "Pushed with github_pat_11ABCDE0Y0" + "a" * 40 + " today.",
        "github_pat_11ABCDE0Y0" + "a" * 40,
        "Fine-grained tokens start with github_pat_ prefixes.",
    ),
    (
        "secret.github_token",
        f"Cloned with {GITHUB_TOKEN} as the password.",
        GITHUB_TOKEN,
        "A ghp_ token is personal; use the deploy key of the repository instead.",
    ),
    (
        "secret.gitlab_token",
        "CI used glpat-" + "Xy7kP2qR9sT4uV6wZ1aB" + " for the mirror.",
        "glpat-Xy7kP2qR9sT4uV6wZ1aB",
        "GitLab personal tokens start with glpat- and expire.",
    ),
    (
        "secret.stripe_key",
        f"The refund ran with {STRIPE_KEY} from the dashboard.",
        STRIPE_KEY,
        "Keys starting sk_live_ must stay on the server.",
    ),
    (
        "secret.stripe_webhook_secret",
        "Verify with whsec_" + B62 + " before parsing.",
        "whsec_" + B62,
        "Webhook secrets begin with whsec_ and rotate yearly.",
    ),
    (
        "secret.google_api_key",
        "Maps calls used AIzaSyB4" + B62[:31] + " all day.",
        "AIzaSyB4" + B62[:31],
        "Google API keys start with AIza; restrict them by referrer.",
    ),
    (
        "secret.google_oauth_secret",
        "The client secret GOCSPX-" + B62[:28] + " leaked.",
        "GOCSPX-" + B62[:28],
        "OAuth client secrets now start with GOCSPX- on Google.",
    ),
    (
        "secret.huggingface_token",
        "Downloads used hf_" + B62[:34] + " from my account.",
        "hf_" + B62[:34],
        "Hugging Face tokens start with hf_ and should be read-only.",
    ),
    (
        "secret.npm_token",
        "Publishing with npm_" + B62[:33] + "abc worked.",
        "npm_" + B62[:33] + "abc",
        "npm automation tokens start with npm_ and live in the CI vault.",
    ),
    (
        "secret.slack_token",
        "The bot used xoxp-2231-5512-8841-" + HEX32 + " to post.",
        "xoxp-2231-5512-8841-" + HEX32,
        "Use the xoxp user token only for admin APIs.",
    ),
    (
        "secret.discord_webhook",
        "Alerts go to https://discord.com/api/webhooks/112233445566/" + B62 + "Qx_-9 now.",
        B62 + "Qx_-9",
        "Discord webhooks live under discord.com/api/webhooks in the bot config.",
    ),
    (
        "secret.sentry_dsn",
        f"Errors ship to https://{HEX32}@o4501.ingest.sentry.io/4504123 now.",
        HEX32,
        "Sentry DSNs point at ingest.sentry.io; keep them per environment.",
    ),
    (
        "secret.vault_token",
        "Exported VAULT_TOKEN as hvs." + B62 + " for the run.",
        "hvs." + B62,
        "Vault service tokens start with hvs. and expire after an hour.",
    ),
    (
        "secret.shopify_token",
        f"The admin API answered to shpat_{HEX32} at once.",
        f"shpat_{HEX32}",
        "Shopify admin tokens start with shpat_ and need scopes.",
    ),
    (
        "secret.databricks_token",
        f"The notebook job used dapi{HEX32} all week.",
        f"dapi{HEX32}",
        "Databricks tokens start with dapi and belong to a service principal.",
    ),
    (
        "secret.digitalocean_token",
        f"Droplets were created with dop_v1_{HEX32 * 2} yesterday.",
        f"dop_v1_{HEX32 * 2}",
        "DigitalOcean tokens begin dop_v1_ and can be read-only.",
    ),
    (
        "secret.age_secret_key",
        f"The backup key {AGE_KEY} was in the repo.",
        AGE_KEY,
        "age secret keys start with AGE-SECRET-KEY-1 and stay offline.",
    ),
    (
        "secret.postman_key",
        f"Collections synced with PMAK-{HEX32[:24]}-{HEX32}ab nightly.",
        f"PMAK-{HEX32[:24]}-{HEX32}ab",
        "Postman keys begin with PMAK- and belong to a user.",
    ),
    (
        "secret.linear_key",
        "Issues were filed with lin_api_" + B62 + "1234567 by the bot.",
        "lin_api_" + B62 + "1234567",
        "Linear API keys start with lin_api_ in settings.",
    ),
    (
        "secret.mailgun_key",
        f"Mail went out with key-{HEX32} from the worker.",
        f"key-{HEX32}",
        "Mailgun keys are written key- followed by hex digits.",
    ),
    (
        "secret.atlassian_token",
        "Jira calls used ATATT3x" + B62 + "Fz9Q=ABCD12 yesterday.",
        "ATATT3x" + B62 + "Fz9Q=ABCD12",
        "Atlassian API tokens start with ATATT3 these days.",
    ),
    (
        "secret.square_token",
        "Payments used sq0atp-" + B62[:22] + " in production.",
        "sq0atp-" + B62[:22],
        "Square access tokens start with sq0atp- on old accounts.",
    ),
    (
        "secret.square_access_token",
        "The POS called EAAA" + B62 + B62[:27] + " all day.",
        "EAAA" + B62 + B62[:27],
        "New Square tokens begin with EAAA and a long suffix.",
    ),
    (
        "secret.nuget_key",
        "Packages pushed with oy2" + "abcdefghij" * 4 + "klm today.",
        "oy2" + "abcdefghij" * 4 + "klm",
        "NuGet keys are created per package owner.",
    ),
    (
        "secret.braintree_token",
        f"PayPal used access_token$production$abcd1234efgh5678${HEX32}.",
        f"access_token$production$abcd1234efgh5678${HEX32}",
        "Braintree tokens name production.",
    ),
    (
        "secret.azure_sas_signature",
        "Blob at https://acct.blob.core.windows.net/c/f?sv=2022&sig=Zx9%2BqW" + B62 + " expired.",
        "Zx9%2BqW" + B62,
        "SAS URLs carry sv= and se= parameters and a signature.",
    ),
    (
        "secret.azure_shared_access_key",
        "Service bus: SharedAccessKey=" + B62 + "Ab9+/= broke.",
        B62 + "Ab9+/=",
        "Service bus connection strings carry a shared access key name.",
    ),
    (
        "secret.aws_session_token",
        "Temporary creds IQoJb3JpZ2luX2VjE" + B62 * 2 + " expired.",
        "IQoJb3JpZ2luX2VjE" + B62 * 2,
        "Session tokens from STS are long and expire in hours.",
    ),
    (
        "secret.aws_secret_access_key",
        f"aws_secret_access_key = {AWS_SECRET}",
        AWS_SECRET,
        "The aws_secret_access_key was rotated after the incident.",
    ),
    (
        "secret.aws_key_pair",
        f"The pair {AWS_ID}\n{AWS_SECRET} worked again.",
        AWS_SECRET,
        "An access key id comes with a secret access key; store both in the vault.",
    ),
    (
        "secret.bearer_token",
        "Sent Authorization: Bearer abcDEF1234567890ghiJKLmno to the API.",
        "abcDEF1234567890ghiJKLmno",
        "Bearer tokens expire after an hour, so refresh them early.",
    ),
    (
        "secret.authorization_header",
        "The proxy sent Authorization: Basic YWRtaW46czNjcjN0UGFzcw==.",
        "YWRtaW46czNjcjN0UGFzcw==",
        "The Authorization header must never be logged by the proxy.",
    ),
    (
        "secret.private_key_block",
        "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIB\n"
        "-----END PRIVATE KEY-----",
        "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIB",
        "Never paste a PEM block (-----BEGIN PRIVATE KEY-----) into a reflection.",
    ),
    (
        "secret.url_password",
        "Connected to postgres://app:s3cr3tPass@db.example.com:5432/app.",
        "s3cr3tPass",
        "Connected to postgres://app@db.example.com:5432/app for the fix.",
    ),
    (
        "secret.command_password",
        "Ran curl -u admin:'Pel1can$Drift' https://api.example.com/v2.",
        "Pel1can$Drift",
        "Use curl -u admin with a prompt so passwords stay out of history.",
    ),
    (
        "secret.assignment",
        "The config had password=Hunter2024! in plain text.",
        "Hunter2024!",
        "The config had token: expired and password: <redacted> in it.",
    ),
    (
        "secret.password_in_prose",
        "The new password is Tr0ub4dor&3x for the admin console.",
        "Tr0ub4dor&3x",
        "The password was reset and is stored in the vault now.",
    ),
    (
        "secret.password_in_prose",
        "The password the billing cron logs in with on the old reporting host is still "
        "Qx7!mera#22.",
        "Qx7!mera#22",
        "The password the billing cron logs in with on the old reporting host was removed.",
    ),
    (
        "secret.password_in_prose",
        "Das Kennwort für den Export-Nutzer lautet seit Montag Rk8$vuLe-03 und steht im Wiki.",
        "Rk8$vuLe-03",
        "Das Kennwort für den Export-Nutzer lautet seit Montag anders und steht im Tresor.",
    ),
    (
        "secret.password_in_prose",
        "Weil das Passwort des Backup-Kontos inzwischen Jm4?Tanne81 ist, schlug der Lauf fehl.",
        "Jm4?Tanne81",
        "Weil das Passwort des Backup-Kontos inzwischen abgelaufen ist, schlug der Lauf fehl.",
    ),
    (
        "secret.password_in_prose",
        "The login for the print server is ops-admin / Harbor-Lantern-Gravel-19 for now.",
        "Harbor-Lantern-Gravel-19",
        "The login for the print server is through SSO / the badge reader for now.",
    ),
    (
        "secret.split_across_lines",
        "The chat cut the key, so it went over in two pieces.\nFirst part: Qm3xT9vLr2Kp8ZwY4nHc\n"
        "Second part: 7bJd5sFq1GtE6uRa0yXi",
        "7bJd5sFq1GtE6uRa0yXi",
        "The runbook has two parts.\nFirst part: introduction\nSecond part: troubleshooting",
    ),
    (
        "secret.credential_pair",
        "- router creds after the reset: admin / r0uterAdm1n!7",
        "r0uterAdm1n!7",
        "- router creds after the reset: ask the network team",
    ),
    (
        "secret.high_entropy",
        "The signing key was Qm9vT2ZrZWxseXN0YWNrX3Ywx9 in the notes.",
        "Qm9vT2ZrZWxseXN0YWNrX3Ywx9",
        "The sha256 key digest 9f86d081884c7d659a2feaa0 matched.",
    ),
    (
        "secret.sk_api_key",
        "Called the model with sk-ant-api03-AbCdEf0123456789GhIjKlMnOp.",
        "AbCdEf0123456789GhIjKlMnOp",
        "The sk-learn compatible wrapper was pinned at 1.4.",
    ),
    (
        "secret.datadog_key",
        f"Metrics shipped with DD_API_KEY {HEX32} from the host.",
        HEX32,
        "Datadog agents read the API key from the environment, never from code.",
    ),
    (
        "secret.twilio_auth_token",
        f"Twilio auth token {HEX32} was in the ticket.",
        HEX32,
        "Twilio auth tokens rotate from the console; keep them in the vault.",
    ),
]


from tests.reflections.scanner_cases_more import OTHER_CASES  # noqa: E402
from tests.reflections.scanner_cases_told import TOLD_CASES  # noqa: E402
from tests.reflections.scanner_cases_wider import WIDER_CASES  # noqa: E402

CASES = SECRET_CASES + OTHER_CASES + WIDER_CASES + TOLD_CASES
