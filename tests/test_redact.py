"""What may leave the process (probe_ui.security.redact): keys masked in every encoding and in pieces, on the full text
before any cut; URLs without user info, query and fragment; only a model's public fields in runs, exports and
reports. The end-to-end leak tests (keys planted, every artifact searched) are in tests/test_security.py.
"""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from helpers import key_pieces

from probe_ui.providers import create
from probe_ui.providers.base import ModelConfig
from probe_ui.security import redact

KEY = "sk-planted-redact-9f8e7d6c5b4a3210"


# ---- the module ----------------------------------------------------------------------------------------------------

def test_a_key_is_masked_in_every_encoding_and_in_pieces() -> None:
    key = 'sk-k"ey\\with-quotes-0123456789'
    m = redact.Masker([key])
    encoded = [key, repr(key), repr(key.encode()), json.dumps(key), json.dumps({"k": key}), quote(key, safe=""),
               f"Illegal header value b'Bearer {key}\\r\\n'", key[:12] + "…", "…" + key[-9:],
               json.dumps(json.dumps(key))]
    for text in encoded:
        assert not [p for p in key_pieces(key) if p in m.mask(text)], text
    assert m.mask("The answer is (B).") == "The answer is (B)."
    assert redact.Masker(["abc"]).mask("abc") == "abc"  # too short to be a secret: never masked


def test_masking_runs_before_the_cut() -> None:
    key = "sk-cut-0123456789abcdefghij"
    text = "x" * 190 + key + " and more"
    assert not [p for p in key_pieces(key) if p in redact.clip(text, 200, {key})]
    assert redact.clip(text, 200, {key}).startswith("x" * 190 + "***")


def test_keys_are_stripped_where_they_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    for ending in ("\r", "\n", "\r\n", "\t", " \r\n"):
        monkeypatch.setenv("STRIPPED_KEY", KEY + ending)
        assert redact.env_key("STRIPPED_KEY") == KEY
        assert ModelConfig(name="m", provider="openai", model="x", api_key_env="STRIPPED_KEY").api_key("X") == KEY
        assert ModelConfig(name="m", provider="openai", model="x", secret=KEY + ending).api_key("X") == KEY
    monkeypatch.setenv("STRIPPED_KEY", "sk-inner\nline-break")
    key, why = create(ModelConfig(name="m", provider="openai", model="x", api_key_env="STRIPPED_KEY")) \
        .resolve_key(ModelConfig(name="m", provider="openai", model="x", api_key_env="STRIPPED_KEY"))
    assert key is None and "control character" in why and "inner" not in why


def test_urls_lose_user_info_query_and_fragment() -> None:
    assert redact.public_url("https://user:pw@example.com:8443/v1/?api_key=SECRET&x=1#frag") == \
        "https://example.com:8443/v1"
    assert redact.public_url(["http://[::1]:9/v1?key=S", None]) == ["http://[::1]:9/v1", None]
    assert redact.public_url("sqlite:////home/me/probe-ui.db", local_names=True) == "probe-ui.db"
    assert redact.mask_urls("cannot reach postgresql://bob:pw@db:5432/x?sslpassword=p now") == \
        "cannot reach postgresql://db:5432/x now"
    assert redact.public_location("postgresql://bob:pw@db/x") == "postgresql://db/x"
    assert redact.public_location("data/probe-ui.db") == "data/probe-ui.db"
    # a URL with no host keeps its slashes: the store the user typed, not "sqlite:/typo.db" (issue 22)
    assert redact.public_location("sqlite:///typo.db") == "sqlite:///typo.db"
    assert redact.public_location("sqlite:////abs/x.db?mode=ro") == "sqlite:////abs/x.db"
    assert redact.public_text("no runs in sqlite:///typo.db yet") == "no runs in sqlite:///typo.db yet"


def test_what_a_run_and_an_export_may_carry_about_a_model() -> None:
    cfg = ModelConfig(name="m", provider="openai", model="x", base_url=("https://u:p@h/v1?key=K", "http://g/v1"),
                      api_key_env="MY_KEY", generation={"temperature": 0, "api_key": "K", "headers": {"a": "b"}},
                      secret="sk-typed-in-memory-only")
    run = redact.model_record(cfg)
    assert run == {"name": "m", "provider": "openai", "model": "x", "base_url": ["https://h/v1", "http://g/v1"],
                   "api_key_env": "MY_KEY", "generation": {"temperature": 0}}
    assert redact.public_model(run) == {k: v for k, v in run.items() if k != "api_key_env"}
