"""``probe-ui preview``: render the variants of a preset, their images and exact prompt text, without asking."""

from __future__ import annotations

import argparse

from probe_ui.cli.common import EXIT_ERROR, UsageError, command, image_root_arg, log, seed_arg


@command("preview", "render variants of a preset: their images and exact prompt text")
def preview_arguments(pv: argparse.ArgumentParser) -> None:
    pv.add_argument("preset", metavar="PRESET", help="a preset YAML file, or a shipped preset by name")
    pv.add_argument("--item", action="append", default=[], metavar="ID", help="only these items (repeatable)")
    pv.add_argument("--suite", action="append", default=[], metavar="NAME", help="add a suite's variants")
    pv.add_argument("--seed", type=seed_arg, default=0, help="seed for the perturbations (default 0)")
    pv.add_argument("--prompt", default=None, help="prompt template (default: per kind)")
    pv.add_argument("--out", default=None, metavar="DIR", help="write each variant's images here as PNG")
    pv.add_argument("--force", action="store_true", help="with --out: replace images of an earlier preview "
                                                         "(default: refuse)")
    image_root_arg(pv)
    pv.set_defaults(func=cmd_preview)


def cmd_preview(args: argparse.Namespace) -> int:
    import io
    from pathlib import Path

    from probe_ui.files.paths import inside, output_folder, safe_file_name
    from probe_ui.files.safe_write import write_bytes
    from probe_ui.presets import load_preset
    from probe_ui.presets.suites import expand
    from probe_ui.prompts import preview

    preset = load_preset(args.preset, args.image_root)
    unknown = set(args.item) - {it.id for it in preset.items}
    if unknown:
        raise UsageError(f"no item {', '.join(sorted(unknown))} in {args.preset}")
    ex = expand(preset, args.seed, args.suite)
    out = output_folder(Path(args.out)) if args.out else None
    for v in ex.variants:
        if args.item and v.item_id not in args.item:
            continue
        images, text = preview(v, args.prompt or preset.prompt)
        print(f"=== item {v.item_id} | condition {v.condition} | variant {v.id} | answer {v.answer_label!r}")
        for i, im in enumerate(images):
            where = ""
            if out:
                # item ids and conditions come from a file: each is made one safe name, and the path checked
                path = inside(out, f"{safe_file_name(v.item_id, unique=True)}__"
                                   f"{safe_file_name(v.condition, unique=True)}__{i}.png")
                buf = io.BytesIO()
                im.save(buf, format="PNG")
                write_bytes(path, buf.getvalue(), force=args.force, what="cannot write the preview image")
                where = f" -> {path}"
            print(f"[image {i + 1}: {im.width}x{im.height} {im.mode}{where}]")
        print(text)
        print()
    for e in ex.errors:
        log.error(e.message)
    return EXIT_ERROR if ex.errors else 0
