"""Batch work: many scenario files in a local process pool or on Dask."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from .answers import Limits
from .runner import EXIT_INPUT, FileResult, answer_text


def answer_path(path: str, limits: Limits) -> FileResult:
    """Read and answer one file (a unit of work for a pool worker)."""
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as err:
        error = f"{path}:1:1: error: cannot read the file: {err.strerror or err}"
        return FileResult(path, EXIT_INPUT, {"file": path, "error": error}, error)
    result = answer_text(data, "<stdin>" if path == "-" else path, limits)
    result.exception = None  # exceptions need not travel back from a worker
    return result


def _answer_data(item: tuple[str, bytes], limits: Limits) -> FileResult:
    name, data = item
    result = answer_text(data, name, limits)
    result.exception = None  # exceptions need not travel back
    return result


def _progress(total: int):
    """A progress bar on standard error for long runs at a terminal, else None."""
    if total < 20 or not sys.stderr.isatty():
        return None
    from rich.progress import Progress

    return Progress(transient=True, console=None)


def answer_in_pool(paths: list[str], limits: Limits, jobs: int) -> Iterator[FileResult]:
    """Answer files in `jobs` local processes; results come in input order."""
    progress = _progress(len(paths))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        results = pool.map(answer_path, paths, [limits] * len(paths), chunksize=4)
        if progress is None:
            yield from results
            return
        with progress:
            task = progress.add_task("answering", total=len(paths))
            for result in results:
                progress.advance(task)
                yield result


def answer_on_dask(paths: list[str], limits: Limits, address: str) -> Iterator[FileResult]:
    """Answer files on the Dask cluster at `address`; the files travel as bytes."""
    try:
        from dask.distributed import Client
    except ImportError:
        error = "mtgkb: error: --scheduler needs Dask: pip install 'mtgkb[dask]'"
        yield FileResult("-", EXIT_INPUT, {"error": error}, error)
        return
    items = []
    for path in paths:
        try:
            items.append((path, Path(path).read_bytes()))
        except OSError as err:
            items.append((path, None))
            message = err.strerror or str(err)
            items[-1] = (path, f"{path}:1:1: error: cannot read the file: {message}")
    with Client(address) as client:
        readable = [(n, d) for n, d in items if isinstance(d, bytes)]
        futures = iter(client.map(_answer_data, readable, limits=limits, pure=False))
        for name, data in items:
            if isinstance(data, str):
                yield FileResult(name, EXIT_INPUT, {"file": name, "error": data}, data)
            else:
                yield next(futures).result()
