"""What every importer shares: reading the file, records → variants and response rows, images, presets.

A format module (``mediconfusion``, ``probmed``, ``medvh``, ``blink``) turns its file into :class:`Record`
objects, one per reply (or per question, for a question file), and declares:

- ``NAME`` (the benchmark name recorded in the run's settings and in every variant's ``attributes.benchmark``),
  ``PROMPT`` (our template closest to the original protocol: the response rows' ``prompt`` and the preset's
  ``prompt``), ``READS`` (the file it reads, in a few words, for ``probe-ui import --help``), ``FLAGS`` (the
  options of ``probe-ui import`` only it needs, :class:`ImportFlag`), ``JSONL`` (whether a JSON-lines file is
  accepted too);
- ``check(options, to_preset)``: raise :class:`ImportUsageError` for a wrong combination of options;
- ``read_results(path, data, options)`` and ``read_questions(path, data, options)`` → :class:`Parsed`;
- ``default_model(path)`` and ``default_run(model, options, parsed)``.

Import rules (the same for every format):

- The raw reply is stored as ``raw_text``; the reply is parsed with the robust extractor at import time (as a
  batch run would) and re-parsed by ``probe-ui score`` with the parser asked for. Whatever the foreign tool's own
  parser stored goes to the response's ``details.file_parse`` for reference and is never read.
- The run records ``settings.benchmark`` and, per imported file, ``settings.imports`` entries with the file's
  path and sha256 (and the dataset's, where one is given). A run holds one benchmark: importing another format
  into it is refused, as is importing into a batch run.
- Re-importing the same file into the same run adds nothing: variants are content-addressed and a response is
  keyed by (run, variant, model, prompt, sample).
- Images are referenced by the file's own path/name (``attributes.image_ref``). With ``--images DIR`` a file found
  there (the name as written, its base name, and format-specific alternatives) is loaded and stored; otherwise
  the variant has no image, and the summary says how many were not found.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from probe_ui.errors import ProbeUIError
from probe_ui.items import LETTERS, Variant

if TYPE_CHECKING:
    from probe_ui.importers import Importer
    from probe_ui.store import Run, Store

MAX_FILE_BYTES = 1024 * 1024 * 1024
MAX_JSON_DEPTH = 64  # the formats are a few levels deep; writers (YAML, JSON) recurse and would overflow the stack


class ImportFileError(ProbeUIError, ValueError):
    """The file cannot be imported; the message names the file and, where it applies, the record."""


class ImportUsageError(ProbeUIError, ValueError):
    """A wrong combination of import options (the CLI exits with status 2)."""


@dataclass
class ImportOptions:
    """What ``probe-ui import`` was given. ``model``, ``images`` and ``run`` apply to every format; the others are
    options a format declares (:class:`ImportFlag`): the benchmarks' own as fields, a new importer's in ``extra``."""

    dataset: str | None = None  # MediConfusion: dataset.json (required); BLINK: the items (question, choices)
    model: str | None = None  # default: from the file name
    images: str | None = None  # folder the file's image names are resolved against
    run: str | None = None  # default: per format, e.g. mediconfusion-gpt4o
    task: str | None = None  # MedVH: nota | wrongful_image | cli | pre | fcj
    baseline: bool | None = None  # MedVH: the baseline version (None: detect from the file name)
    split: str | None = None  # BLINK: val (default) | test | all
    extra: dict[str, Any] = field(default_factory=dict)  # a declared option that is not a field above, by name

    def value(self, name: str) -> Any:
        """A declared option's value (a field, or ``extra``); None where it was not given."""
        return getattr(self, name) if name in OPTION_FIELDS else self.extra.get(name)


#: the options every format takes (``probe-ui import``'s own), never declared by a format
COMMON_OPTIONS = ("model", "images", "run")
#: the declared options that are fields of :class:`ImportOptions` (the others go to ``extra``)
OPTION_FIELDS = ("dataset", "task", "baseline", "split")


@dataclass(frozen=True)
class ImportFlag:
    """One option of ``probe-ui import`` that a format needs, declared in its importer module (``FLAGS``), so that
    the command line names no format: ``name`` is the option's name (``--<name with dashes>``) and where its value
    goes (:meth:`ImportOptions.value`), ``help`` says what it is for this format. Two formats may declare the same
    option (``--dataset``): their helps are joined, their kinds must agree."""

    name: str
    help: str
    choices: tuple[str, ...] | None = None
    metavar: str | None = None
    boolean: bool = False  # --name / --no-name

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


