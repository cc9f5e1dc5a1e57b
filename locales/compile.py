"""Compile the .po catalogues into the .mo files the bot loads: ``python -m locales.compile``.

The .mo files are committed next to their .po (so an install needs no build step), and a test compiles every .po
again and compares: a .po edited without recompiling fails the suite (``python -m locales.compile --check``).
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALES_DIR = Path(__file__).parent


def compiled(po: Path) -> bytes:
    """The .mo bytes of a .po file: translated messages only, plural forms as its header says."""
    with po.open("rb") as handle:
        catalog = read_po(handle, locale=po.parent.parent.name)
    # Babel writes its own version into the header ("Generated-By: Babel 2.18.0"): without this, a newer Babel on a
    # fresh machine would call every committed .mo stale.
    headers = catalog.mime_headers
    catalog._get_mime_headers = lambda: [(name, value) for name, value in headers if name != "Generated-By"]  # type: ignore[method-assign]
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def stale() -> list[Path]:
    """The .mo files missing or not matching their .po."""
    return [
        po.with_suffix(".mo")
        for po in sorted(LOCALES_DIR.glob("*/LC_MESSAGES/*.po"))
        if not po.with_suffix(".mo").exists() or po.with_suffix(".mo").read_bytes() != compiled(po)
    ]


def main(argv: list[str]) -> int:
    if "--check" in argv:
        out_of_date = stale()
        for path in out_of_date:
            print(f"{path} is out of date: run python -m locales.compile", file=sys.stderr)
        return 1 if out_of_date else 0
    for po in sorted(LOCALES_DIR.glob("*/LC_MESSAGES/*.po")):
        po.with_suffix(".mo").write_bytes(compiled(po))
        print(f"compiled {po.with_suffix('.mo')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
