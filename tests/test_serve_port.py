"""``make serve`` on a port another server holds: it says which address is taken and how to
pick another, instead of MkDocs' traceback, and starts nothing (macros/site/serve.py)."""

import socket

from macros.site import serve


def test_a_busy_port_is_named_with_how_to_pick_another(capsys):
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        assert serve.main(["-a", f"127.0.0.1:{port}"]) == 1
    assert capsys.readouterr().err == (
        f"make serve: 127.0.0.1:{port} is already in use (another make serve, or another server, is running). "
        f"Stop it, or serve on another port: make serve SERVE_ADDR=127.0.0.1:{port + 1}\n"
    )


def test_a_free_port_is_not_busy():
    """The control: the check does not refuse a port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert not serve.busy(f"127.0.0.1:{port}")
