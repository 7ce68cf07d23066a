"""Replicas: several servers of one model (e.g. vLLM on several GPUs or machines) behind one model name.

Each request goes to the replica with the fewest requests in flight; a replica that fails with a retriable error
(429, 5xx, timeout, connection) is left for the next one. This is how a batch outgrows one GPU: on existing
serving engines, not a cluster of our own.
"""

from __future__ import annotations

from typing import ClassVar

from probe_ui.messages import Request, Response
from probe_ui.providers.base import ModelConfig, Provider, ProviderError
from probe_ui.security.redact import public_url


class ReplicaSet(Provider):
    name: ClassVar[str] = "replicas"

    def __init__(self, config: ModelConfig, members: list[Provider]) -> None:
        super().__init__(config)
        if not members:
            raise ValueError("a replica set needs at least one member")
        self.members = members
        self.in_flight = [0] * len(members)
        self.default_concurrency = sum(m.default_concurrency for m in members)  # type: ignore[misc]

    async def generate(self, request: Request) -> Response:
        tried: set[int] = set()
        failures: list[str] = []
        while len(tried) < len(self.members):
            i = min((k for k in range(len(self.members)) if k not in tried), key=lambda k: (self.in_flight[k], k))
            tried.add(i)
            self.in_flight[i] += 1
            try:
                resp = await self.members[i].generate(request)
            except ProviderError as exc:
                failures.append(str(exc))
                if not exc.retriable:
                    raise
                continue
            finally:
                self.in_flight[i] -= 1
            resp.details = dict(resp.details, replica=public_url(self.members[i].config.base_url),
                                **({"failed_replicas": failures} if failures else {}))
            return resp
        raise ProviderError(f"{self.config.name}: all {len(self.members)} replicas failed; last: {failures[-1]}",
                            retriable=True)

    async def aclose(self) -> None:
        for m in self.members:
            await m.aclose()