@dataclass(frozen=True)
class ImageRef:
    """An image as the file names it, and other relative names to try under ``--images``."""

    ref: str
    alternatives: tuple[str, ...] = ()


@dataclass
class Record:
    """One reply (or question) of a foreign file, already in our terms."""

    key: str  # where in the file, for messages and provenance: "pair '10001' im1", "record 7 (id 206, ...)"
    item_id: str
    question: str
    kind: str
    options: tuple[str, ...] = ()
    answer: str | None = None  # option text / label / yes / no; None = unknown
    category: tuple[str, ...] = ()
    group: str | None = None  # items scored together (a pair)
    tags: tuple[str, ...] = ()
    attributes: dict[str, Any] = field(default_factory=dict)
    images: tuple[ImageRef, ...] = ()
    prompt: str | None = None  # the variant's own template (MedVH FCJ)
    prompt_args: dict[str, Any] = field(default_factory=dict)
    raw_text: str | None = None
    file_parse: Any = None  # what the foreign tool's parser stored: reference only, never read
    preset_extra: dict[str, Any] = field(default_factory=dict)  # extra preset fields (e.g. tags for a condition)


@dataclass
class Parsed:
    records: list[Record]
    warnings: list[str] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)  # recorded with the import in the run's settings
    preset: dict[str, Any] = field(default_factory=dict)  # extra preset fields (description, perturbations...)


@dataclass
class ImportSummary:
    run: str
    model: str
    benchmark: str
    path: str
    records: int = 0
    added: int = 0
    already_present: int = 0
    duplicates: int = 0
    variants: int = 0
    images_total: int = 0
    images_loaded: int = 0
    images_missing: list[str] = field(default_factory=list)
    images_unreadable: list[str] = field(default_factory=list)
    images_dir: str | None = None
    warnings: list[str] = field(default_factory=list)

    def lines(self, db: str | None = None) -> list[str]:
        out = [f"imported {self.records} replies of '{self.model}' from {self.path} ({self.benchmark}) into run "
               f"'{self.run}'{f' in {db}' if db else ''}: {self.added} new, {self.already_present} already there"
               + (f", {self.duplicates} repeated in the file (kept once)" if self.duplicates else "")]
        out += _image_lines(self.images_total, self.images_loaded, self.images_missing, self.images_unreadable,
                            self.images_dir, preset=False)
        out += [f"warning: {w}" for w in self.warnings]
        return out


@dataclass
class PresetSummary:
    path: str
    items: int
    benchmark: str
    images_total: int = 0
    images_loaded: int = 0  # found under --images
    images_missing: list[str] = field(default_factory=list)
    images_dir: str | None = None
    warnings: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [f"wrote preset {self.path}: {self.items} items ({self.benchmark})"]
        out += _image_lines(self.images_total, self.images_loaded, self.images_missing, [], self.images_dir,
                            preset=True)
        out += [f"warning: {w}" for w in self.warnings]
        return out


def _image_lines(total: int, loaded: int, missing: list[str], unreadable: list[str], images_dir: str | None,
                 *, preset: bool) -> list[str]:
    if not total:
        return []
    if preset:
        if not missing:
            return [f"images: all {total} found under {images_dir}"]
        where = f"under {images_dir}" if images_dir else "(no --images given)"
        return [f"images: {len(missing)} of {total} not found {where}; they are written as the file names them "
                f"(relative to the preset's folder), e.g. {missing[0]}; a batch reports each missing one"]
    lines = []
    if loaded:
        lines.append(f"images: {loaded} of {total} loaded from {images_dir}")
    if missing:
        where = f"under {images_dir}" if images_dir else "(no --images given)"
        lines.append(f"images: {len(missing)} of {total} not found {where}: those variants have no image; "
                     f"attributes.image_ref keeps the original name (e.g. {missing[0]})")
    if unreadable:
        lines.append(f"images: {len(unreadable)} found but unreadable, imported without the image: "
                     f"{unreadable[0]}")
    return lines


# ----------------------------------------------------------------------------------------------------------------
# Reading files
# ----------------------------------------------------------------------------------------------------------------


