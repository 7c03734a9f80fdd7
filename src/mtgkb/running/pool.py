"""Solving in worker processes that are recycled before they grow.

clingo keeps every symbol it has ever made for the life of the process, so a
process that answers scenarios with ever new names grows without bound. The
answers are therefore computed in a worker process forked from the caller
(it inherits the pool's engine, mtgkb.engine.state.Engine, with the rule base
already read: the worker's loop holds it and gives it to the tasks that ask
for it); the caller itself makes no symbol of any scenario. A worker is recycled (ended,
and a fresh one forked on the next call) when its resident memory has grown
by more than `max_growth` since its first task, after `max_tasks` tasks, when a
task runs out of its time or its memory bound, or when it dies. A worker's
first task also warms it up once (the rule base rewritten for a chunk of
scenarios, the programs it reads, the parser's tables: 50 to 60 MB for a
chunk of 32 files, and nothing more on the next chunks), so that growth is
not counted against it unless it passes `max_warm_up`: a worker recycled for
its warm-up would pay it again on every task.

Each task gets its own memory bound: before the task, the worker's address
space is bounded to what it maps then plus `memory` bytes (the default is
deadline.py's: MTGKB_MEMORY_MB, else 80 % of the memory available). A task
past its time-out is killed with its worker.

`mtgkb.Answerer` holds a pool of one worker (and `mtgkb.run` without one
makes one for the call); `mtgkb serve` keeps a pool of `--workers` workers.
`MTGKB_POOL=0` answers in the calling process instead (the behaviour before
the pool, growth and all).
"""

from __future__ import annotations

import os
import pickle
import queue
import select
import signal
import struct
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mtgkb.rulebase.collector import defer_collections
from mtgkb.running import deadline
from mtgkb.running.deadline import DeadlineExceeded, WorkerLost

if TYPE_CHECKING:
    from mtgkb.engine.state import Engine

#: Recycle a worker whose resident memory grew by more than this (bytes)
#: since its first task.
MAX_GROWTH = 48 << 20
#: Recycle a worker whose first task grew it by more than this (bytes).
MAX_WARM_UP = 4 * MAX_GROWTH
#: Recycle a worker after this many tasks.
MAX_TASKS = 2000
#: How long past a task's time-out the worker may take to report it itself
#: (clingo stops cooperatively) before it is killed.
GRACE = 0.25

_HEADER = struct.Struct("!Q")
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def enabled() -> bool:
    """Whether answers are computed in workers (fork exists, not switched off)."""
    setting = os.environ.get("MTGKB_POOL", "1").strip().lower()
    return hasattr(os, "fork") and setting not in ("0", "no", "false", "off")


def usable_cpus() -> int:
    """How many CPUs this process may run on (its affinity, where the system
    says; else every CPU)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def resident() -> int:
    """This process's resident memory, in bytes."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss << 10


# --------------------------------------------------------------------------
# framing: an 8-byte length, then a pickle


def _send(fd: int, value: object) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]


def _read_exactly(fd: int, size: int, end: float | None) -> bytes | None:
    """`size` bytes from `fd`; None at end of file; DeadlineExceeded after `end`."""
    chunks, left = [], size
    while left:
        if end is not None:
            wait = end - time.monotonic()
            if wait <= 0 or not select.select([fd], [], [], wait)[0]:
                raise DeadlineExceeded()
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _receive(fd: int, end: float | None = None) -> Any:
    """The next message; EOFError when the other side has gone."""
    header = _read_exactly(fd, _HEADER.size, end)
    if header is None:
        raise EOFError
    data = _read_exactly(fd, _HEADER.unpack(header)[0], end)
    if data is None:
        raise EOFError
    return pickle.loads(data)


# --------------------------------------------------------------------------
# the worker's side


def memory_limit(megabytes: int | None = None) -> int | None:
    """Bytes of new memory a task may take (deadline.py's rule), None: no bound."""
    return deadline.memory_limit(megabytes)


def _bound_task_memory(limit: int | None) -> None:
    """Bound the address space to what is mapped now plus `limit` (the bound
    of the previous task is lifted first: each task has its own)."""
    if limit is None:
        return
    try:
        import resource

        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
    except (ImportError, OSError, ValueError):
        return
    deadline.bound_memory(limit)


