"""A Probe form kept in the browser between visits, and restored only for the person who made it.

The page keeps the form (image reference, question, options, steps, ticks) in the browser's storage so that a
reload loses nothing. What comes back from a browser is not to be trusted: a stored image id names an image in
the shared store, and an upload is its uploader's alone. So the image reference is signed on the server, for the
user who loaded it, with a key that never leaves the server process; on restore the signature must match the user
asking, else the image is left out (and the page says so) while the typed fields, which the person could type
again anyway, come back. A key made per process means a draft's image does not survive a server restart; the
rest of the draft does.

A draft is written as the form changes, and a write can still be on its way to the browser when the person starts
over (the writes a reload's restore sets off, on a busy server): Start over therefore opens a new generation, kept in
the browser beside the draft, and a draft written for an earlier one is not brought back.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from probe_ui.live.form import ProbeForm
from probe_ui.perturb.registry import MAX_SEED

if TYPE_CHECKING:
    from probe_ui.store import Store

#: the draft format; a draft of another version is ignored
VERSION = 1
_KEY = secrets.token_bytes(32)
#: the longest text field a draft may bring back (a browser's storage is the user's to edit)
MAX_TEXT = 20_000
MAX_ROWS = 200


@dataclass(frozen=True)
class Restored:
    """A draft read back: the form, the models ticked and typed, and a note for the page ("" when all came back);
    the run the page's table showed ("" none, or not this person's to bring back) and presenter mode (None: the
    draft did not say)."""

    form: ProbeForm
    models: list[str]
    adhoc: str
    note: str
    run: str = ""
    presenter: bool | None = None


def _signature(owner: str, image_ids: tuple[str, ...], key: bytes) -> str:
    msg = "\n".join([owner, *image_ids]).encode()
    return hmac.new(key, msg, hashlib.sha256).hexdigest()


def pack(form: ProbeForm, models: list[str] | None, adhoc: str | None, owner: str, *, run: str = "",
         presenter: bool | None = None, generation: str = "", key: bytes = _KEY) -> dict[str, Any]:
    """The draft as the browser keeps it: the form's values, the ticks, the image reference signed for ``owner``
    (the user's name), the run the table shows, signed the same way, presenter mode (a reload mid-demo brings
    back the room's table and large type, issue 51), and the Start-over generation the form was written in."""
    draft = {"v": VERSION, "form": form.values(), "models": list(models or []), "adhoc": adhoc or "",
             "sig": _signature(owner, form.image_ids, key)}
    if run:
        draft.update(run=run, run_sig=_signature(owner, (_RUN, run), key))
    if presenter is not None:
        draft["presenter"] = bool(presenter)
    if generation:
        draft["gen"] = generation
    return draft


def new_generation() -> str:
    """A Start-over generation: a fresh token, so that no draft written before it matches."""
    return secrets.token_hex(8)


#: what a run's signature signs besides its name (so that an image signature is never a run's)
_RUN = "run:"


def _text(value: Any) -> str:
    return str(value or "")[:MAX_TEXT]


def unpack(data: Any, owner: str, store: Store, *, generation: str = "", key: bytes = _KEY) -> Restored | None:
    """The draft ``data`` (as :func:`pack` made it) for ``owner``, or None when there is none (not of this
    version, or written before the last Start over: not of ``generation``). Its images come back only when signed
    for ``owner`` and still in ``store``."""
    if not isinstance(data, dict) or data.get("v") != VERSION or not isinstance(data.get("form"), dict):
        return None
    if str(data.get("gen") or "") != str(generation or ""):
        return None
    raw = data["form"]
    ids = tuple(str(i) for i in raw.get("image_ids") or () if isinstance(i, str))[:8]
    note = ""
    if ids and not hmac.compare_digest(str(data.get("sig") or ""), _signature(owner, ids, key)):
        ids, note = (), ("The image of your draft could not be brought back (it was loaded in an earlier session "
                         "of the server, or by someone else): choose it again.")
    if ids and not all(_stored(store, i) for i in ids):
        ids, note = (), "The image of your draft is no longer stored: choose it again."
    steps = [list(r)[:3] for r in (raw.get("steps") or [])[:MAX_ROWS] if isinstance(r, (list, tuple))]
    values = [ids, _text(raw.get("question")), _text(raw.get("kind")) or "choice", _text(raw.get("options")),
              raw.get("answer") if isinstance(raw.get("answer"), str) else None, _text(raw.get("category")),
              raw.get("extra") if isinstance(raw.get("extra"), dict) else {}, steps, 0,
              [s for s in raw.get("suites") or [] if isinstance(s, str)], raw.get("include_original", True)]
    seed = raw.get("seed")
    ok = isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed <= MAX_SEED
    form = ProbeForm.from_values(values, seed=seed if ok else 0)
    models = [m for m in data.get("models") or [] if isinstance(m, str)][:50]
    run = str(data["run"]) if isinstance(data.get("run"), str) else ""
    if run and not (hmac.compare_digest(str(data.get("run_sig") or ""), _signature(owner, (_RUN, run), key))
                    and _has_run(store, run)):
        run = ""  # another person's, an earlier server's, or gone: the table stays empty
    presenter = data.get("presenter") if isinstance(data.get("presenter"), bool) else None
    return Restored(form, models, _text(data.get("adhoc")), note, run, presenter)


def _has_run(store: Store, name: str) -> bool:
    try:
        store.get_run(name)
        return True
    except Exception:  # noqa: BLE001 - no such run (any store error): the draft goes on without it
        return False


def _stored(store: Store, image_id: str) -> bool:
    try:
        store.image_png(image_id)
        return True
    except Exception:  # noqa: BLE001 - not stored (any store error): the draft goes on without it
        return False
