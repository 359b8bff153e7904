#!/usr/bin/env python3
"""text-width.py — prints the two tables of src/base/text.c's
text_char_width: the code points a terminal draws in no column and those
it draws in two, as ranges, from the Unicode database of the Python that
runs it (unicodedata.unidata_version says which).

    python3 mk/text-width.py

and paste its output over the tables in src/base/text.c when Unicode
gains wide or combining characters the tables lack.

No column: the nonspacing and enclosing marks (Mn, Me), the format
characters (Cf) but for those a terminal shows (the soft hyphen, the
Arabic and Kaithi number signs that carry the digits after them), and
the conjoining Hangul vowels and final consonants (U+1160-11FF,
U+D7B0-D7FF), which join the syllable before them. Two columns: East
Asian Wide and Fullwidth (Unicode's EastAsianWidth.txt), and whole the
CJK blocks and planes that EastAsianWidth.txt makes wide even where
nothing is assigned yet. A range runs on over a few unassigned code
points (under 16) between two of its kind, so that the tables stay
short.
"""
import unicodedata as u

SHOWN_CF = {0x00AD, 0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06DD,
            0x070F, 0x0890, 0x0891, 0x08E2, 0x110BD, 0x110CD}
GAP = 16
WIDE_BLOCKS = [(0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF),
               (0x20000, 0x2FFFD), (0x30000, 0x3FFFD)]


def zero(c):
    cat = u.category(chr(c))
    return (cat in ("Mn", "Me") or (cat == "Cf" and c not in SHOWN_CF) or
            0x1160 <= c <= 0x11FF or 0xD7B0 <= c <= 0xD7FF)


def wide(c):
    if any(a <= c <= b for a, b in WIDE_BLOCKS):
        return True
    return u.category(chr(c)) != "Cn" and u.east_asian_width(chr(c)) in ("W", "F")


def ranges(pred):
    out = []
    for c in range(0x300, 0x110000):
        if 0xD800 <= c <= 0xDFFF or not pred(c):
            continue
        if out and c - out[-1][1] <= GAP and \
                all(u.category(chr(x)) == "Cn" for x in range(out[-1][1] + 1, c)):
            out[-1][1] = c
        else:
            out.append([c, c])
    return out


def table(name, rs):
    print("static const struct span %s[] = {" % name)
    cells = ["{ 0x%04x, 0x%04x }," % (a, b) for a, b in rs]
    for i in range(0, len(cells), 4):
        print("\t" + " ".join(cells[i:i + 4]))
    print("};")


print("/* Unicode %s (mk/text-width.py) */" % u.unidata_version)
table("zero_width", ranges(zero))
table("double_width", ranges(wide))
