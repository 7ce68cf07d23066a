"""Shared pytest fixtures. Fixture code lives in its own module; this file only wires it in."""

from fake_anthropic import fake_anthropic  # noqa: F401
from fake_openai import fake_openai  # noqa: F401  (tests/ is on sys.path: rootdir conftest, no __init__.py)
from app_server import app_server  # noqa: F401
from pg_server import postgres_db, postgres_url  # noqa: F401
from tiny_vlm import tiny_gemma3, tiny_llava, tiny_llava_nosys  # noqa: F401

from markers import apply_markers


def pytest_collection_modifyitems(config, items):  # noqa: ANN001 - pytest's hook signature
    apply_markers(items)