def _serve_tasks(requests: int, answers: int, parent: int, engine: Engine | None) -> None:
    """The worker's loop: run tasks until the parent closes the pipe. The
    loop holds the `engine` inherited from the parent and passes it to the
    tasks sent `with_engine`."""
    deadline.die_with_parent(parent)
    # (the collector's passes over what the engine keeps cost a worker about
    # a fifth of each chunk: mtgkb.rulebase.collector)
    defer_collections()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)
    try:
        signal.set_wakeup_fd(-1)
    except ValueError:  # not the main thread of the parent: nothing was set
        pass
    _send(answers, resident())  # the size the worker starts from
    while True:
        try:
            function, args, kwargs, memory, with_engine = _receive(requests)
        except (EOFError, OSError):
            return
        if with_engine:
            kwargs = {**kwargs, "engine": engine}
        _bound_task_memory(memory)
        spent = False
        warmth = _warmth(engine)
        try:
            reply = (True, function(*args, **kwargs))
        except MemoryError:
            reply, spent = (False, deadline.memory_stop()), True
        except BaseException as err:  # noqa: BLE001 - sent back to the parent
            reply = (False, travelling(err))
        # (whether the task warmed the engine up: its growth is then warm-up)
        warmed = _warmth(engine) > warmth
        try:
            _send(answers, (*reply, resident(), warmed))
        except MemoryError:
            _send(answers, (False, deadline.memory_stop(), 0, warmed))
            return
        except (OSError, pickle.PicklingError, TypeError, AttributeError):
            try:
                _send(answers, (False, RuntimeError(repr(reply[1])), resident(), warmed))
            except OSError:
                return
        if spent:
            return


def _warmth(engine: Engine | None) -> int:
    """What the worker's engine keeps for chunks (Engine.warmth; 0 without one)."""
    return 0 if engine is None else engine.warmth()


def ending(status: int | None) -> str:
    """How a worker ended, from its wait status (None: it had to be killed)."""
    if status is None:
        return "the worker did not end by itself and was killed"
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        return f"the worker was killed by {name}"
    if os.WIFEXITED(status):
        return f"the worker exited with status {os.WEXITSTATUS(status)}"
    return "the worker ended"


def travelling(err: BaseException) -> BaseException:
    """The exception without its traceback and causes, ready to be pickled."""
    err.__cause__ = err.__context__ = None
    err = err.with_traceback(None)
    try:
        pickle.dumps(err)
    except Exception:  # noqa: BLE001 - an exception that cannot travel
        return RuntimeError(repr(err))
    return err


# --------------------------------------------------------------------------
# the parent's side


@dataclass
class Worker:
    """One worker process and the ends of its two pipes."""

    pid: int
    requests: int  # we write tasks here
    answers: int  # and read the replies here
    started_rss: int = 0
    warmed_rss: int | None = None  # after its first task
    rss: int = 0
    tasks: int = 0
    born: float = field(default_factory=time.monotonic)
    #: the pipe ends its pool holds (this worker's leave it when it is closed)
    ends: set[int] = field(default_factory=set, repr=False, compare=False)
    #: the process is collected (its number may already be another's)
    reaped: bool = False

    @property
    def growth(self) -> int:
        """Bytes grown since the first task (since it started, before one)."""
        since = self.started_rss if self.warmed_rss is None else self.warmed_rss
        return max(0, self.rss - since)

    @property
    def warm_up(self) -> int:
        """Bytes its first task grew it by (0 before one)."""
        return 0 if self.warmed_rss is None else max(0, self.warmed_rss - self.started_rss)

    def close(self) -> None:
        """End the worker now and reap it (its pipe ends leave its pool's)."""
        for fd in (self.requests, self.answers):
            self.ends.discard(fd)
            try:
                os.close(fd)
            except OSError:
                pass
        self.reap()

    def reap(self, grace: float = 0.0) -> int | None:
        """Collect the process (see deadline.reap), once: its wait status
        when it had ended by itself."""
        if self.reaped:
            return None
        self.reaped = True
        return deadline.reap(self.pid, grace)


def _prepare_fork(engine: Engine | None) -> None:
    """Load in the parent what every worker would otherwise load again."""
    if engine is None:
        return
    try:
        engine.prepare()
    except Exception:  # noqa: BLE001 - the worker will try again and report
        pass


def _close_ends(ends: set[int]) -> None:
    for fd in list(ends):
        try:
            os.close(fd)
        except OSError:
            pass
    ends.clear()


def _fork_worker(ends: set[int], engine: Engine | None) -> Worker:
    """A worker forked now; `ends` are the pipe ends the pool holds for its
    other workers (closed in the new one, so each sees the end of its own
    input), and get this one's."""
    task_read, task_write = os.pipe()
    answer_read, answer_write = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the worker
        try:
            os.close(task_write)
            os.close(answer_read)
            _close_ends(ends)  # (the pool's at-fork hook did too: no harm)
            _serve_tasks(task_read, answer_write, parent, engine)
        finally:
            os._exit(0)
    os.close(task_read)
    os.close(answer_write)
    ends.update((task_write, answer_read))
    return Worker(pid, task_write, answer_read, ends=ends)


