"""Gradio's front-end files served from memory (probe_ui/app/static_assets.py): the same bytes Gradio would send,
in the encoding the browser asks for, cached by browsers, and nothing outside the two front-end folders."""

from __future__ import annotations

import gzip
from pathlib import Path

import brotli
import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from probe_ui.app.static_assets import StaticAssets, gradio_frontend_folders

SCRIPT = ("export const answer = 42;\n" * 200).encode()


@pytest.fixture()
def folders(tmp_path: Path) -> dict[str, Path]:
    assets, static = tmp_path / "assets", tmp_path / "static"
    (static / "js").mkdir(parents=True)
    assets.mkdir()
    (assets / "Index-Akn07EZk2.js").write_bytes(SCRIPT)
    (assets / "font.woff2").write_bytes(b"\x00woff2" * 200)
    (static / "js" / "resizer.js").write_bytes(SCRIPT)
    (tmp_path / "secret.txt").write_text("not for the web")
    return {"/assets/": assets, "/static/": static}


def client(folders: dict[str, Path]) -> tuple[TestClient, StaticAssets]:
    def fallback(request: object) -> PlainTextResponse:
        return PlainTextResponse("gradio answered", status_code=404)

    app = Starlette(routes=[Route("/{path:path}", fallback, methods=["GET", "HEAD"])],
                    middleware=[Middleware(StaticAssets, folders=folders)])
    test = TestClient(app)
    test.__enter__()
    layer = app.middleware_stack
    while not isinstance(layer, StaticAssets):
        layer = layer.app  # type: ignore[attr-defined]
    return test, layer


def test_a_script_comes_in_the_encoding_asked_for_with_the_same_bytes(folders: dict[str, Path]) -> None:
    test, layer = client(folders)
    for asked, decode in (("br", brotli.decompress), ("gzip", gzip.decompress), ("identity", lambda b: b)):
        r = test.get("/assets/Index-Akn07EZk2.js", headers={"Accept-Encoding": asked})
        assert r.status_code == 200
        assert r.headers.get("content-encoding", "identity") == asked
        assert r.headers["content-type"].startswith("text/javascript")
        assert r.content == SCRIPT  # as the client decodes it
        with test.stream("GET", "/assets/Index-Akn07EZk2.js", headers={"Accept-Encoding": asked}) as raw:
            assert decode(b"".join(raw.iter_raw())) == SCRIPT  # as sent
    assert layer.served == 6


def test_a_hashed_build_file_is_cached_for_good_and_an_etag_answers_not_modified(folders: dict[str, Path]) -> None:
    test, _ = client(folders)
    r = test.get("/assets/Index-Akn07EZk2.js")
    assert "immutable" in r.headers["cache-control"]
    again = test.get("/assets/Index-Akn07EZk2.js", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    other = test.get("/static/js/resizer.js")  # not content-hashed: the browser asks again each time
    assert other.headers["cache-control"] == "no-cache"
    assert test.get("/static/js/resizer.js", headers={"If-None-Match": '"stale"'}).status_code == 200


def test_fonts_go_as_they_are_and_head_sends_no_body(folders: dict[str, Path]) -> None:
    test, _ = client(folders)
    r = test.get("/assets/font.woff2", headers={"Accept-Encoding": "br"})
    assert "content-encoding" not in r.headers and r.content == b"\x00woff2" * 200
    head = test.head("/assets/Index-Akn07EZk2.js")
    assert head.status_code == 200 and head.content == b"" and int(head.headers["content-length"]) > 0


@pytest.mark.parametrize("path", ["/assets/../secret.txt", "/assets/%2e%2e/secret.txt", "/assets/missing.js",
                                  "/static/js/../../secret.txt", "/assets/", "/assetsx/Index-Akn07EZk2.js"])
def test_nothing_outside_the_listed_files_is_served_from_here(folders: dict[str, Path], path: str) -> None:
    test, layer = client(folders)
    r = test.get(path)
    assert r.text == "gradio answered" and layer.served == 0


def test_a_file_added_after_start_is_left_to_gradio(folders: dict[str, Path]) -> None:
    test, layer = client(folders)
    (folders["/assets/"] / "late.js").write_bytes(SCRIPT)
    assert test.get("/assets/late.js").text == "gradio answered" and layer.served == 0


def test_gradio_s_own_folders_are_found() -> None:
    found = gradio_frontend_folders()
    assert any(found["/assets/"].glob("*.js")), found
    assert found["/static/"].is_dir()
