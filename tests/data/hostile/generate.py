"""Writes corpus.jsonl: hostile inputs for every command (run by tests/e2e/test_hostile_corpus.py).

Each line: {"id", "args", "stdin" (or null), "files" ({name: text}, or {name: {"fifo": true}} / {"dir": true}),
"ledger": "open" | "none", "env" ({NAME: value})}. Texts hold invalid bytes as lone surrogates (Python's
surrogateescape), as the command line and stdin deliver them. Run: python tests/data/hostile/generate.py
"""

from __future__ import annotations

import json
from pathlib import Path

ESC = ["\x1b[2J", "\x1b]52;c;aGVsbG8=\x07", "\x1b[31mred", "a\nb", "a\rb", "\u202eevil", "\x00nul", "\x9b2J",
       "\u2028line", "tab\tx", "\x7fdel", "\ufeffbom", "\u200bzw"]
BAD_UTF8 = ["\udce9", "caf\udce9", "\udcff\udcfe"]
NUMBERS = ["²", "١٠", "1_0", "99999999999999999999", "9" * 5000, "-1", "0", "+3", "1e3", "9.5", "nan", " 7", "",
           str(2**63), str(2**64)]
TEXTS = ESC + BAD_UTF8 + ["", " ", "x" * 5000, "'", '"', "--", "-", "=cmd()", "@SUM(1)"]

cases: list[dict] = []


def add(args, stdin=None, files=None, ledger="open", env=None):
    cases.append({"id": len(cases) + 1, "args": args, "stdin": stdin, "files": files or {}, "ledger": ledger,
                  "env": env or {}})


# deal lines and their relatives
for w in NUMBERS:
    add(["deal", "samen", w, "jan+piet", "9"])
    add(["deal", "samen", "8", "jan+piet", w])
    add(["calc", "--", "samen", w, "A+B", "9"])
    add(["amend", w, "pas"])
    add(["explain", w])
    add(["sheet", "--session", w])
for w in ["over-troel", "OVER-TROEL", " ", "", "+", "jan+", "+piet", "jan+jan", "samen", "pas pas"]:
    add(["deal", "--", w])
    add(["amend", "2", w])
    add(["calc", "--", w])
add(["deal", "samen", "²", "jan+piet", "9"])
add(["deal", "over-troel"])
add(["amend", "2", " "])
for t in TEXTS:
    add(["deal", "--", "samen", "8", t, "9"])
    add(["session", "start", "--players", f"an,bert,carla,{t}"], ledger="none")
    add(["session", "start", "--players", "an,bert,carla,dirk", "--name", t], ledger="none")
    add(["penalty", "jan", "--reason", t])
    add(["redeal", "--reason", t])
    add(["undo", "--reason", t])
    add(["precedent", "add", t, "--ruling", "r"])
    add(["precedent", "add", "title", "--ruling", t])
    add(["precedent", "add", "title", "--ruling", "r", "--tag", t])
    add(["precedent", "search", t])
    add(["calc", "--players", f"a,b,c,{t}", "samen", "8", "a+b", "9"])
    add(["sessions", "--since", t])
for b in BAD_UTF8:
    add(["calc", "--each", "deals.txt"], files={"deals.txt": f"samen 8 A+B 9\n{b}\n"})
    add(["calc", "--each", "-"], stdin=f"samen 8 A+B 9\n{b}\n")
    add(["replay", "-"], stdin=f'session "x" 2026-11-27\nplayers a b c d\nsamen 8 a+b {b}\n', ledger="none")
    add(["play"], stdin=f"samen 8 jan+piet 9\n{b}\n")
    add(["import", "-"], stdin=b)
# ids and counts above 2**63
for w in [str(2**63), str(2**63 + 1), "9" * 40]:
    for args in (["precedent", "show", w], ["precedent", "edit", w, "--title", "t"], ["export", "--session", w],
                 ["settle", "--session", w], ["penalty", "jan", "--deal", w], ["sheet", "--last", w],
                 ["precedent", "list", "--session", w], ["precedent", "add", "t", "--ruling", "r", "--deal", w]):
        add(args)