def read_json(path: str | os.PathLike[str], *, what: str = "file", jsonl: bool = False) -> tuple[Any, str]:
    """The decoded JSON of a file and its sha256; :class:`ImportFileError` naming the file on any problem."""
    p = Path(path)
    if not p.is_file():
        raise ImportFileError(f"{p}: no such {what}")
    size = p.stat().st_size
    if size > MAX_FILE_BYTES:
        raise ImportFileError(f"{p}: {size:,} bytes, over the {MAX_FILE_BYTES:,}-byte limit")
    raw = p.read_bytes()
    sha = hashlib.sha256(raw).hexdigest()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportFileError(f"{p}: not a UTF-8 text file") from None
    if not text.strip():
        raise ImportFileError(f"{p}: the file is empty")
    try:
        data = _loads(p, text)
    except json.JSONDecodeError as exc:
        if not jsonl:
            raise ImportFileError(f"{p}: not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}") from None
        data = []
        for n, line in enumerate(text.split("\n"), 1):  # not splitlines(): U+2028 may stand inside a string
            if not line.strip():
                continue
            try:
                data.append(_loads(p, line, f"line {n}: "))
            except json.JSONDecodeError as e2:
                raise ImportFileError(f"{p}: neither JSON nor JSON lines: line {n}: {e2.msg} "
                                      f"(column {e2.colno})") from None
    _check_decoded(p, data, surrogates=bool(_SURROGATE_ESCAPE.search(text)))
    return data, sha


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _loads(p: Path, text: str, where: str = "") -> Any:
    """json.loads, with its two errors that are not JSONDecodeError (too deep, too many digits) as ImportFileError."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise ImportFileError(f"{p}: {where}not valid JSON: arrays/objects nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise ImportFileError(f"{p}: {where}not valid JSON: {exc}") from None


def _check_decoded(p: Path, data: Any, *, surrogates: bool) -> None:
    """Refuse decoded JSON that later steps cannot store or write: nesting deeper than :data:`MAX_JSON_DEPTH`
    (YAML and JSON writers recurse) and, when the text has such escapes, a lone UTF-16 surrogate ("\\ud800" without
    its pair: not text, and not encodable as UTF-8)."""
    stack = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth >= MAX_JSON_DEPTH:
                raise ImportFileError(f"{p}: arrays/objects nested more than {MAX_JSON_DEPTH} levels deep; the formats "
                                      "read here are a few levels deep")
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for k, v in items:
                if surrogates or isinstance(v, (dict, list)):
                    stack.append((v, depth + 1))
                if surrogates and isinstance(k, str):
                    stack.append((k, depth + 1))
        elif surrogates and isinstance(value, str) and _SURROGATE.search(value):
            raise ImportFileError(f"{p}: the JSON holds a lone UTF-16 surrogate escape (\\ud800-\\udfff without its "
                                  "pair), which is not text; re-export the file as UTF-8")


def fail(path: str | os.PathLike[str], where: str, problem: str) -> ImportFileError:
    """An error naming the file and the record: ``FILE: RECORD: problem``."""
    return ImportFileError(f"{path}: {where}: {problem}")


def need(path: Path, where: str, rec: Any, key: str, types: type | tuple[type, ...] = str,
         *, allow_none: bool = False) -> Any:
    """A field of a record, of the given type(s); an error naming file, record and field otherwise."""
    if not isinstance(rec, dict):
        raise fail(path, where, f"expected a JSON object, got {type(rec).__name__}")
    if key not in rec:
        raise fail(path, where, f"field '{key}' is missing")
    value = rec[key]
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, types):
        names = types.__name__ if isinstance(types, type) else " or ".join(t.__name__ for t in types)
        raise fail(path, where, f"field '{key}' should be {names}, got {type(value).__name__} {value!r:.60}")
    return value


def reply_text(path: Path, where: str, rec: dict[str, Any], key: str) -> str | None:
    """A reply field: text, or null (no reply: parsed as empty, i.e. invalid); anything else is an error."""
    if key not in rec:
        raise fail(path, where, f"field '{key}' (the model's reply) is missing")
    value = rec[key]
    if value is None or isinstance(value, str):
        return value
    raise fail(path, where, f"field '{key}' (the model's reply) should be text, got {type(value).__name__}")


def model_from_name(path: Path, suffixes: tuple[str, ...] = ()) -> str:
    """A model name from the file name: its stem, minus one of the format's suffixes (``gpt4o_mc`` → ``gpt4o``)."""
    stem = path.stem
    for suf in sorted(suffixes, key=len, reverse=True):
        if stem.lower().endswith(suf.lower()) and len(stem) > len(suf):
            return stem[: -len(suf)].rstrip("_- .")
    return stem