class Forker:
    """The one thread of this process that forks every worker of every pool.

    Linux sends a child its parent-death signal (deadline.die_with_parent)
    when the *thread* that forked it ends, not the process. Callers of a
    pool are often short-lived threads (anyio retires a worker thread idle
    for 10 s): a worker forked by one of them was killed in the middle of a
    later task. Forked here, a worker lives as long as this process (the
    thread is a daemon that waits for work until the process ends)."""

    def __init__(self) -> None:
        self.owner = os.getpid()
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        self.thread = threading.Thread(target=self.serve, name="mtgkb-pool-forker", daemon=True)
        self.thread.start()

    def serve(self) -> None:
        while True:
            job, done, outcome = self.jobs.get()
            try:
                outcome.append((True, job()))
            except BaseException as err:  # noqa: BLE001 - raised in the caller
                outcome.append((False, err))
            done.set()

    def run(self, job: Callable[[], Any]) -> Any:
        """`job()` computed in the forking thread (at once if this is it)."""
        if threading.current_thread() is self.thread:
            return job()
        done, outcome = threading.Event(), []
        self.jobs.put((job, done, outcome))
        done.wait()
        ok, value = outcome[0]
        if ok:
            return value
        raise value


class ForkerSlot:
    """Where this process keeps its one forking thread: made on first use, and
    made again in a forked child (whose parent's thread did not come along)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.forker: Forker | None = None

    def get(self) -> Forker:
        with self.lock:
            held = self.forker
            if held is None or held.owner != os.getpid() or not held.thread.is_alive():
                held = self.forker = Forker()
            return held


#: The process's forking thread: the workers live as long as the process, not
#: as long as the (anyio) thread that asked for them.
FORKER_SLOT = ForkerSlot()


def forker() -> Forker:
    """This process's forking thread (a forked child makes its own)."""
    return FORKER_SLOT.get()


def _forget_in_child(reference: weakref.ref) -> None:
    """In a forked child (a worker, a --timeout child, a --jobs process), the
    pool of its parent holds no pipe end and no worker."""
    pool = reference()
    if pool is not None:
        pool._forget()


