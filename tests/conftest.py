"""Shared pytest fixtures. Fixture code lives in its own module; this file only wires it in."""

from fake_openai import fake_openai  # noqa: F401  (tests/ is on sys.path: rootdir conftest, no __init__.py)
