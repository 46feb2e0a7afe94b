"""Settings for Reflexion Review: one module, every knob an environment variable."""

import importlib.util
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url

# No BLAS thread pool (numpy starts one per core when it loads, before any app code runs): the
# matrices here are sparse or small, a web worker already serves requests on its own threads,
# and a process that runs no other thread can fork its import's parser workers at no cost
# (reflections/importers/pool.py). Set before anything imports numpy.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

BASE_DIR = Path(__file__).resolve().parent.parent
# django-ninja serves the agents' API (api/main.py) but is not an installed app: Django imports
# an installed app's package at every process's start, and ninja's imports all of ninja and
# pydantic (~0.15 s of each command, test process and worker). The API docs page's template
# and the Swagger UI files come from its package directory instead (api/docs.py); the spec
# is found without importing the package.
NINJA_DIR = Path(importlib.util.find_spec("ninja").origin).parent


def env_bool(name: str, default: bool) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DJANGO_DEBUG", False)
# The fallback key only suits local demo and test runs; deployments set DJANGO_SECRET_KEY and
# DJANGO_REQUIRE_SECRET_KEY=1 so that forgetting it fails loudly instead of running insecurely.
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "") or "insecure-local-only-key-do-not-deploy"
if env_bool("DJANGO_REQUIRE_SECRET_KEY", False) and SECRET_KEY.startswith("insecure-"):
    raise RuntimeError("DJANGO_SECRET_KEY must be set")

ALLOWED_HOSTS = [
    h for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost").split(",") if h
]
CSRF_TRUSTED_ORIGINS = [
    o for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "django_tasks_db",
    "axes",
    "reflections",
    "reviews",
    "rubric",
    "insights",
    "api",
    "accounts",
    "webhooks",
    "demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Before CSRF, which reads (and spools) a POST's body to find its token.
    "reflections.middleware.UploadSizeLimitMiddleware",
    "reflections.middleware.NulParameterMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a sign-in its backend refused into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "reflexion_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates", NINJA_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
                "reflections.context_processors.roles",
                "accounts.context_processors.single_sign_on",
            ],
            # One format per kind of number and date, in every template (percent, lift_points,
            # kappa, confidence, isodate).
            "builtins": ["reflexion_site.templatetags.formats"],
        },
    },
]

WSGI_APPLICATION = "reflexion_site.wsgi.application"
ASGI_APPLICATION = "reflexion_site.asgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # WAL lets the dev server read while an import writes; a generous timeout rides out the lock.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 30,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
        }
    )
    # Tests on a file too, not in memory: an in-memory database shares one cache between
    # connections, where a page read while a verdict writes fails at once ("database table is
    # locked") instead of waiting as the product's own SQLite file does (the live server
    # answers the queue's fetch ahead and the verdict at the same time).
    DATABASES["default"].setdefault("TEST", {}).setdefault(
        "NAME", str(BASE_DIR / ".test-db.sqlite3")
    )

# Read replica for the dashboards (docs/operations.md, "Scaling out"): when set, the selectors
# that draw dashboards read from it (reflexion_site.routers); every write goes to default.
if os.environ.get("DATABASE_REPLICA_URL"):
    DATABASES["replica"] = dj_database_url.parse(
        os.environ["DATABASE_REPLICA_URL"],
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
    )
    DATABASES["replica"].setdefault("TEST", {})["MIRROR"] = "default"
DATABASE_ROUTERS = ["reflexion_site.routers.ReplicaRouter"]

