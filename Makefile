# Reflexion Review: `make demo` serves the dashboard with demo data, `make test` runs every check.

# Django 6.1 needs Python 3.12+: take the first interpreter on this machine that is new enough.
PYTHON ?= $(shell for p in python3.13 python3.12 python3 $$(ls -d /root/.pyenv/versions/3.1[2-9]*/bin/python3 2>/dev/null); do \
	$$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1 && { echo $$p; break; }; done)
VENV := .venv
BIN := $(VENV)/bin
DEMO_DIR ?= .demo/workspace
DEMO_SCALE ?= default
DEMO_AS_OF ?= 2026-11-21
DEMO_BACKFILL_FROM ?= 2025-12-01
HOST ?= 127.0.0.1
PORT ?= 8000
DEMO_WEBHOOKS_ALLOW_PRIVATE ?= 1

.PHONY: demo demo-data test lint install serve bench clean

$(BIN)/python:
	@test -n "$(PYTHON)" || { echo "Python 3.12 or newer is required (Django 6.1); set PYTHON=/path/to/python3.12"; exit 1; }
	$(PYTHON) -m venv $(VENV)

# The project's own modules compiled to bytecode ahead (only those changed since): where
# PYTHONDONTWRITEBYTECODE is set, as on this project's CI machines, every process (a command,
# a gunicorn worker, the task worker) would otherwise compile them all as it starts, 0.3 of the
# 1.1-1.4 CPU-s Django takes to start here. Python skips a stale .pyc by itself.
PACKAGES := accounts api demo insights reflections reflexion_site reviews rubric webhooks

install: $(VENV)/.installed
	@$(BIN)/python -m compileall -q -j 0 $(PACKAGES)

$(VENV)/.installed: pyproject.toml clients/python/pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	# The Python client (clients/python/) beside the project: its tests drive a live server.
	$(BIN)/python -m pip install --quiet -e '.[dev]' -e './clients/python[webhooks]'
	@touch $@

demo-data: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed_demo --out $(DEMO_DIR) --scale $(DEMO_SCALE)
	$(BIN)/python manage.py import_reflections $(DEMO_DIR) --create-departments
	$(BIN)/python manage.py import_events $(DEMO_DIR)/logs
	# Two real runs of the reference Reflexion implementation (Insights → Reflexion runs).
	$(BIN)/python manage.py import_reflexion_run samples/reflexion-runs/programming/leetcode-hard-py-40-uncontaminated._reflexion_5_gpt-4_pass_at_k_1_py.jsonl --no-neighbours
	$(BIN)/python manage.py import_reflexion_run samples/reflexion-runs/reflexion_run_logs --no-neighbours
	$(BIN)/python manage.py compute_neighbours
	# Past quarters' review cycles, decided at their own dates, before the decay history is
	# written: decay never touches a deprecated reflection afterwards.
	$(BIN)/python manage.py seed_demo_reviews --workspace $(DEMO_DIR) --past-only
	# What the daily job would have recorded over the demo's year, once a week (skipped once
	# that history exists, so re-running the demo changes nothing).
	$(BIN)/python manage.py apply_policies --backfill-from $(DEMO_BACKFILL_FROM) --as-of $(DEMO_AS_OF) --every 7 --unless-ran
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0

demo: demo-data
	$(BIN)/python manage.py create_demo_users
	$(BIN)/python manage.py seed_demo_reviews --workspace $(DEMO_DIR)
	$(BIN)/python manage.py ensure_rubric
	$(BIN)/python manage.py seed_demo_calibration
	$(BIN)/python manage.py seed_demo_ratings --workspace $(DEMO_DIR)
	@echo "Serving on http://$(HOST):$(PORT)/ with the task worker beside it (Ctrl-C stops both)"
	# The task worker runs the web imports, the prepared evidence of new cycles and the
	# webhooks; it stops with the server. The demo runs on this machine, so its webhooks may
	# go to receivers on loopback (clients/python/examples/orchestrator.py listens there).
	WEBHOOKS_ALLOW_PRIVATE=$(DEMO_WEBHOOKS_ALLOW_PRIVATE) \
	$(BIN)/python manage.py db_worker --queue-name '*' --interval 1 --no-startup-delay & \
	worker=$$!; trap 'kill $$worker 2>/dev/null; wait $$worker 2>/dev/null' EXIT INT TERM; \
	WEBHOOKS_ALLOW_PRIVATE=$(DEMO_WEBHOOKS_ALLOW_PRIVATE) \
	$(BIN)/gunicorn reflexion_site.wsgi --bind $(HOST):$(PORT) --access-logfile -

lint: install
	$(BIN)/ruff check .

test: install lint
	# Persistent connections would outlive live-server tests and block dropping the test database.
	DATABASE_CONN_MAX_AGE=0 $(BIN)/python -m pytest -n 2 --dist loadfile $(PYTEST_ARGS)

bench: install
	$(BIN)/python bench/import.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .demo staticfiles db.sqlite3 db.sqlite3-wal db.sqlite3-shm .pytest_cache
