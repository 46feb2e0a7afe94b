"""Cases for what people type rather than paste: passwords told in a sentence, values wrapped
onto the next line, national phone formats, addresses written out in words, names beside
contact details, cluster-local and internal-TLD hosts (same shape as scanner_cases)."""

from __future__ import annotations

TOLD_CASES: list[tuple[str, str, str, str]] = [
    (
        "secret.command_password",
        "Flushed the queue with redis-cli -n 2 -a Wq7zPm3kRt9v flushdb before the rerun.",
        "Wq7zPm3kRt9v",
        "Flushed the queue with redis-cli -n 2 flushdb before the rerun.",
    ),
    (
        "secret.assignment",
        "The storage string held AccountKey=Jp4Xq8Lm2Vt6Rz0Kc3Nw7Bd1Hs5Fy9Gu2Ae4Ti8Ok6Ql0== in it.",
        "Jp4Xq8Lm2Vt6Rz0Kc3Nw7Bd1Hs5Fy9Gu2Ae4Ti8Ok6Ql0==",
        "The storage string needs AccountKey=<from the portal> in local settings only.",
    ),
    (
        "secret.password_in_prose",
        "The password we set for the billing replica is Qe4$nVw8tL, change it after the demo.",
        "Qe4$nVw8tL",
        "The password we set for the billing replica is rotated weekly by the vault.",
    ),
    (
        "personal.email_spelled",
        "Forward the logs to r.okafor at northwind-labs dot de when the run ends.",
        "r.okafor at northwind-labs dot de",
        "We looked at the dot com era in the retrospective and moved on.",
    ),
]

# A password told in a sentence, per language of the cue list: (text, value, prose after the
# same cue that is no password).
TOLD_PASSWORDS: list[tuple[str, str, str]] = [
    (
        "Our password for the nightly export box is Lm3#qTz9wR since Monday.",
        "Lm3#qTz9wR",
        "Our password for the nightly export box is longer than the policy asks.",
    ),
    (
        "Das Passwort für die Testdatenbank im Keller lautet Gh7!pRx2vN, bitte nicht weitersagen.",
        "Gh7!pRx2vN",
        "Das Passwort für die Testdatenbank im Keller lautet anders als im Wiki.",
    ),
    (
        "Le mot de passe du serveur de recette est Wb5%kYe3uJ depuis la migration.",
        "Wb5%kYe3uJ",
        "Le mot de passe du serveur de recette est stocké dans le coffre.",
    ),
    (
        "La contraseña de la cuenta de despliegue es Ns6&hCq1zP hasta el viernes.",
        "Ns6&hCq1zP",
        "La contraseña de la cuenta de despliegue es demasiado corta para la política.",
    ),
    (
        "A senha do painel de métricas é Tv2*mLo8eX agora.",
        "Tv2*mLo8eX",
        "A senha do painel de métricas é trocada todo mês.",
    ),
    (
        "Het wachtwoord voor de build-server is Kc9^dFs4gH tot vrijdag.",
        "Kc9^dFs4gH",
        "Het wachtwoord voor de build-server is verlopen.",
    ),
    (
        "Hasło do konta serwisowego to Pz1!aWr6nM od wczoraj.",
        "Pz1!aWr6nM",
        "Hasło do konta serwisowego to problem, wygasa co tydzień.",
    ),
    (
        "Lösenordet för byggservern är Jr8#bNt5kQ tills vidare.",
        "Jr8#bNt5kQ",
        "Lösenordet för byggservern är för kort.",
    ),
]

# National phone formats of the countries whose ids the scanner knows, each where the text
# says it is a phone number; the near miss is the same digits as an order or a version.
NATIONAL_PHONES: list[tuple[str, str]] = [
    ("Text the courier on 07700 900461 when the parcel leaves.", "07700 900461"),  # UK mobile
    ("The landlord's number is 01632 960187, evenings only.", "01632 960187"),  # UK landline
    ("Call the store manager at 212.555.0173 before noon.", "212.555.0173"),  # US, dots
    ("Her mobile is 0412 345 678 for the handover.", "0412 345 678"),  # Australia
    ("Ring the warehouse on 0171 2345678 about the pallets.", "0171 2345678"),  # Germany
    ("Ring him on 070-123 45 67 if the job fails.", "070-123 45 67"),  # Sweden
    ("The supplier's phone: 0532 123 45 67.", "0532 123 45 67"),  # Turkey
    ("Her mobiel nummer is 06-12345678 volgens het ticket.", "06-12345678"),  # Netherlands
    ("Call the driver on 98765 43210 for the pickup.", "98765 43210"),  # India
    ("The client's mobile 138 0013 8000 was in the log.", "138 0013 8000"),  # China
    ("Llama al móvil 612 345 678 antes de salir.", "612 345 678"),  # Spain
    ("Contact the tenant on 9123 4567 after six.", "9123 4567"),  # Singapore
    ("Teléfono del cliente: 55 1234 5678.", "55 1234 5678"),  # Mexico
]
PHONE_LOOKALIKES: list[str] = [
    "Order 07700 900461 shipped in two boxes.",
    "The build 212.555.0173 passed on the second try.",
    "Invoice 0412 345 678 was paid late.",
    "Batch 9123 4567 rolled back cleanly.",
]