class Pool:
    """Up to `size` worker processes; `call` runs one task in an idle one.

    Thread-safe: a call waits for an idle worker. `max_growth` and
    `max_warm_up` (bytes) and `max_tasks` say when a worker is recycled; `memory` is each task's
    memory bound in bytes (None: deadline.py's default, 0: none). `engine`
    (mtgkb.engine.state.Engine; by default one made when the first worker
    starts) is read in this process before each fork, and the workers
    inherit it.
    """

    def __init__(
        self,
        size: int = 1,
        *,
        max_growth: int = MAX_GROWTH,
        max_tasks: int = MAX_TASKS,
        max_warm_up: int = MAX_WARM_UP,
        memory: int | None = None,
        engine: Engine | None = None,
    ) -> None:
        if size < 1:
            raise ValueError("a pool needs at least one worker")
        self.size = size
        self._engine = engine
        #: the pipe ends this process holds for the pool's workers
        self._ends: set[int] = set()
        self.max_growth = max_growth
        self.max_tasks = max_tasks
        self.max_warm_up = max_warm_up
        self.memory = memory
        self.recycled = 0  # workers ended because they grew, aged or failed
        self.started = 0
        self._idle: list[Worker] = []
        self._running: set[int] = set()  # the pids of the workers busy with a task
        self._busy = 0
        self._owner = os.getpid()
        self._lock = threading.Condition()
        # one fork at a time: a worker forked while another's pipes are being
        # set up would hold that one's ends, and it would never see their end
        self._forking = threading.Lock()
        self._closed = False
        if hasattr(os, "register_at_fork"):
            reference = weakref.ref(self)
            os.register_at_fork(after_in_child=lambda: _forget_in_child(reference))

    @property
    def engine(self) -> Engine:
        """The engine the workers inherit (made on first use)."""
        if self._engine is None:
            from mtgkb.engine.state import Engine

            self._engine = Engine()
        return self._engine

    def _forget(self) -> None:
        """This process is a child forked from the pool's owner: hold none of
        its pipe ends, and start afresh if used (`_adopt`)."""
        _close_ends(self._ends)
        self._idle = []
        self._running = set()
        self._lock = threading.Condition()  # (another thread may have held it at the fork)

    # ---- workers

    def _task_memory(self, memory: int | None = None) -> int | None:
        """Bytes a task may take: the call's bound, else the pool's, else deadline.py's."""
        if memory is None:
            memory = self.memory
        if memory is None:
            return memory_limit()
        return memory or None

    def _take(self) -> Worker | None:
        """An idle worker, or None when a new one may be forked."""
        with self._lock:
            self._adopt()
            while True:
                if self._closed:
                    raise RuntimeError("the worker pool is closed")
                if self._idle:
                    self._busy += 1
                    return self._idle.pop()
                if self._busy < self.size:
                    self._busy += 1
                    return None
                self._lock.wait()

    def _give_back(self, worker: Worker | None) -> None:
        with self._lock:
            self._busy -= 1
            if worker is not None:
                if self._closed or os.getpid() != self._owner:
                    worker.close()
                else:
                    self._idle.append(worker)
            self._lock.notify()

    def _start(self) -> Worker:
        _prepare_fork(self.engine)
        engine = self.engine
        with self._forking:
            worker = forker().run(lambda: _fork_worker(self._ends, engine))
        self.started += 1
        try:
            worker.started_rss = worker.rss = _receive(worker.answers, time.monotonic() + 30)
        except (EOFError, OSError, DeadlineExceeded) as err:
            worker.close()
            raise WorkerLost("a worker process could not start") from err
        return worker

    def _adopt(self) -> None:
        """After a fork of the caller, the child forgets the parent's workers
        (their pipe ends were closed at the fork: `_after_fork_in_child`)."""
        if os.getpid() != self._owner:
            self._idle, self._busy, self._owner = [], 0, os.getpid()

    def _worn(self, worker: Worker) -> bool:
        return (
            worker.tasks >= self.max_tasks
            or worker.growth > self.max_growth
            or worker.warm_up > self.max_warm_up
        )

    # ---- tasks

    def call(
        self,
        function: Callable[..., Any],
        *args: Any,
        timeout: float | None = None,
        memory: int | None = None,
        with_engine: bool = False,
        **kwargs: Any,
    ) -> Any:
        """`function(*args, **kwargs)` computed in a worker; its value or its
        exception. `function` must be importable by name (it travels pickled).
        `with_engine`: the worker's engine (the pool's, inherited) is passed
        as the keyword `engine`.

        Past `timeout` seconds the worker is killed and DeadlineExceeded
        raised; a worker that dies (its memory bound, `memory` bytes or the
        pool's) raises WorkerLost.
        """
        worker = self._take()
        keep = None
        try:
            if worker is None:
                worker = self._start()
            with self._lock:
                self._running.add(worker.pid)
            end = None if timeout is None else time.monotonic() + max(0.0, timeout) + GRACE
            memory = self._task_memory(memory)
            task = (function, args, kwargs, memory, with_engine)
            try:
                try:
                    _send(worker.requests, task)
                except OSError:
                    # the worker died while idle (killed from outside): a fresh one
                    worker.close()
                    with self._lock:
                        self.recycled += 1
                    worker = None
                    worker = self._start()
                    _send(worker.requests, task)
                ok, value, rss, warmed = _receive(worker.answers, end)
            except (EOFError, OSError) as err:
                status = worker.reap(grace=0.5)
                if deadline.aborted_under_bound(status, memory or None):
                    raise deadline.memory_stop() from err
                raise WorkerLost(f"the work ended without an answer ({ending(status)})") from err
            worker.tasks += 1
            if worker.warmed_rss is None:
                worker.warmed_rss = rss
            elif warmed:
                # a later task that warmed the engine up (the first chunk of
                # gathered requests, say): its growth is warm-up too, bounded
                # with the first task's by max_warm_up
                worker.warmed_rss += max(0, rss - worker.rss)
            worker.rss = rss
            if not ok and isinstance(value, WorkerLost):
                raise value
            if not self._worn(worker):
                keep = worker
            if ok:
                return value
            raise value
        finally:
            if worker is not None:
                with self._lock:
                    self._running.discard(worker.pid)
            if worker is not None and keep is None:
                worker.close()
                with self._lock:
                    self.recycled += 1
            self._give_back(keep)

    def start(self) -> None:
        """Fork every worker now (the rule base read first), not on first use."""
        with self._lock:
            self._adopt()
            missing = self.size - self._busy - len(self._idle)
            self._busy += missing
        started: list[Worker] = []
        try:
            for _ in range(missing):
                started.append(self._start())
        finally:
            with self._lock:
                self._busy -= missing
                self._idle.extend(started)
                self._lock.notify_all()

    def stats(self) -> dict:
        """What the pool has done: workers started and recycled, and the
        resident memory of the idle ones."""
        with self._lock:
            return {
                "workers": self.size,
                "started": self.started,
                "recycled": self.recycled,
                "idle": len(self._idle),
                "busy": self._busy,
                "worker_rss": [w.rss for w in self._idle],
            }

    def close(self) -> None:
        """End every idle worker; busy ones end when their task is done."""
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
            self._lock.notify_all()
        if os.getpid() == self._owner:
            for worker in idle:
                worker.close()

    def kill(self) -> None:
        """Stop now: kill every worker, busy ones too (their calls raise
        WorkerLost), and close the pool."""
        import signal

        with self._lock:
            self._closed = True
            pids = set(self._running) if os.getpid() == self._owner else set()
            self._lock.notify_all()
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        self.close()

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --------------------------------------------------------------------------
# answering a scenario in a pool