# the 63rd rondje pas under double = "stack"
STACK = ('name = "stapel"\npenalty = 5\n[all_pass]\ndouble = "stack"\n'
         '[contracts.samen]\nteam = true\nlevels = [8]\nmade = [2]\nlost = [2]\n')
add(["replay", "avond.txt"], files={"stapel.toml": STACK,
    "avond.txt": "rules stapel.toml\nplayers a b c d\n" + "pas\n" * 63 + "samen 8 a+b 9\n"}, ledger="none")
add(["replay", "avond.txt"], files={"stapel.toml": STACK,
    "avond.txt": "rules stapel.toml\nplayers a b c d\n" + "pas\n" * 21}, ledger="none")
# house rules with huge numbers, deep nesting, junk
BASE = 'name = "club"\n[contracts.samen]\nteam = true\nlevels = [8]\nmade = [2]\nlost = [2]\n'
for toml in [BASE.replace('name = "club"\n', f'name = "club"\npenalty = {10**400}\n'),
             BASE.replace('name = "club"\n', f'name = "club"\npenalty = {"9" * 5000}\n'),
             BASE + "x = " + "[" * 5000 + "]" * 5000 + "\n", BASE + "x = " + "{a=" * 3000 + "1" + "}" * 3000 + "\n",
             BASE.replace("made = [2]", f"made = [{10**30}]"), BASE.replace('"club"', '"\x1b[2J"'),
             "\udce9\udce9", "", "[[[", BASE.replace("levels = [8]", "levels = [" + ",".join(["8"] * 3000) + "]")]:
    add(["rules", "add", "r.toml"], files={"r.toml": toml})
    add(["rules", "show", "r.toml"], files={"r.toml": toml})
    add(["calc", "--rules", "r.toml", "samen", "8", "A+B", "9"], files={"r.toml": toml})
    add(["session", "start", "--players", "an,bert,carla,dirk", "--rules", "r.toml"], files={"r.toml": toml},
        ledger="none")
# imports: deep JSON, huge numbers, hostile precedents
PREC = {"uid": "p1", "date": "2026-11-27", "session": None, "entry_no": None, "entry": None, "players": [],
        "origin": "ruling", "created_at": "2026-11-27T20:00:00+00:00",
        "versions": [{"version": 1, "title": "t", "ruling": "r", "tags": [], "note": "", "edited_at": "2026-11-27"}]}


def export(precs=None, sessions=None):
    return json.dumps({"format": "wiezen-export", "version": 1, "sessions": sessions or [],
                       "precedents": precs or []}, ensure_ascii=False)


for doc in ["[" * 20000 + "]" * 20000, "{\"a\":" * 20000 + "1" + "}" * 20000, "9" * 5000,
            '{"format": "wiezen-export", "version": ' + "9" * 5000 + ', "sessions": []}', "", "\ufeff{}", "null",
            export([{**PREC, "versions": [{**PREC["versions"][0], "title": ""}]}]),
            export([{**PREC, "versions": [{**PREC["versions"][0], "title": "   "}]}]),
            export([{**PREC, "versions": [{**PREC["versions"][0], "ruling": ""}]}]),
            export([{**PREC, "date": "not-a-date"}]), export([{**PREC, "date": "2026-02-30"}]),
            export([{**PREC, "versions": [{**PREC["versions"][0], "title": "a\x02b"}]}]),
            export([{**PREC, "versions": [{**PREC["versions"][0], "title": "two\nlines"}]}]),
            export([{**PREC, "versions": [{**PREC["versions"][0], "tags": ["\udce9"]}]}]),
            export([{**PREC, "entry_no": 2**70}]), export([{**PREC, "uid": ""}])]:
    add(["import", "x.json"], files={"x.json": doc})
    add(["import", "-"], stdin=doc)
    add(["import", "--dry-run", "x.json"], files={"x.json": doc})