def safe_name(s: str) -> str:
    """A run-name fragment: no spaces or slashes."""
    return re.sub(r"[^A-Za-z0-9_.+\-]+", "_", s).strip("_") or "model"


def letter_of(text: str) -> str | None:
    """The option letter a ground-truth / suggestion string starts with: "C", "(C)", "C: text", "C. text"."""
    m = re.match(r"\s*\(?([A-Z])\)?(?:\s*[:.)]|\s*$)", text)
    return m.group(1) if m else None


def answer_from_letter(options: tuple[str, ...], letter: str | None) -> str | None:
    if letter is None or letter not in LETTERS[: len(options)]:
        return None
    return options[LETTERS.index(letter)]


# ----------------------------------------------------------------------------------------------------------------
# Images
# ----------------------------------------------------------------------------------------------------------------


def _candidates(ref: ImageRef, root: Path) -> list[Path]:
    names = [ref.ref, *ref.alternatives]
    if ref.ref:
        names.append(Path(ref.ref).name)
    out: list[Path] = []
    for n in names:
        if not n:
            continue
        p = Path(n)
        c = p if p.is_absolute() else root / p
        if c not in out:
            out.append(c)
    return out


def find_image(ref: ImageRef, images_dir: str | None) -> Path | None:
    if not images_dir:
        return None
    for c in _candidates(ref, Path(images_dir)):
        try:
            if c.is_file():
                return c
        except OSError:  # a name the file system refuses (too long, ...): not there
            continue
    return None


class _ImageCache:
    def __init__(self, images_dir: str | None) -> None:
        self.dir = images_dir
        self.loaded: dict[str, Any] = {}
        self.missing: list[str] = []
        self.unreadable: list[str] = []
        self.refs: set[str] = set()

    def get(self, ref: ImageRef) -> Any:
        from probe_ui.images import ImageError, load_image

        first = ref.ref not in self.refs
        self.refs.add(ref.ref)
        if ref.ref in self.loaded:
            return self.loaded[ref.ref]
        path = find_image(ref, self.dir)
        if path is None:
            if first:
                self.missing.append(ref.ref)
            return None
        try:
            image = load_image(path).image
        except ImageError as exc:
            if first:
                self.unreadable.append(f"{path}: {str(exc).splitlines()[0]}")
            return None
        self.loaded[ref.ref] = image
        return image


# ----------------------------------------------------------------------------------------------------------------
# Records → variants → response rows
# ----------------------------------------------------------------------------------------------------------------


def _attributes(mod: Importer, rec: Record) -> dict[str, Any]:
    attrs = {"benchmark": mod.NAME, **rec.attributes}
    if rec.images:
        refs = [r.ref for r in rec.images]
        attrs.setdefault("image_ref", refs[0] if len(refs) == 1 else refs)
    return attrs


def to_variant(mod: Importer, rec: Record, images: tuple[Any, ...]) -> Variant:
    return Variant(
        item_id=rec.item_id, question=rec.question, kind=rec.kind,  # type: ignore[arg-type]
        options=tuple(rec.options), answer=rec.answer, images=images, condition="original", group=rec.item_id,
        item_group=rec.group, category=tuple(rec.category), tags=tuple(rec.tags), attributes=_attributes(mod, rec),
        source=f"import:{mod.NAME}", prompt=rec.prompt, prompt_args=dict(rec.prompt_args),
    )


def robust_parse(v: Variant, raw: str | None) -> dict[str, Any]:
    """The same parse a batch run stores (the robust reading's cache, :func:`probe_ui.reading.answers.cache_row`)."""
    from probe_ui.reading import answers  # the reader (its rules take ~0.3 s to load): only when a reply is read

    return answers.cache_row(raw, v.kind, v.labels, v.options, v.answer_label, question=v.question,
                             suggested=v.suggested)


def _check_run(store: Store, run_name: str, benchmark: str) -> None:
    from probe_ui.store import StoreError

    try:
        run = store.get_run(run_name)
    except StoreError:
        return
    have = run.config.benchmark
    if have != benchmark:
        what = f"{have} results" if have else "a batch run's answers"
        raise ImportFileError(f"run '{run_name}' holds {what}; import {benchmark} results into another --run")


