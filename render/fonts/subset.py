"""Rebuild the bundled board fonts: a subset of Noto Sans CJK JP, Regular and Bold (SIL OFL 1.1).

A developer's tool, never imported by the bot: fontTools is needed only here (`pip install -e ".[fonts]"`).

Source: Debian's ``fonts-noto-cjk`` 1:20220127+repack1-1 (Noto Sans CJK 2.004, upstream googlefonts/noto-cjk),
face 0 ("Noto Sans CJK JP") of each collection::

    apt-get download fonts-noto-cjk && dpkg -x fonts-noto-cjk_*.deb noto
    python render/fonts/subset.py noto/usr/share/fonts/opentype/noto

The kept characters are :func:`codepoints`: everything a board writes (Latin, punctuation, the symbols the
boards draw) and the Japanese a member's name is most likely written in. Anything else in a name is drawn as
"?" by ``render.base.displayable``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

HERE = Path(__file__).resolve().parent
FACES = {"Regular": "NotoSansCJK-Regular.ttc", "Bold": "NotoSansCJK-Bold.ttc"}
JAPANESE_FACE = 0  # the collections' first face is the JP one (checked below by its name)

RANGES = (
    (0x0020, 0x007E),  # ASCII
    (0x00A0, 0x00FF),  # Latin-1: × · é ü ...
    (0x0100, 0x017F),  # Latin Extended-A: names such as Łukasz, Šárka
    (0x2000, 0x206F),  # general punctuation: – — ‘ ’ “ ” … ‰
    (0x2150, 0x218F),  # number forms
    (0x2190, 0x21FF),  # arrows
    (0x2200, 0x22FF),  # mathematical operators
    (0x2460, 0x24FF),  # enclosed alphanumerics ①
    (0x2500, 0x257F),  # box drawing
    (0x25A0, 0x25FF),  # geometric shapes ● ○ ■ □ ▲
    (0x2600, 0x26FF),  # miscellaneous symbols ★ ☆ ♪
    (0x3000, 0x303F),  # CJK symbols and punctuation: 、。「」々〜
    (0x3040, 0x309F),  # hiragana
    (0x30A0, 0x30FF),  # katakana
    (0x31F0, 0x31FF),  # katakana phonetic extensions
    (0xFF00, 0xFFEF),  # half-width and full-width forms
)


def jis_x_0208() -> set[int]:
    """Every character of JIS X 0208 (rows 1-8 symbols, Greek, Cyrillic, kana; rows 16-47 level-1 kanji; rows
    48-84 level-2 kanji), read from the standard library's EUC-JP codec: 6,879 characters."""
    found: set[int] = set()
    for row in range(1, 95):
        for cell in range(1, 95):
            try:
                text = bytes((0xA0 + row, 0xA0 + cell)).decode("euc_jp")
            except UnicodeDecodeError:
                continue
            if len(text) == 1:
                found.add(ord(text))
    return found


def codepoints() -> set[int]:
    kept = jis_x_0208()
    for first, last in RANGES:
        kept.update(range(first, last + 1))
    return kept


def build(source_dir: Path) -> None:
    options = subset.Options()
    # What a horizontal line of text uses. fontTools' defaults (locl, vert...) pull in the Chinese and Korean forms
    # and the vertical ones through GSUB: 15,601 glyphs and 4.1 MB a weight instead of 7,746 and 1.9 MB.
    options.layout_features = ["kern", "liga", "ccmp", "mark", "mkmk"]

    options.name_IDs = ["*"]  # keep the copyright, licence and trademark notices
    options.name_languages = ["*"]
    options.drop_tables += ["vhea", "vmtx", "VORG"]  # the boards never set text vertically
    options.notdef_outline = True  # the missing-glyph box that render.base compares against
    kept = codepoints()
    for weight, filename in FACES.items():
        font = TTFont(source_dir / filename, fontNumber=JAPANESE_FACE, recalcTimestamp=False)  # reproducible bytes
        assert font["name"].getDebugName(4) == f"Noto Sans CJK JP{'' if weight == 'Regular' else ' ' + weight}", font[
            "name"
        ].getDebugName(4)
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=kept)
        subsetter.subset(font)
        target = HERE / f"NotoSansCJKjp-{weight}.subset.otf"
        font.save(target)
        print(f"{target.name}: {len(font.getBestCmap())} characters, {target.stat().st_size / 1e6:.2f} MB")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    build(Path(sys.argv[1]))