# session files: BOM on stdin, hostile names and reasons
for text in ['\ufeffsession "x" 2026-11-27\nplayers a b c d\nsamen 8 a+b 9\n',
             'players a b c d\npenalty a \x1b[2J\x1b]52;c;eA==\x07\n', 'players a b c d\npenalty a renonce\n 9 fake\n',
             'players jan jаn piet mieke\n', 'players Émile émile a b\n', 'players раре pape a b\n',
             'players a b c d\nsamen ² a+b 9\n', 'players a b c d\namend 99999999999999999999 pas\n',
             'players a b c d\npenalty a deal ' + "9" * 5000 + ' x\n', 'players a b c d\nover-troel\n',
             'session "\x1b[2J" 2026-11-27\nplayers a b c d\n', 'players a b c d dealer \x1b[2J\n']:
    add(["replay", "-"], stdin=text, ledger="none")
    add(["replay", "f.txt"], files={"f.txt": text}, ledger="none")
    add(["play"], stdin=text, ledger="none")
# paths: empty, a folder, a FIFO, a device, a missing folder, odd names
for cmd in (["sessions"], ["check"], ["sheet"], ["db", "backup", "copy.db"], ["deal", "samen", "8", "jan+piet", "9"],
            ["precedent", "list"], ["standings"], ["export"], ["settle"], ["rules", "list"], ["undo"], ["pass"],
            ["session", "end"], ["calc", "samen", "8", "A+B", "9"], ["precedent", "search", "x"]):
    add(["--db", "", *cmd], ledger="none")
    add(["--db", "d.db", *cmd], files={"d.db": {"dir": True}}, ledger="none")
    add(["--db", "p.db", *cmd], files={"p.db": {"fifo": True}}, ledger="none")
    add(["--db", "/dev/null", *cmd], ledger="none")
    add(["--db", "no/such/dir/x.db", *cmd], ledger="none")
    add(cmd, ledger="none", env={"WIEZEN_DB": "p.db"}, files={"p.db": {"fifo": True}})
add(["--db", "", "session", "start", "--players", "a,b,c,d"], ledger="none")
add(["--db", "d.db", "session", "start", "--players", "a,b,c,d"], files={"d.db": {"dir": True}}, ledger="none")
add(["--db", "p.db", "replay", "-"], stdin="players a b c d\n", files={"p.db": {"fifo": True}}, ledger="none")
add(["--db", "\x1b[2J.db", "sheet"], ledger="none")
add(["--db", "x\udce9.db", "sheet"], ledger="none")
add(["db", "backup", "p"], files={"p": {"fifo": True}})
add(["db", "backup", "d"], files={"d": {"dir": True}})
add(["db", "backup", "no/such/dir/copy.db"])
add(["replay", "d"], files={"d": {"dir": True}})
add(["import", "d"], files={"d": {"dir": True}})
add(["rules", "add", "d"], files={"d": {"dir": True}})
add(["calc", "--each", "d"], files={"d": {"dir": True}})
add(["export", "-o", "d"], files={"d": {"dir": True}})
add(["export", "-o", "no/such/dir/x.json"])
# options and words that are not what they look like
for args in (["--bogus\x1b[2J"], ["sheet", "--format", "\x1b[2J"], ["standings", "--format", "\x1b]52;c;eA==\x07"],
             ["settle", "--cents", "²"], ["calc", "--multiplier", "9" * 30, "samen", "8", "A+B", "9"],
             ["calc", "--multiplier", str(2**21), "samen", "8", "A+B", "9"], ["sheet", "--last", "0"],
             ["precedent", "search", "--limit", "99999999999999999999", "x"], ["nosuchcommand\x1b[2J"],
             ["session", "start", "--players", "a,b,c,d", "--date", "\x1b[2J"],
             ["session", "start", "--players", "a,b,c,d", "--dealer", "\x1b[2J"], ["sessions", "--until", "9" * 5000]):
    add(list(args))

out = Path(__file__).with_name("corpus.jsonl")
with out.open("w", encoding="utf-8", errors="surrogatepass") as f:
    for c in cases:
        f.write(json.dumps(c, ensure_ascii=True) + "\n")
print(f"{len(cases)} cases -> {out}")
