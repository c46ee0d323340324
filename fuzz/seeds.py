#!/usr/bin/env python3
"""Seed corpora for the fuzz targets, from the lines of real PCGen data.

Usage (from the repository root):

    python3 fuzz/seeds.py ../shared/pcgen-corpus fuzz/corpus

Writes `fuzz/corpus/<target>/<sha1>` files (libFuzzer's layout; `fuzz/corpus` is git-ignored):

* parse_formula, check_formula, dialect_fics, dialect_untermud: formulas found in the data
  (the value of DEFINE/VALUE tokens and the formula field of MODIFY, MODIFYOTHER and BONUS),
  each once; the dialect targets get them too (their parsers must survive any text);
* check_lst: for every LST file a PCC lists under one of the 28 file tokens, a few runs of
  consecutive lines, prefixed by the byte that makes the target list the file under that
  token (the target picks `FileKind::LOAD_ORDER[first byte % 28]`).

Deterministic: the same corpus gives the same seeds (sorted inputs, no randomness). At most
MAX_PER_TARGET seeds per target, chosen evenly over the sorted candidates.
"""

import hashlib
import os
import sys

# FileKind::LOAD_ORDER (src/load/campaign.rs), by PCC token.
LOAD_ORDER = [
    "DATACONTROL", "DATATABLE", "VARIABLE", "DYNAMIC", "GLOBALMODIFIER", "ABILITYCATEGORY",
    "SIZE", "STAT", "SAVE", "ALIGNMENT", "WEAPONPROF", "ARMORPROF", "SHIELDPROF", "SKILL",
    "LANGUAGE", "FEAT", "ABILITY", "RACE", "DOMAIN", "SPELL", "DEITY", "CLASS", "TEMPLATE",
    "EQUIPMOD", "EQUIPMENT", "COMPANIONMOD", "KIT", "BIOSET",
]
MAX_PER_TARGET = 3000
LINES_PER_SEED = 4
RUNS_PER_FILE = 2
FORMULA_CHARS = set("()+-*/<>=!&|^%")


def decode(raw):
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


def read_lines(path):
    with open(path, "rb") as f:
        return decode(f.read()).splitlines()


def formulas_of(line):
    """The formula-looking values of the tokens of one LST line."""
    for token in line.split("\t"):
        key, sep, value = token.partition(":")
        if not sep:
            continue
        fields = value.split("|")
        if key in ("MODIFY", "MODIFYOTHER"):
            # MODIFY:var|ADD|formula[|PRIORITY=n]; MODIFYOTHER:scope|obj|var|ADD|formula
            at = 2 if key == "MODIFY" else 4
            cands = fields[at:at + 1]
        elif key in ("DEFINE", "BONUS"):
            cands = fields[1:3]
        elif key == "VALUE":
            cands = [value]
        else:
            continue
        for c in cands:
            if c and (set(c) & FORMULA_CHARS) and not c.startswith(("PRE", "!PRE", "TYPE=")):
                yield c


def listed_files(data_root):
    """(kind index, path) of every LST file a PCC lists under a file token."""
    for dirpath, dirnames, filenames in os.walk(data_root):
        dirnames.sort()
        for name in sorted(filenames):
            if not name.lower().endswith(".pcc"):
                continue
            pcc = os.path.join(dirpath, name)
            for line in read_lines(pcc):
                key, sep, value = line.partition(":")
                if not sep or key not in LOAD_ORDER:
                    continue
                target = value.split("|")[0].split("(")[0].strip()
                if target.startswith("@/"):
                    path = os.path.join(data_root, target[2:])
                elif target.startswith("*/"):
                    path = os.path.join(data_root, target[2:])
                else:
                    path = os.path.join(dirpath, target)
                path = os.path.normpath(path)
                if os.path.isfile(path):
                    yield LOAD_ORDER.index(key), path


def spread(items, n):
    """At most n of items, evenly spaced."""
    if len(items) <= n:
        return items
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


def write(out_dir, target, seeds):
    d = os.path.join(out_dir, target)
    os.makedirs(d, exist_ok=True)
    for s in seeds:
        with open(os.path.join(d, hashlib.sha1(s).hexdigest()), "wb") as f:
            f.write(s)
    print(f"{target}: {len(seeds)} seeds")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    corpus, out_dir = sys.argv[1], sys.argv[2]
    data_root = os.path.join(corpus, "data")
    formulas = set()
    lst_seeds = []
    seen = set()
    for kind, path in listed_files(data_root):
        if (kind, path) in seen:
            continue
        seen.add((kind, path))
        lines = [l for l in read_lines(path) if l.strip() and not l.startswith("#")]
        for line in lines:
            formulas.update(formulas_of(line))
        if not lines:
            continue
        for r in range(RUNS_PER_FILE):
            start = (len(lines) * r) // RUNS_PER_FILE
            body = "\n".join(lines[start:start + LINES_PER_SEED]) + "\n"
            lst_seeds.append(bytes([kind]) + body.encode("utf-8"))
    formula_seeds = spread(sorted(f.encode("utf-8") for f in formulas), MAX_PER_TARGET)
    for target in ("parse_formula", "check_formula", "dialect_fics", "dialect_untermud"):
        write(out_dir, target, formula_seeds)
    write(out_dir, "check_lst", spread(sorted(set(lst_seeds)), MAX_PER_TARGET))


if __name__ == "__main__":
    main()
