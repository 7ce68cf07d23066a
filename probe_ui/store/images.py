"""Images and variants: canonical PNGs stored once by their sha256 (on disk beside a SQLite store, in the
database for a server store, so that every machine sees them), and the variants of a run that show them."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

import sqlalchemy as sa

from probe_ui.images import CanonicalImage
from probe_ui.items import Variant
from probe_ui.store.errors import StoreError
from probe_ui.store.opening import StoreBase
from probe_ui.store.schema import image_data, images, now, run_variants, variants


class ImagesMixin(StoreBase):
    """The images and variants of a store (see :class:`probe_ui.store.Store`)."""

    def image_path(self, image_id: str) -> Path:
        return self.images_dir / image_id[:2] / f"{image_id}.png"

    def stored_here(self, image_id: str) -> bool:
        """Whether this process has stored the image already (images are never removed): a caller on an event
        loop skips the thread it would otherwise wait on for :meth:`put_image` to find that out."""
        return image_id in self._stored_images

    def put_image(self, image: CanonicalImage) -> None:
        if self.stored_here(image.id):
            return
        self._put_image(image)
        self._stored_images.add(image.id)

    def _put_image(self, image: CanonicalImage) -> None:
        if self.images_in_db:
            self._insert_ignore(image_data, [{"id": image.id, "png": image.png}])
            self._insert_ignore(images, [{"id": image.id, "width": image.width, "height": image.height,
                                          "mode": image.mode, "created_at": now()}])
            return
        path = self.image_path(image.id)
        if not path.is_file():
            from probe_ui.files.safe_write import WriteError, write_bytes

            try:
                write_bytes(path, image.png, what=f"cannot store image {image.id[:12]} at")
            except WriteError as exc:
                if not path.is_file():  # else another process stored the same image (the same bytes) meanwhile
                    raise StoreError(str(exc)) from None
        self._insert_ignore(images, [{"id": image.id, "width": image.width, "height": image.height,
                                      "mode": image.mode, "created_at": now()}])

    def image_png(self, image_id: str) -> bytes:
        """The stored canonical PNG bytes of an image (whose sha256 is its id)."""
        if self.images_in_db:
            with self.engine.connect() as c:
                data = c.execute(sa.select(image_data.c.png).where(image_data.c.id == image_id)).scalar()
            if data is None:
                raise StoreError(f"image {image_id} is not in the database")
            return bytes(data)
        path = self.image_path(image_id)
        if not path.exists():
            raise StoreError(f"image {image_id} is not in {self.images_dir}")
        return path.read_bytes()

    def get_image(self, image_id: str) -> CanonicalImage:
        img = CanonicalImage.from_png(self.image_png(image_id))
        if img.id != image_id:
            raise StoreError(f"image {image_id} does not match its hash: it was changed after it was stored")
        return img

    def add_variants(self, run_id: int, vs: Iterable[Variant]) -> None:
        vs = list(vs)
        for im in {im.id: im for v in vs for im in v.images}.values():  # variants share images: each once
            self.put_image(im)
        self._insert_ignore(variants, [_variant_row(v) for v in vs])
        self._insert_ignore(run_variants, [{"run_id": run_id, "variant_id": v.id} for v in vs])



def _variant_row(v: Variant) -> dict[str, Any]:
    return {
        "id": v.id, "item_id": v.item_id, "source": v.source, "condition": v.condition, "group_id": v.group,
        "item_group": v.item_group, "kind": v.kind, "question": v.question, "options": list(v.options),
        "answer": v.answer, "answer_label": v.answer_label, "n_labels": len(v.labels),
        "image_ids": list(v.image_ids), "category": list(v.category), "tags": list(v.tags),
        "attributes": v.attributes, "provenance": list(v.provenance), "prompt": v.prompt,
        "prompt_args": v.prompt_args or None, "example_ids": [e.id for e in v.examples] or None, "created_at": now(),
    }