# Figures that stay expensive are cached under the data's version (reflections.caching): in
# the database by default (its table made by migration reflections 0029), in Redis
# when REDIS_URL is set, so every web worker shares one cache.
CACHE_TABLE = "reflexion_cache"
if os.environ.get("REDIS_URL"):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "reflexion"),
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": CACHE_TABLE,
            "OPTIONS": {"MAX_ENTRIES": 5000},
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# The dashboards' covering index (refl_dashboard_counts) carries INCLUDE columns for PostgreSQL's
# index-only scans; SQLite builds the same index without them, which is all W040 says.
SILENCED_SYSTEM_CHECKS = ["models.W040"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static", NINJA_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if env_bool("DJANGO_MANIFEST_STATIC", False)
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Sign-in protection (docs/operations.md, "Sign-in protection"): django-axes counts failed
# sign-ins per username *from one address*, so an attacker cannot lock a person out from
# everywhere, nor one address lock out everyone; its backend goes first and refuses a locked
# pair before the password is even checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
AXES_RESET_ON_SUCCESS = True
# A try while locked is refused and not counted: the lock ends when the cool-off after the
# failure that set it ends (what the page promises), however often the pair retries meanwhile.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# The locked-out person sees the sign-in page with the reason (429), not axes' plain text.
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
# Behind proxies the address is the one the proxies saw (LOGIN_PROXY_COUNT, accounts.lockout).
AXES_CLIENT_IP_CALLABLE = "accounts.lockout.client_address"
# The identity provider's callback is no password sign-in: axes neither counts nor blocks it
# (the provider guards its own sign-in; a refusal there is not a guessed password).
AXES_WHITELIST_CALLABLE = "accounts.lockout.exempt_single_sign_on"
LOGIN_PROXY_COUNT = int(os.environ.get("LOGIN_PROXY_COUNT", "0"))
# What axes stores of a failed sign-in's form besides the username column: names only for
# these (the password is always masked by axes too).
AXES_SENSITIVE_PARAMETERS = ["username", "ip_address", "password", "csrfmiddlewaretoken"]
# No table of every successful sign-in (addresses and browsers kept with no retention rule),
# and one place to unlock (Manage → Sign-in lockouts, which logs who unlocked whom), not two.
AXES_DISABLE_ACCESS_LOG = True
AXES_ENABLE_ADMIN = False
AXES_VERBOSE = False

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "reflections:list"
LOGOUT_REDIRECT_URL = "login"

# Single sign-on (docs/operations.md, "Single sign-on (OpenID Connect)"): with OIDC_ISSUER set,
# the sign-in page offers "Sign in with OIDC_PROVIDER_NAME" (mozilla-django-oidc, accounts/oidc.py)
# beside the password form; unset, nothing of it is active. The endpoints come from the
# issuer's discovery document unless set one by one.
OIDC_ISSUER = os.environ.get("OIDC_ISSUER", "").strip().rstrip("/")
OIDC_RP_CLIENT_ID = os.environ.get("OIDC_RP_CLIENT_ID", "")
OIDC_RP_CLIENT_SECRET = os.environ.get("OIDC_RP_CLIENT_SECRET", "")
if OIDC_ISSUER and not OIDC_RP_CLIENT_ID:
    raise RuntimeError("OIDC_RP_CLIENT_ID must be set when OIDC_ISSUER is")
OIDC_RP_SIGN_ALGO = os.environ.get("OIDC_RP_SIGN_ALGO", "RS256")
OIDC_RP_SCOPES = os.environ.get("OIDC_RP_SCOPES", "openid email profile")
OIDC_PROVIDER_NAME = os.environ.get("OIDC_PROVIDER_NAME", "single sign-on")
OIDC_OP_AUTHORIZATION_ENDPOINT = os.environ.get("OIDC_OP_AUTHORIZATION_ENDPOINT", "")
OIDC_OP_TOKEN_ENDPOINT = os.environ.get("OIDC_OP_TOKEN_ENDPOINT", "")
OIDC_OP_USER_ENDPOINT = os.environ.get("OIDC_OP_USER_ENDPOINT", "")
OIDC_OP_JWKS_ENDPOINT = os.environ.get("OIDC_OP_JWKS_ENDPOINT", "")
OIDC_OP_END_SESSION_ENDPOINT = os.environ.get("OIDC_OP_END_SESSION_ENDPOINT", "")
# Which claim carries the roles, which of its values grant which role ("rr-admins=admin,…";
# empty: the role names themselves), and which claim lists department slugs.
OIDC_ROLES_CLAIM = os.environ.get("OIDC_ROLES_CLAIM", "groups")
OIDC_ROLE_MAP = os.environ.get("OIDC_ROLE_MAP", "")
OIDC_DEPARTMENTS_CLAIM = os.environ.get("OIDC_DEPARTMENTS_CLAIM", "departments")
OIDC_TIMEOUT = int(os.environ.get("OIDC_TIMEOUT", "10"))
OIDC_VERIFY_SSL = env_bool("OIDC_VERIFY_SSL", True)
OIDC_USE_PKCE = env_bool("OIDC_USE_PKCE", True)
OIDC_USE_NONCE = True
# The provider's tokens are used once, at sign-in, and never kept in the session.
OIDC_STORE_ACCESS_TOKEN = False
OIDC_STORE_ID_TOKEN = False
OIDC_CREATE_USER = True
LOGIN_REDIRECT_URL_FAILURE = "login"
# Signing out also ends the session at the provider (its end_session_endpoint), when on.
OIDC_LOGOUT_AT_PROVIDER = env_bool("OIDC_LOGOUT_AT_PROVIDER", False)
OIDC_OP_LOGOUT_URL_METHOD = "accounts.oidc.provider_logout_url"
if OIDC_ISSUER:
    # After the password backends: axes still guards the password form.
    AUTHENTICATION_BACKENDS.append("accounts.oidc.SingleSignOnBackend")

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"

from django.utils.csp import CSP  # noqa: E402

SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}
if OIDC_ISSUER and OIDC_LOGOUT_AT_PROVIDER:
    # Signing out is a form whose answer redirects to the provider's end-session endpoint.
    from urllib.parse import urlsplit

    _issuer = urlsplit(OIDC_ISSUER)
    SECURE_CSP["form-action"].append(f"{_issuer.scheme}://{_issuer.netloc}")