def task_memory(limits) -> int | None:
    """The memory bound in bytes that `limits.memory` (MB, --memory) names
    for Pool.call: None for the pool's own, 0 for none."""
    megabytes = getattr(limits, "memory", None)
    return None if megabytes is None else (memory_limit(megabytes) or 0)


def _accepted(function: Callable, options: dict) -> dict:
    """The options `function` takes (`lang` only once the run API has it)."""
    import inspect

    parameters = inspect.signature(function).parameters
    if any(p.kind is p.VAR_KEYWORD for p in parameters.values()):
        return dict(options)
    return {k: v for k, v in options.items() if k in parameters}


_OUT_OF_MEMORY = ("bad_alloc", "Resource temporarily unavailable", "Cannot allocate memory")


def as_task(compute: Callable[[], Any]) -> Any:
    """`compute()` as a worker's task: clingo's words for running out of the
    memory bound raised as MemoryError, and the exception of each result (a
    runner.FileResult, or a list of them) made ready to travel back."""
    try:
        value = compute()
    except RuntimeError as err:
        if any(word in str(err) for word in _OUT_OF_MEMORY):
            raise MemoryError(str(err)) from None
        raise
    for result in value if isinstance(value, list) else [value]:
        if result.exception is not None:
            result.exception = travelling(result.exception)
    return value


def answer_in_worker(text: str | bytes, name: str, limits, options: dict, engine=None):
    """The worker's task: parse and answer (runner.answer_now) with the
    worker's `engine`, the time-out enforced by clingo itself; the exception
    ready to travel."""
    from mtgkb.running.runner import answer_now

    return as_task(lambda: answer_now(text, name, limits, engine, **_accepted(answer_now, options)))


def stopped_result(name: str, limits, message: str | None = None):
    """The runner.FileResult (exit 3) of work that `limits.timeout` stopped,
    or that `message` says was stopped."""
    from mtgkb.engine.solve import SolveTimeout
    from mtgkb.running.runner import EXIT_TIMEOUT, FileResult

    if message is None:
        message = f"{name}: error: the time-out of {limits.timeout:g} s stopped the work"
    output = {"file": name, "error": "timeout"}
    return FileResult(name, EXIT_TIMEOUT, output, message, SolveTimeout(message))


def answer(
    text: str | bytes,
    name: str,
    limits,
    pool: Pool | None = None,
    engine: Engine | None = None,
    **options,
):
    """runner.FileResult of one scenario text, computed in `pool`, bounded by
    `limits.timeout` and the pool's memory bound, with the pool's engine.
    Without a pool: in a pool of one worker made for this call (on `engine`),
    or in this process with `engine` when pools are off (`enabled()`).
    `options` (such as `lang`) go to runner.answer_now."""
    if pool is None:
        if not enabled():
            from mtgkb.running.runner import answer_text

            accepted = _accepted(answer_text, options)
            return answer_text(text, name, limits, engine=engine, **accepted)
        with Pool(1, engine=engine) as own:
            return answer(text, name, limits, own, **options)
    from mtgkb.running.runner import EXIT_TIMEOUT

    memory = task_memory(limits)
    try:
        result = pool.call(
            answer_in_worker,
            text,
            name,
            limits,
            options,
            timeout=limits.timeout,
            memory=memory,
            with_engine=True,
        )
        if result.status != EXIT_TIMEOUT:
            return result
        # clingo stopped itself: say so as when the worker is stopped
        return stopped_result(name, limits)
    except WorkerLost as lost:
        from mtgkb.running import runner

        if getattr(lost, "out_of_memory", False) and hasattr(runner, "out_of_memory"):
            return runner.out_of_memory(name, limits)
        return stopped_result(name, limits, f"{name}: error: the work was stopped: {lost}")
    except DeadlineExceeded:
        return stopped_result(name, limits)
