"""The floor under a batch's CPU per call: the official OpenAI SDK alone, asking the loopback server.

Issue 50 sets a goal of 3 ms of CPU per call for `probe-ui batch` (N=2000, C=64). This script measures what the
SDK itself costs on the same machine, with nothing of probe-ui around it: one ``AsyncOpenAI`` client, ``C`` calls
at a time, each a one-image chat completion (the same message shape a batch sends), against the loopback server
(tests/fake_openai.py) run in a process of its own so that its CPU is not counted. Prints the CPU seconds of this
process per call, after a warm-up round that opens the connections.

    python perf/sdk_floor.py [--calls 1000] [--concurrency 64] [--latency 0.5] [--image-side 64]

Run it on a quiet machine: a busy one inflates CPU time too (caches, frequency).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import io
import resource
import subprocess
import sys
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"
SERVER = ("import sys, time; sys.path.insert(0, {tests!r}); from fake_openai import FakeOpenAIServer; "
          "s = FakeOpenAIServer(latency_s={latency}); s.start(); print(s.base_url, flush=True); time.sleep(86400)")


def cpu() -> float:
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


async def measure(base_url: str, calls: int, concurrency: int, image_b64: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of ``calls`` chat completions, ``concurrency`` at a time."""
    import openai

    client = openai.AsyncOpenAI(base_url=base_url, api_key="sk-loopback", max_retries=5)
    gate = asyncio.Semaphore(concurrency)

    async def one(i: int) -> str | None:
        async with gate:
            reply = await client.chat.completions.create(
                model="gpt-4o", temperature=0, max_tokens=64,
                messages=[{"role": "user", "content": [
                    {"type": "text", "text": f"What is seen in image {i}? A. mass B. no mass C. effusion"},
                    {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{image_b64}"}}]}])
            return reply.choices[0].message.content

    await asyncio.gather(*(one(i) for i in range(concurrency)))  # opens the connections
    c0, t0 = cpu(), time.monotonic()
    await asyncio.gather(*(one(i) for i in range(calls)))
    wall, used = time.monotonic() - t0, cpu() - c0
    await client.close()
    return wall, used


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--calls", type=int, default=1000)
    ap.add_argument("--concurrency", type=int, default=64)
    ap.add_argument("--latency", type=float, default=0.5, help="the server's seconds per answer")
    ap.add_argument("--image-side", type=int, default=64, help="the PNG's side in pixels (grey)")
    args = ap.parse_args()
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (args.image_side, args.image_side), (90, 90, 90)).save(buf, "PNG")
    image = base64.b64encode(buf.getvalue()).decode()
    server = subprocess.Popen([sys.executable, "-c", SERVER.format(tests=str(TESTS), latency=args.latency)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        base_url = server.stdout.readline().strip()
        wall, used = asyncio.run(measure(base_url, args.calls, args.concurrency, image))
    finally:
        server.kill()
        server.wait()
    print(f"the OpenAI SDK alone: {args.calls} calls at concurrency {args.concurrency}, wall {wall:.2f} s, "
          f"CPU {used:.2f} s = {1000 * used / args.calls:.2f} ms a call (a {len(image):,}-character base64 image)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
