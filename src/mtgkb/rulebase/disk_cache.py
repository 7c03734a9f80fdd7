"""Caches on disk, for the readers of the rule base (its index) and for the
engine (the slicing analysis, the input checks): where they live
(MTGKB_CACHE, MTGKB_CACHE_DIR), the digest their files are keyed by, and a
file written whole and read back only when it is sound.

A cache file is CACHE_MAGIC, a digest of the payload, the payload (marshal:
plain lists, tuples, dicts, strings, numbers; read in about a millisecond,
against 3-7 ms for JSON). marshal is not meant for data from others: a cache
is read only from a folder of this user's that no one else may write to,
when its digest matches, and every value is then checked by its reader. What
a file holds is versioned in its name (its reader's version and the digest
of what it was made from); CACHE_MAGIC names the format of the file.
"""

from __future__ import annotations

import gc
import os
import zlib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

#: Bump when the format of a cache file (not what it holds) changes.
CACHE_FORMAT = 1
CACHE_MAGIC = b"mtgkb-cache\x00" + bytes([CACHE_FORMAT])
MAX_CACHE_BYTES = 64 << 20  # a larger file is not read

#: The values that switch an option off (MTGKB_CACHE=0 and the engine's switches).
OFF = ("0", "no", "false", "off")


def switched_on(env: Mapping[str, str], name: str) -> bool:
    """An on/off switch: on unless set to 0, no, false or off."""
    return env.get(name, "1").lower() not in OFF


def cache_dir(env: Mapping[str, str]) -> Path | None:
    """Where the caches live (None: nothing is cached, MTGKB_CACHE=0)."""
    if not switched_on(env, "MTGKB_CACHE"):
        return None
    if env.get("MTGKB_CACHE_DIR"):
        return Path(env["MTGKB_CACHE_DIR"])
    base = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mtgkb"


def content_digest(data: bytes) -> str:
    """A short digest of some bytes (two checksums and the length), what the
    caches on disk are keyed by: equal bytes, equal digests."""
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}{len(data):x}"


def private_folder(folder: Path) -> bool:
    """Whether `folder` is this user's and no one else may write to it."""
    try:
        info = folder.stat()
    except OSError:
        return False
    if not hasattr(os, "getuid"):
        return True
    return info.st_uid == os.getuid() and not info.st_mode & 0o022


def load_checked(path: Path, sound) -> object | None:
    """The data cached at `path` (by `store_checked`) if the file is this
    user's, in a folder no one else may write to, whole (its digest), and
    `sound(data)` says every value is what it should be; else None."""
    import marshal

    if not private_folder(path.parent):
        return None
    try:
        with open(path, "rb") as cached:
            info = os.fstat(cached.fileno())
            if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o022):
                return None
            if info.st_size > MAX_CACHE_BYTES:
                return None
            # read(n) would first allocate n bytes: under a request's memory
            # bound (a server worker) that alone could exceed it
            blob = cached.read(info.st_size + 1)
    except OSError:
        return None
    head = len(CACHE_MAGIC)
    if len(blob) < head + 8 or blob[:head] != CACHE_MAGIC:
        return None
    payload = blob[head + 8 :]
    if blob[head : head + 8] != payload_digest(payload):
        return None
    # A cache is tens of thousands of small lists, tuples and dicts, none of
    # them garbage: the collector, which would otherwise run every few
    # hundred of them made, waits until they are read and checked.
    collecting = gc.isenabled()
    gc.disable()
    try:
        data = marshal.loads(payload)
        if sound(data):
            return data
    except (EOFError, ValueError, TypeError, KeyError, IndexError, AttributeError, UnicodeError):
        pass
    finally:
        if collecting:
            gc.enable()
    return None


def payload_digest(payload: bytes) -> bytes:
    return (zlib.crc32(payload) & 0xFFFFFFFF).to_bytes(4, "big") + (
        zlib.adler32(payload) & 0xFFFFFFFF
    ).to_bytes(4, "big")


def store_checked(folder: Path, name: str, data, family: str, keep: int = 8) -> None:
    """Write `data` (marshal) atomically as `folder/name`, in a folder of this
    user's (made 0700), keeping the `keep` newest files of its `family` (a
    glob); a cache that cannot be written is no error."""
    import marshal

    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not private_folder(folder):
            return
        payload = marshal.dumps(data)
        temporary = folder / f".{name}.{os.getpid()}.tmp"
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as out:
            out.write(CACHE_MAGIC + payload_digest(payload) + payload)
        os.replace(temporary, folder / name)
    except (OSError, ValueError):
        return
    prune(folder, family, keep=keep)


def prune(folder: Path, pattern: str, keep: int) -> None:
    """Delete all but the `keep` newest cache files (each edit of the rules makes one)."""
    try:
        files = sorted(folder.glob(pattern), key=lambda f: f.stat().st_mtime, reverse=True)
        for old in files[keep:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass


def kept_for_files(family: str, paths: Iterable[str | Path], read: Callable, sound: Callable):
    """What `read()` makes of some files, kept on disk by the digest of their
    names and bytes (its `family`, a name with its reader's version, names
    the cache files: `family-<clingo>-<digest>.bin`): the kept data when it
    is there and `sound`, else `read()`'s, kept for the next process. What
    is kept must be plain data, and nothing read becomes program text."""
    import clingo

    paths = [Path(p) for p in paths]

    def digest() -> str | None:
        try:
            data = b"\0".join(p.name.encode() + b"\0" + p.read_bytes() for p in paths)
        except OSError:
            return None
        return content_digest(data)

    folder = cache_dir(os.environ)
    before = digest() if folder is not None else None
    if before is None:
        return read()
    name = f"{family}-{clingo.__version__}-{before}.bin"
    kept = load_checked(folder / name, sound)
    if kept is not None:
        return kept
    made = read()
    # (kept only if the files are still the bytes it is keyed by: `read()`
    # reads them again, and one changed in between is read afresh next time)
    if digest() == before:
        store_checked(folder, name, made, f"{family}-*.bin")
    return made
