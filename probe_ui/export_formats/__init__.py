"""Export formats: how a run's rows are written to a data file and read back (one class per format, one module
each; :mod:`probe_ui.exports` does the rest: rows, images, the dataset card). Found by walking this package and by
``PROBE_UI_PLUGINS`` (:mod:`probe_ui.registry`): ``probe-ui export --format``, the Results tab and
``probe-ui import dataset`` read :data:`~probe_ui.export_formats.base.FORMATS`.
"""

from probe_ui.export_formats.base import FORMATS, DataFileError, ExportFormat, format_names, register_format

__all__ = ["DataFileError", "ExportFormat", "FORMATS", "format_names", "register_format"]
