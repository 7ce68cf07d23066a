"""``probe-ui export-set``: build a benchmark set and write it for one harness, in a new or empty folder.

Every export holds the set's manifest and images (:mod:`probe_ui.interop.benchset`), which ``probe-ui import``
reads to map the harness's answers back, and the harness's own files (the harness module's ``write``). A failed
export removes what it wrote.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from probe_ui.interop import get_harness
from probe_ui.interop.benchset import BenchmarkSet, build_set, write_images, write_manifest


@dataclass
class Written:
    """What a harness module wrote: its files (relative to the folder), how to run them, and what it left out."""

    files: list[str]
    run: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    samples: int | None = None  # samples the harness files hold, when not all of the set's


@dataclass
class SetExport:
    harness: str
    title: str
    out: Path
    bset: BenchmarkSet
    written: Written
    files: list[str]
    bytes: int

    def lines(self) -> list[str]:
        b = self.bset
        n = self.written.samples if self.written.samples is not None else len(b.samples)
        items = len({(s.variant.source, s.variant.item_id) for s in b.samples})
        out = [f"wrote the set '{b.name}' (set id {b.set_id}) for {self.title} to {self.out}: {n} samples "
               f"({len(b.samples)} variants of {items} items, seed {b.seed}), {len(b.images)} images, "
               f"{len(self.files)} files, {self.bytes:,} bytes"]
        out += self.written.run
        if b.item_errors:
            first = b.item_errors[0]
            out.append(f"warning: {len(b.item_errors)} item(s) could not be loaded and are not in the set, e.g. "
                       f"'{first['item_id']}': {first['message']}")
        out += [f"warning: {w}" for w in [*b.warnings, *self.written.warnings]]
        return out


def export_set(preset: str, harness: str, out: Path, *, seed: int = 0, suites: Iterable[str] = (),
               prompt: str | None = None, image_roots: Iterable[str] = ()) -> SetExport:
    """Expand ``preset`` (file or shipped name) with ``suites`` and ``seed`` as a batch would and write it for
    ``harness`` into ``out`` (new or empty)."""
    from probe_ui.exports import check_out_folder, clean_out_folder

    mod = get_harness(harness)
    out = Path(out)
    check_out_folder(out)
    bset = build_set(preset, seed, suites, prompt, image_roots)
    created = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    try:
        files = write_images(bset, out)
        if getattr(mod, "WRITES_MANIFEST", True):
            files.append(write_manifest(bset, out, harness))
        written = mod.write(bset, out)
        files += written.files
    except BaseException:
        clean_out_folder(out, created)
        raise
    total = sum((out / f).stat().st_size for f in files)
    return SetExport(harness=harness, title=mod.TITLE, out=out, bset=bset, written=written, files=sorted(files),
                     bytes=total)