def import_into_store(store: Store, mod: Importer, path: str, opts: ImportOptions) -> ImportSummary:
    """Read a results file, add its questions as variants and its replies as responses of one model."""
    p = Path(path)
    check_options(mod, opts, to_preset=False)
    data, sha = read_json(p, what=f"{mod.NAME} results file", jsonl=getattr(mod, "JSONL", False))
    parsed = mod.read_results(p, data, opts)
    if not parsed.records:
        raise ImportFileError(f"{p}: no replies to import")
    model = (opts.model or mod.default_model(p)).strip()
    if not model:
        raise ImportUsageError(f"cannot tell the model from the file name {p.name}: give --model NAME")
    run_name = opts.run or mod.default_run(model, opts, parsed)
    _check_run(store, run_name, mod.NAME)

    cache = _ImageCache(opts.images)
    variants = []
    for rec in parsed.records:
        ims = tuple(cache.get(r) for r in rec.images)
        variants.append(to_variant(mod, rec, tuple(im for im in ims if im is not None)))

    entry = {"format": mod.NAME, "path": str(p.resolve()), "sha256": sha, "model": model, **parsed.settings}
    run = store.ensure_run(run_name, 0, {"benchmark": mod.NAME, "imports": [entry]})
    store.add_variants(run.id, variants)
    summary = ImportSummary(run=run.name, model=model, benchmark=mod.NAME, path=str(p), records=len(variants),
                            variants=len({v.id for v in variants}), images_total=len(cache.refs),
                            images_loaded=len(cache.loaded), images_missing=cache.missing,
                            images_unreadable=cache.unreadable, images_dir=opts.images,
                            warnings=list(parsed.warnings))

    def cells() -> Iterator[tuple[CellKey, str | None, Callable[[], dict[str, Any]]]]:
        for rec, v in zip(parsed.records, variants):
            prompt = rec.prompt or mod.PROMPT
            yield ((v.id, model, prompt, 0), rec.raw_text,
                   partial(response_row, mod, run.id, v, model, prompt, rec, p, sha))

    store_replies(store, run, model, summary, cells())
    store.touch_run(run.id)
    return summary


CellKey = tuple[str, str, str, int]  # variant id, model, prompt, sample


def store_replies(store: Store, run: Run, model: str, summary: ImportSummary,
                  cells: Iterable[tuple[CellKey, str | None, Callable[[], dict[str, Any]]]]) -> None:
    """Save each imported reply (its cell key, raw text, and how to make its response row) once, counting into
    ``summary``: a cell repeated in the file is kept once (``duplicates``); a cell already in the run keeps what is
    stored (``already_present``), and replies there that differ from the file's are counted in one warning."""
    done = store.done_cells(run.id)
    stored_text: dict[CellKey, Any] = {}
    if done:
        prev = store.answers_frame(run.id, full=True)
        stored_text = {(r["variant_id"], r["model"], r["prompt"], int(r["sample"])): r["raw_text"]
                       for r in prev.to_dict("records")}
    seen: set[CellKey] = set()
    changed = 0
    for key, raw_text, make_row in cells:
        if key in seen:
            summary.duplicates += 1
            continue
        seen.add(key)
        if key in done:
            summary.already_present += 1
            old_text = stored_text.get(key)
            if (None if old_text != old_text else old_text) != raw_text:  # NaN (pandas' null) != itself
                changed += 1
            continue
        store.save_response(make_row())
        summary.added += 1
    if changed:
        summary.warnings.append(f"{changed} replies already in run '{run.name}' for '{model}' differ from this file's; "
                                "the stored ones were kept (import into another --run, or under another --model, to "
                                "keep both)")


def response_row(mod: Importer, run_id: int, v: Variant, model: str, prompt: str, rec: Record, path: Path,
                 sha: str) -> dict[str, Any]:
    """A stored response: the raw reply, where it came from, our robust parse; the file's own parse only in
    ``details.file_parse`` (never read). ``request_hash`` is namespaced so that it never matches a real request
    (the deterministic-request cache must not serve imported text)."""
    request_hash = hashlib.sha256(
        json.dumps(["import", mod.NAME, sha, rec.key, v.id, model, prompt], ensure_ascii=False).encode()
    ).hexdigest()
    settings = {"imported": True, "format": mod.NAME, "path": str(path.resolve()), "sha256": sha,
                "record": rec.key}
    details: dict[str, Any] = {"imported_from": str(path.resolve()), "record": rec.key}
    if rec.file_parse is not None:
        details["file_parse"] = rec.file_parse
    return {
        "run_id": run_id, "variant_id": v.id, "model": model, "prompt": prompt, "sample": 0,
        "request_hash": request_hash, "messages": [], "settings": settings, "raw_text": rec.raw_text,
        "latency_s": None, "input_tokens": None, "output_tokens": None, "cost": None, "error": None,
        "finish_reason": None, "details": details, **robust_parse(v, rec.raw_text),
    }