TASKS = {
    "default": {
        "BACKEND": os.environ.get("DJANGO_TASKS_BACKEND", "django_tasks_db.DatabaseBackend"),
    }
}

# Importer knobs.
# Where web-import uploads wait for their background job (deleted when the job ends). The
# web server and the db_worker must both see it.
IMPORT_UPLOAD_ROOT = Path(os.environ.get("IMPORT_UPLOAD_ROOT", BASE_DIR / ".imports"))
# Where a web import unpacks its zips when they fit with half of it to spare: a file system in
# memory (one file a member; on a disk each costs ~0.5 ms). Empty: beside the uploads.
# mkdtemp makes each job a private folder (0700, a name nobody can guess) under it.
IMPORT_SCRATCH_ROOT = os.environ.get("IMPORT_SCRATCH_ROOT", "/dev/shm")  # noqa: S108
REFLECTIONS_FUTURE_TOLERANCE_HOURS = int(os.environ.get("REFLECTIONS_FUTURE_TOLERANCE_HOURS", "24"))
REFLECTIONS_LIST_PAGE_SIZE = int(os.environ.get("REFLECTIONS_LIST_PAGE_SIZE", "50"))

# Check every chart spec against the Vega-Lite schema when it is built. The tests turn it on
# (tests/conftest.py); pages skip it, it costs more than building the spec.
CHARTS_VALIDATE = os.environ.get("CHARTS_VALIDATE", "") == "1"

# How alike two reflections are (duplicate candidates, restatements): reflections.similarity.
# `latent` needs no model files; `embedding` reads a static model2vec model from a local
# directory (never downloaded); `word` is the earlier word TF-IDF, kept as a baseline.
EMBEDDING_MODEL_DIR = os.environ.get("EMBEDDING_MODEL_DIR", "")
SIMILARITY_BACKEND = os.environ.get(
    "SIMILARITY_BACKEND", "embedding" if EMBEDDING_MODEL_DIR else "latent"
)

# The agents' API (docs/api.md): the largest body and list one request may send, and how many
# requests one token may make per window (counted in the default cache: configure a shared
# cache, such as django.core.cache.backends.db.DatabaseCache, when several processes serve).
API_MAX_REQUEST_BYTES = int(os.environ.get("API_MAX_REQUEST_BYTES", str(32 * 1024 * 1024)))
API_MAX_ITEMS = int(os.environ.get("API_MAX_ITEMS", "10000"))
API_RATE_LIMIT = int(os.environ.get("API_RATE_LIMIT", "600"))
API_RATE_WINDOW = int(os.environ.get("API_RATE_WINDOW", "60"))

# Webhooks (docs/api.md): deliveries to loopback, private, link-local or reserved addresses
# are refused unless this is 1, so a registered name cannot point the task worker at
# internal services. Development and tests on one machine set it.
WEBHOOKS_ALLOW_PRIVATE = os.environ.get("WEBHOOKS_ALLOW_PRIVATE", "") == "1"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "filters": {
        "client_errors": {"()": "reflexion_site.logging.ClientErrorsWithoutTraceback"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["client_errors"],
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # axes narrates every step (a failure, a record updated, a lock); the project writes
        # its own line per lockout and per unlock (accounts.lockout, accounts.services).
        "axes": {"level": "ERROR"},
        # httpx logs every request's full address at INFO, httpcore its host and port at
        # DEBUG; a webhook address may carry a receiver's token in its query. Deliveries log
        # their endpoint's id instead.
        "httpx": {"level": "WARNING"},
        "httpcore": {"level": "WARNING"},
    },
}
