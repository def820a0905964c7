"""Processes seen through Linux's /proc, for the tests that check that worker processes end with their parent."""
from __future__ import annotations

from pathlib import Path


def _state_and_parent(pid) -> tuple[str, int] | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2:].split()       # after the command's name, which may hold spaces
    return fields[0], int(fields[1])


def children(pid: int) -> list[int]:
    """The live (not zombie) child processes of ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            seen = _state_and_parent(entry.name)
            if seen is not None and seen[1] == pid and seen[0] != "Z":
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie does not)."""
    seen = _state_and_parent(pid)
    return seen is not None and seen[0] != "Z"


def cmdline(pid: int) -> str:
    """The command line of ``pid``, its arguments joined by spaces ("" once it has ended)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""
