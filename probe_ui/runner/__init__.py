"""Batch fan-out: presets × models → stored, scored responses.

One module per job: :mod:`~probe_ui.runner.models` (which models, checked before anything starts),
:mod:`~probe_ui.runner.cells` (a cell and the rows it stores), :mod:`~probe_ui.runner.execute` (asking cells
concurrently within each model's limit, storing every answer as it arrives) and :mod:`~probe_ui.runner.batch`
(a batch: planning presets into cells on a thread while they are asked, resuming, extending a run). Their public
names are importable from here.
"""

from probe_ui.runner.batch import (
                                   BatchOptions,
                                   BatchPlan,
                                   BatchResult,
                                   batch_change,
                                   default_run_name,
                                   resume_batch,
                                   run_batch,
                                   whole_plan,
)
from probe_ui.runner.cells import (
                                   Cell,
                                   call_row,
                                   generation_settings,
                                   plan_cells,
                                   response_row,
                                   score_response,
                                   shard_of,
                                   unusable_rows,
                                   variant_cells,
)
from probe_ui.runner.execute import CallLimit, Judge, PlannedCells, ProviderPool, ask, execute_cells, execute_run
from probe_ui.runner.models import (
                                   MAX_TEMPERATURE,
                                   BatchError,
                                   check_answer_format,
                                   check_temperature,
                                   format_problems,
                                   public_config,
                                   resolve_each,
                                   resolve_models,
)

__all__ = ["MAX_TEMPERATURE", "BatchError", "BatchOptions", "BatchPlan", "BatchResult", "CallLimit", "Cell", "Judge",
           "PlannedCells",
           "ProviderPool", "ask", "batch_change", "call_row", "check_answer_format", "check_temperature",
           "default_run_name", "execute_cells", "execute_run", "format_problems", "generation_settings", "plan_cells",
           "public_config", "resolve_each", "resolve_models", "response_row", "resume_batch", "run_batch",
           "score_response", "shard_of", "unusable_rows", "variant_cells", "whole_plan"]