def check_options(mod: Importer, opts: ImportOptions, *, to_preset: bool) -> None:
    """Refuse (one line) an option the format does not declare, then let the format check its own."""
    uses = {f.name for f in getattr(mod, "FLAGS", ())}
    for name in (*OPTION_FIELDS, *opts.extra):
        if opts.value(name) is not None and name not in uses:
            raise ImportUsageError(f"--{name.replace('_', '-')} does not apply to {mod.NAME} files")
    if to_preset and (opts.model or opts.run):
        raise ImportUsageError("--model and --run apply to results files, not to --to-preset")
    mod.check(opts, to_preset)


# ----------------------------------------------------------------------------------------------------------------
# Question file → preset
# ----------------------------------------------------------------------------------------------------------------


def write_preset(mod: Importer, path: str, out: str, opts: ImportOptions, force: bool = False
                 ) -> PresetSummary:
    """A preset YAML from a format's question file; images resolved against ``--images`` when found there; an
    existing ``out`` replaced only with ``force``."""
    import yaml

    from probe_ui.files.safe_write import write_text
    from probe_ui.presets import PresetError, item_yaml, load_preset  # not at import: listing importers needs none

    p = Path(path)
    check_options(mod, opts, to_preset=True)
    data, sha = read_json(p, what=f"{mod.NAME} question file", jsonl=getattr(mod, "JSONL", False))
    parsed = mod.read_questions(p, data, opts)
    if not parsed.records:
        raise ImportFileError(f"{p}: no questions in the file")
    summary = PresetSummary(path=str(out), items=0, benchmark=mod.NAME, images_dir=opts.images,
                            warnings=list(parsed.warnings))
    refs_seen: dict[str, str] = {}
    items = []
    ids: set[str] = set()
    for rec in parsed.records:
        if not rec.question.strip():
            raise fail(p, rec.key, "the question is empty")
        if rec.item_id in ids:
            raise fail(p, rec.key, f"item id '{rec.item_id}' occurs twice")
        ids.add(rec.item_id)
        if rec.kind == "choice" and len(set(rec.options)) != len(rec.options):
            summary.warnings.append(f"{rec.key}: two options have the same text; item left out of the preset")
            continue
        written = []
        for ref in rec.images:
            if ref.ref not in refs_seen:
                found = find_image(ref, opts.images)
                refs_seen[ref.ref] = str(found.resolve()) if found else ref.ref
                if found is None:
                    summary.images_missing.append(ref.ref)
                else:
                    summary.images_loaded += 1
            written.append(refs_seen[ref.ref])
        it = item_yaml(rec.item_id, rec.question, rec.kind, written, rec.options, rec.answer, rec.category)
        tags = list(rec.tags) + list(rec.preset_extra.get("tags", []))
        if tags:
            it["tags"] = tags
        if rec.group:
            it["group"] = rec.group
        it["attributes"] = _attributes(mod, rec)
        items.append(it)
    summary.items = len(items)
    summary.images_total = len(refs_seen)
    doc: dict[str, Any] = {
        "name": parsed.preset.get("name") or f"{mod.NAME}_{safe_name(p.stem)}",
        "description": parsed.preset.get("description")
        or f"{mod.NAME} questions imported from {p.name} (sha256 {sha[:12]}).",
        "prompt": parsed.preset.get("prompt", mod.PROMPT),
    }
    for k in ("include_original", "perturbations"):
        if k in parsed.preset:
            doc[k] = parsed.preset[k]
    doc["items"] = items
    outp = Path(out)

    def check(tmp: Path) -> None:
        try:
            load_preset(tmp)
        except PresetError as exc:  # pragma: no cover - a bug in an importer, not in the user's file
            raise ImportFileError(f"{p}: the preset written to {outp} does not load: "
                                  f"{str(exc).replace(str(tmp), str(outp))}") from None

    write_text(outp, yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=120), force=force,
               what="--to-preset", check=check)
    return summary
