"""Payloads of crafted pickles: unpickled, each writes its marker file, the code an attacker's file would run.
The tests of the restricted unpickler check that the marker never appears."""
from __future__ import annotations


class WriteMarker:
    """Unpickled, writes the marker file (through builtins.exec)."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (exec, (f"open({self.marker!r}, 'w').write('ran')",))


class System:
    """Unpickled, writes the marker file through os.system (posix.system in the pickle)."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        import os

        return (os.system, (f"touch '{self.marker}'",))
