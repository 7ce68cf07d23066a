"""A variant's id is the same wherever its preset lies (issue 48): the id seeds the random baseline and names the
variant in exports and sets, so the same preset, suites and seed must give the same ids, figures and set id in any
folder on any machine. A store and a set written while the id hashed the preset's whole path still work."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from probe_ui.interop.benchset import MANIFEST, SetSample, _set_id, build_set, load_set, write_images, write_manifest
from probe_ui.items import Variant
from probe_ui.presets import PRESETS_DIR, load_preset
from probe_ui.presets.suites import expand
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.scoring import score_run
from probe_ui.store import Store, migrations

PRESET = "medvh_nota.yaml"  # its images are the bundled assets: a copy in any folder loads


def copy_to(folder: Path) -> Path:
    folder.mkdir(parents=True)
    return Path(shutil.copy(PRESETS_DIR / PRESET, folder / PRESET))


def variant_ids(preset: Path, suites: tuple[str, ...] = ("rotations",)) -> list[str]:
    return [v.id for v in expand(load_preset(str(preset)), 0, suites).variants]


def test_the_same_preset_in_two_folders_gives_the_same_ids_and_random_baseline(tmp_path: Path) -> None:
    here, there = copy_to(tmp_path / "a"), copy_to(tmp_path / "b" / "deeper")
    assert variant_ids(here) == variant_ids(there)
    figures = []
    for n, preset in enumerate((here, there)):
        store = Store(tmp_path / f"{n}.db")
        run_batch(store, [load_preset(str(preset))], ["baseline/random"], BatchOptions(run_name="r", progress=False))
        model = score_run(store, "r")["models"]["baseline/random"]
        figures.append((model["accuracy"], model["answered"]))
        store.close()
    assert figures[0] == figures[1]


def test_a_store_whose_ids_hashed_the_folder_upgrades_and_resumes_without_asking_again(tmp_path: Path) -> None:
    preset = copy_to(tmp_path / "presets")
    db = tmp_path / "v8.db"
    store = Store(db)
    first = run_batch(store, [load_preset(str(preset))], ["baseline/first"],
                      BatchOptions(run_name="r", progress=False))
    before = score_run(store, "r")["models"]["baseline/first"]
    store.close()
    variants = expand(load_preset(str(preset)), 0).variants
    old = {v.id: v.legacy_id() for v in variants}
    assert all(new != legacy for new, legacy in old.items())  # the fixture really has folder-dependent ids
    with sqlite3.connect(db) as c:  # the store as schema version 8 wrote it: ids hashing the preset's whole path
        c.execute("PRAGMA foreign_keys = OFF")
        for new, legacy in old.items():
            for table, column in (("variants", "id"), ("run_variants", "variant_id"), ("responses", "variant_id")):
                c.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (legacy, new))
        c.execute("UPDATE schema_version SET version = 8")

    upgraded = Store(db)
    assert upgraded.upgraded is not None and upgraded.upgraded[:2] == (8, migrations.LATEST)
    with upgraded.engine.connect() as c:
        stored = {r[0] for r in c.exec_driver_sql("SELECT id FROM variants")}
        answered = {r[0] for r in c.exec_driver_sql("SELECT variant_id FROM responses")}
    assert stored == set(old) and answered == set(old)
    assert score_run(upgraded, "r")["models"]["baseline/first"] == before
    again = run_batch(upgraded, [load_preset(str(preset))], ["baseline/first"],
                      BatchOptions(run_name="r", progress=False))
    assert (again.answered, again.skipped) == (0, first.answered)  # nothing asked twice
    upgraded.close()


def test_an_exported_set_names_no_folder_and_an_older_set_still_imports(tmp_path: Path) -> None:
    preset = copy_to(tmp_path / "private" / "folder")
    bset = build_set(str(preset), seed=0, suites=("rotations",))
    out = tmp_path / "set"
    out.mkdir()
    write_images(bset, out)
    write_manifest(bset, out, "inspect")
    text = (out / MANIFEST).read_text()
    assert str(tmp_path) not in text and "private" not in text
    assert load_set(out).set_id == bset.set_id == build_set(str(copy_to(tmp_path / "elsewhere")), 0,
                                                            ("rotations",)).set_id

    # the same set as an older probe-ui wrote it: every source the preset's whole path, ids and set id hashing it
    doc = json.loads(text)
    folder_path = str(preset)

    def old(v: Variant) -> Variant:
        return v.evolve(source=folder_path, examples=tuple(old(e) for e in v.examples))

    by_id = {v.id: v for v in bset.variants()}
    legacy = {vid: old(v).legacy_id() for vid, v in by_id.items()}
    doc["variants"] = {legacy[vid]: {**c, "source": folder_path,
                                     **({"examples": [legacy[e] for e in c["examples"]]} if c.get("examples") else {})}
                       for vid, c in doc["variants"].items()}
    for s in doc["samples"]:
        s["variant_id"] = legacy[s["variant_id"]]
    doc["set_id"] = _set_id([old(v) for v in bset.variants()],
                            [SetSample(old(s.variant), s.request) for s in bset.samples], bset.seed, legacy=True)
    (out / MANIFEST).write_text(json.dumps(doc))

    older = load_set(out)
    assert older.set_id == doc["set_id"]  # the id its harness files carry
    for vid, old_id in legacy.items():
        if older.sample(vid) is not None:
            assert older.sample(old_id) is older.sample(vid)  # a harness's answer to the old id maps back
