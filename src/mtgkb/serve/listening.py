"""Where `mtgkb serve` listens, and how long it waits for a client
(issue 27, items 6 and 7).

- `bind` opens the listening socket itself, before uvicorn: a port already
  in use is a usage error (exit 2) said at once, and `--port 0` gets the port
  the system chose, which `page_urls` prints (an address a browser can open
  for `0.0.0.0` and `::`);
- `guarded_protocol` is uvicorn's HTTP/1.1 protocol with a deadline for the
  request line and headers: uvicorn waits for them forever, so a client that
  opens a connection and sends nothing, or a header a byte at a time
  (slowloris), held a connection and a file descriptor for good.
"""

from __future__ import annotations

import asyncio
import errno
import socket

from mtgkb.serve.guard import is_loopback

#: seconds a client has to send a request's line and headers (--idle-timeout)
HEADER_TIMEOUT = 10.0


class ListenError(Exception):
    """The address cannot be listened on (a usage error, exit 2)."""


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on `host`:`port`; ListenError when it cannot be."""
    try:
        found = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except socket.gaierror as err:
        raise ListenError(f"cannot listen on {host!r}: {err.strerror}") from None
    family, kind, proto, _, address = found[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as err:
        sock.close()
        if err.errno == errno.EADDRINUSE:
            raise ListenError(
                f"the port {port} of {host} is already in use (choose another with --port, "
                "or --port 0 for any free one)"
            ) from None
        raise ListenError(f"cannot listen on {host} port {port}: {err.strerror}") from None
    sock.set_inheritable(True)
    return sock


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def page_urls(host: str, port: int) -> list[str]:
    """The URLs of the page for a server on `host`:`port` (the port bound):
    for every address (`0.0.0.0`, `::`), the loopback one this machine opens."""
    if host in ("", "0.0.0.0"):
        return [f"http://127.0.0.1:{port}/"]
    if host == "::":
        return [f"http://[::1]:{port}/", f"http://127.0.0.1:{port}/"]
    return [f"http://{_url_host(host)}:{port}/"]


def off_loopback(host: str) -> bool:
    """Whether a server on `host` can be reached from other machines."""
    return not is_loopback(host)


def guarded_protocol(header_timeout: float = HEADER_TIMEOUT):
    """uvicorn's h11 protocol class with a deadline of `header_timeout`
    seconds for each request's line and headers, from the connection's
    start or the end of the previous response (data that trickles in does
    not move it)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11Protocol(H11Protocol):
        header_deadline: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            self._disarm()
            self.header_deadline = self.loop.call_later(header_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self.header_deadline is not None:
                self.header_deadline.cancel()
                self.header_deadline = None

        def _too_slow(self) -> None:
            self.header_deadline = None
            if not self.transport.is_closing():
                if self.conn.their_state is h11.IDLE and self.conn.our_state is h11.IDLE:
                    try:
                        self.transport.write(
                            b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\n"
                            b"connection: close\r\n\r\n"
                        )
                    except OSError:  # pragma: no cover - the client is gone
                        pass
                self.transport.close()

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:
                self._disarm()  # the headers are in: the body has its own deadline

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
                self._arm()  # waiting for the next request on this connection

        def connection_lost(self, exc) -> None:
            self._disarm()
            super().connection_lost(exc)

    return GuardedH11Protocol
