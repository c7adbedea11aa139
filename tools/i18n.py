#!/usr/bin/env python3
"""The Dutch catalogue's tool: extract, check, missing, compile.

    python tools/i18n.py extract [-o wiezen.pot]   every msgid the program can show
    python tools/i18n.py check                     what is missing, obsolete, or has other {placeholders}
    python tools/i18n.py missing                   .po stubs for the msgids without a Dutch text
    python tools/i18n.py compile                   wiezen.po -> wiezen.mo (the package data read at run time)

The msgids come from three places: ``_()``, ``N_()`` and ``ngettext()`` in wiezen_score (extracted with babel,
a development dependency); the help texts, found by walking the click command tree (paragraph by paragraph,
and the upper-case words of metavars, as cli/dutch.py translates them when shown); and click's own messages
(extracted from the installed click, which looks them up in the default text domain: bound to our catalogue in
Dutch by core/i18n.py).

This tool never rewrites or reorders the .po: two people edit it by hand (one adds near the top, one at the
end). ``missing`` prints stubs to paste; ``compile`` reads the .po and writes only the .mo, deterministically
(the header is copied as written), so the committed .mo can be compared with a fresh compile.

Why the .po is read and the .mo written here rather than with babel's ``read_po``/``write_mo``: babel keeps the
first of two entries with the same msgid without a word (the mistake two people editing one file make), and
its ``write_mo`` writes a header with the current time; here a duplicate is a problem with its line number, and
the same .po always compiles to the same bytes. Babel still does the extraction from the source.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import string
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "wiezen_score"
PO = PACKAGE / "locale" / "nl" / "LC_MESSAGES" / "wiezen.po"
MO = PO.with_suffix(".mo")

KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "NP_": ((1, "c"), 2)}


# --- the .po file -----------------------------------------------------------------------------------------

@dataclass
class Entry:
    msgid: str
    msgid_plural: str | None = None
    msgstr: list[str] = field(default_factory=list)
    context: str | None = None
    fuzzy: bool = False
    line: int = 0

    @property
    def key(self) -> tuple[str | None, str]:
        return self.context, self.msgid

    @property
    def translated(self) -> bool:
        return not self.fuzzy and bool(self.msgstr) and all(self.msgstr)


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "a": "\a", '"': '"', "\\": "\\"}


def unquote(text: str, where: str) -> str:
    text = text.strip()
    if len(text) < 2 or not (text.startswith('"') and text.endswith('"')):
        raise ValueError(f"{where}: expected a quoted string, got {text!r}")
    body, out, i = text[1:-1], [], 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            n = body[i + 1]
            if n in _ESCAPES:
                out.append(_ESCAPES[n])
                i += 2
                continue
            if n in "01234567":
                m = re.match(r"[0-7]{1,3}", body[i + 1:])
                assert m
                out.append(chr(int(m.group(), 8)))
                i += 1 + len(m.group())
                continue
            raise ValueError(f"{where}: unknown escape \\{n}")
        if c == '"':
            raise ValueError(f"{where}: an unescaped quote inside a string")
        out.append(c)
        i += 1
    return "".join(out)


def quote(text: str) -> str:
    for raw, esc in (("\\", "\\\\"), ('"', '\\"'), ("\t", "\\t"), ("\r", "\\r"), ("\b", "\\b"), ("\f", "\\f")):
        text = text.replace(raw, esc)
    if "\n" not in text[:-1]:
        return '"' + text.replace("\n", "\\n") + '"'
    lines = text.split("\n")
    parts = [line + "\\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    return '""\n' + "\n".join(f'"{p}"' for p in parts)


def read_po(path: Path = PO) -> tuple[list[Entry], list[str]]:
    """The entries of a .po file (the header entry first, msgid ''), and the problems found reading it."""
    entries: list[Entry] = []
    problems: list[str] = []
    cur: Entry | None = None
    field_name: str | None = None
    fuzzy = False
    seen: dict[tuple[str | None, str], int] = {}

    def finish() -> None:
        nonlocal cur
        if cur is not None:
            if cur.key in seen:
                problems.append(f"{path.name}:{cur.line}: duplicate msgid {cur.msgid!r} (first at line {seen[cur.key]})")
            else:
                seen[cur.key] = cur.line
                entries.append(cur)
        cur = None

    pending_context: str | None = None
    for no, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        where = f"{path.name}:{no}"
        try:
            if not line:
                continue
            if line.startswith("#"):
                if line.startswith("#,") and "fuzzy" in line:
                    fuzzy = True
                continue
            if line.startswith("msgctxt "):
                finish()
                pending_context = unquote(line[8:], where)
                field_name = "msgctxt"
            elif line.startswith("msgid "):
                if field_name != "msgctxt":
                    finish()
                cur = Entry(unquote(line[6:], where), context=pending_context, fuzzy=fuzzy, line=no)
                pending_context, fuzzy, field_name = None, False, "msgid"
            elif line.startswith("msgid_plural "):
                assert cur is not None, f"{where}: msgid_plural without msgid"
                cur.msgid_plural = unquote(line[13:], where)
                field_name = "msgid_plural"
            elif line.startswith("msgstr["):
                assert cur is not None, f"{where}: msgstr without msgid"
                idx, _, rest = line[7:].partition("]")
                if int(idx) != len(cur.msgstr):
                    raise ValueError(f"{where}: msgstr[{idx}] out of order")
                cur.msgstr.append(unquote(rest, where))
                field_name = "msgstr"
            elif line.startswith("msgstr "):
                assert cur is not None, f"{where}: msgstr without msgid"
                cur.msgstr = [unquote(line[7:], where)]
                field_name = "msgstr"
            elif line.startswith('"'):
                text = unquote(line, where)
                if cur is None and field_name == "msgctxt":
                    pending_context = (pending_context or "") + text
                elif cur is None:
                    raise ValueError(f"{where}: a string outside an entry")
                elif field_name == "msgid":
                    cur.msgid += text
                elif field_name == "msgid_plural":
                    cur.msgid_plural = (cur.msgid_plural or "") + text
                elif field_name == "msgstr":
                    cur.msgstr[-1] += text
            else:
                raise ValueError(f"{where}: cannot read {raw!r}")
        except (ValueError, AssertionError) as e:
            problems.append(str(e))
    finish()
    return entries, problems


def header_field(entries: list[Entry], name: str) -> str | None:
    for e in entries:
        if e.msgid == "" and e.context is None and e.msgstr:
            for line in e.msgstr[0].splitlines():
                key, _, value = line.partition(":")
                if key.strip().lower() == name.lower():
                    return value.strip()
    return None


def compile_mo(entries: list[Entry]) -> bytes:
    """The GNU .mo bytes of the translated entries (fuzzy and empty ones left out, as msgfmt does)."""
    pairs: dict[bytes, bytes] = {}
    for e in entries:
        if e.msgid != "" and not e.translated:
            continue
        key = e.msgid if e.msgid_plural is None else e.msgid + "\0" + e.msgid_plural
        if e.context is not None:
            key = e.context + "\x04" + key
        pairs[key.encode("utf-8")] = "\0".join(e.msgstr).encode("utf-8")
    keys = sorted(pairs)
    ids = b""
    strs = b""
    offsets = []
    for k in keys:
        offsets.append((len(ids), len(k), len(strs), len(pairs[k])))
        ids += k + b"\0"
        strs += pairs[k] + b"\0"
    n = len(keys)
    keystart = 7 * 4 + 16 * n
    valuestart = keystart + len(ids)
    koffsets: list[int] = []
    voffsets: list[int] = []
    for o1, l1, o2, l2 in offsets:
        koffsets += [l1, o1 + keystart]
        voffsets += [l2, o2 + valuestart]
    out = struct.pack("Iiiiiii", 0x950412DE, 0, n, 7 * 4, 7 * 4 + n * 8, 0, 0)
    out += struct.pack(f"{len(koffsets)}i", *koffsets) if koffsets else b""
    out += struct.pack(f"{len(voffsets)}i", *voffsets) if voffsets else b""
    return out + ids + strs


# --- extraction -------------------------------------------------------------------------------------------

@dataclass
class Message:
    msgid: str
    msgid_plural: str | None = None
    places: list[str] = field(default_factory=list)
    context: str | None = None

    @property
    def key(self) -> tuple[str | None, str]:
        return self.context, self.msgid


def key_of(msgid: str, context: str | None = None) -> str:
    """The key of ``found``: the msgid, or ``context\x04msgid`` (as in a .mo file)."""
    return msgid if context is None else f"{context}\x04{msgid}"


def _add(found: dict[str, Message], msgid: str, place: str, plural: str | None = None, context: str | None = None) -> None:
    if not msgid:
        return
    m = found.setdefault(key_of(msgid, context), Message(msgid, plural, context=context))
    if plural and not m.msgid_plural:
        m.msgid_plural = plural
    if place not in m.places:
        m.places.append(place)


def _babel(found: dict[str, Message], files: list[Path], base: Path, label: str) -> None:
    from babel.messages.extract import extract_from_file

    for f in files:
        rel = f"{label}/{f.relative_to(base).as_posix()}"
        for lineno, message, _comments, context in extract_from_file("python", str(f), keywords=KEYWORDS):
            if isinstance(message, tuple):
                _add(found, message[0], f"{rel}:{lineno}", message[1], context)
            else:
                _add(found, message, f"{rel}:{lineno}", context=context)


def _help_tree(found: dict[str, Message]) -> None:
    """The help texts and metavar words of every command, as cli/dutch.py looks them up."""
    sys.path.insert(0, str(ROOT))
    import click

    from wiezen_score.cli import COMMANDS, cli
    from wiezen_score.cli.dutch import command_help, help_paragraphs, metavar_words

    def walk(cmd: click.Command, path: str, parent: click.Context | None) -> None:
        ctx = click.Context(cmd, info_name=path.split()[-1], parent=parent)
        place = f"help: {path}"
        for text in (cmd.help, cmd.short_help, cmd.epilog):
            for p in help_paragraphs(command_help(text)):
                _add(found, p, place)
        for piece in (cmd.options_metavar, getattr(cmd, "subcommand_metavar", None)):
            if piece:
                _add(found, piece, place)
        for param in cmd.params:  # not get_params(ctx): that would make (and cache) a --help option for this ctx
            if isinstance(param, click.Option):
                for p in help_paragraphs(param.help):
                    _add(found, p, f"{place} {param.opts[0]}")
            if not (isinstance(param, click.Option) and (param.is_flag or param.count)):
                for w in metavar_words(param.make_metavar(ctx)):
                    _add(found, w, f"{place} {param.name}")
        if isinstance(cmd, click.Group):
            names = sorted(COMMANDS) if cmd is cli else cmd.list_commands(ctx)
            for name in names:
                sub = cmd.get_command(ctx, name)
                if sub is not None:
                    walk(sub, f"{path} {name}", ctx)

    walk(cli, "wiezen", None)


def click_files() -> list[Path]:
    """click's modules that say something through gettext (looked up in the default text domain, which Dutch
    binds to our catalogue: core/i18n.py)."""
    import click

    base = Path(click.__file__).parent
    return [f for f in sorted(base.glob("*.py")) if "from gettext import" in f.read_text(encoding="utf-8")]


def extract() -> dict[str, Message]:
    """Every msgid the program can show, with where it comes from."""
    found: dict[str, Message] = {}
    sys.path.insert(0, str(ROOT))
    files = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)
    _babel(found, files, ROOT, ".")
    _help_tree(found)
    import click

    _babel(found, click_files(), Path(click.__file__).parent, "click")
    return found


def untracked_calls() -> list[str]:
    """``_()`` calls whose argument is not a plain string (an f-string, a concatenation, a name): these can
    never be in the catalogue."""
    out = []
    for f in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(f.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_", "N_"):
                if not node.args:
                    continue
                arg = node.args[0]
                if isinstance(arg, ast.JoinedStr) or (isinstance(arg, ast.BinOp) and not _plain(arg)):
                    out.append(f"{f.relative_to(ROOT)}:{node.lineno}: {node.func.id}() of a built string")
    return out


def shadowed_underscore() -> list[str]:
    """Functions that call ``_()`` and also bind ``_`` (``x, _ = ...``): the call would find the local name."""
    import symtable

    out = []

    def walk(table: symtable.SymbolTable, where: str) -> None:
        if table.get_type() == "function":
            try:
                sym = table.lookup("_")
            except KeyError:
                sym = None
            if sym is not None and sym.is_assigned() and sym.is_referenced():
                out.append(f"{where}:{table.get_lineno()}: {table.get_name()}() binds _ and calls _()")
        for child in table.get_children():
            walk(child, where)

    for f in sorted(PACKAGE.rglob("*.py")):
        rel = str(f.relative_to(ROOT))
        walk(symtable.symtable(f.read_text(encoding="utf-8"), rel, "exec"), rel)
    return out


def _plain(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _plain(node.left) and _plain(node.right)
    return False


# --- checks -----------------------------------------------------------------------------------------------

_PERCENT = re.compile(r"%(?:\(\w+\))?[sdrif]")
_FIELD = re.compile(r"(?:[A-Za-z_]\w*|\d*)(?:\.\w+|\[[^\]]*\])*")


def placeholders(text: str) -> set[str]:
    """The {names} and %(names)s of a message (what .format / % fill in)."""
    names: set[str] = set()
    try:
        for _lit, name, spec, conv in string.Formatter().parse(text):
            # a replacement field names an argument (name, 0, name.attr, name[key]); '{"path": ...}' or
            # '{ok, ledger}' in a help text describes JSON and is never formatted
            if name is not None and _FIELD.fullmatch(name):
                names.add("{" + name + ("!" + conv if conv else "") + (":" + spec if spec else "") + "}")
    except ValueError:
        names.add("<unbalanced braces>")
    names.update(_PERCENT.findall(text))
    return names


@dataclass
class Report:
    missing: list[Message]
    obsolete: list[Entry]
    placeholder_errors: list[str]
    read_problems: list[str]

    @property
    def failed(self) -> bool:
        return bool(self.missing or self.placeholder_errors or self.read_problems)


def check(po: Path = PO, found: dict[str, Message] | None = None) -> Report:
    entries, problems = read_po(po)
    found = extract() if found is None else found
    by_key = {e.key: e for e in entries}
    missing = [m for m in found.values() if m.key not in by_key or not by_key[m.key].translated]
    obsolete = [e for e in entries if e.msgid and key_of(e.msgid, e.context) not in found]
    bad = []
    for e in entries:
        if not e.msgid or not e.translated:
            continue
        want = placeholders(e.msgid) | (placeholders(e.msgid_plural) if e.msgid_plural else set())
        for i, s in enumerate(e.msgstr):
            got = placeholders(s)
            if e.msgid_plural is None and got != want or e.msgid_plural is not None and not got <= want:
                bad.append(f"{po.name}:{e.line}: msgstr[{i}] has {sorted(got)}, msgid has {sorted(want)}: {e.msgid!r}")
        m = found.get(key_of(e.msgid, e.context))
        if m is not None and (m.msgid_plural or None) != (e.msgid_plural or None):
            bad.append(f"{po.name}:{e.line}: plural {e.msgid_plural!r} differs from the code's {m.msgid_plural!r}")
    return Report(missing, obsolete, bad, problems)


def stub(m: Message) -> str:
    lines = [f"#: {place}" for place in m.places[:3]]
    if m.context is not None:
        lines.append(f"msgctxt {quote(m.context)}")
    lines.append(f"msgid {quote(m.msgid)}")
    if m.msgid_plural:
        lines += [f"msgid_plural {quote(m.msgid_plural)}", 'msgstr[0] ""', 'msgstr[1] ""']
    else:
        lines.append('msgstr ""')
    return "\n".join(lines) + "\n"


def pot(found: dict[str, Message]) -> str:
    out = ['msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n']
    for m in found.values():
        out.append(stub(m))
    return "\n".join(out)


# --- the command line -------------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    ex = sub.add_parser("extract", help="write every msgid as a .pot (stdout by default)")
    ex.add_argument("-o", "--output")
    ck = sub.add_parser("check", help="missing, obsolete and placeholder problems; exit 1 on any but obsolete")
    ck.add_argument("--po", type=Path, default=PO)
    ms = sub.add_parser("missing", help="print .po stubs for the msgids without a Dutch text")
    ms.add_argument("--po", type=Path, default=PO)
    ms.add_argument("--under", action="append", default=[],
                    help="only msgids used under this path (e.g. wiezen_score/cli, help:, click/); repeatable")
    cp = sub.add_parser("compile", help="compile the .po into the .mo next to it")
    cp.add_argument("--po", type=Path, default=PO)
    args = ap.parse_args(argv)

    if args.cmd == "extract":
        text = pot(extract())
        if args.output:
            Path(args.output).write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
        return 0
    if args.cmd == "compile":
        entries, problems = read_po(args.po)
        if problems:
            print("\n".join(problems), file=sys.stderr)
            return 1
        mo = args.po.with_suffix(".mo")
        tmp = mo.with_suffix(".mo.tmp")
        tmp.write_bytes(compile_mo(entries))
        os.replace(tmp, mo)
        print(f"{mo.relative_to(ROOT) if mo.is_relative_to(ROOT) else mo}: "
              f"{sum(1 for e in entries if e.msgid and e.translated)} messages")
        return 0
    report = check(args.po)
    if args.cmd == "missing":
        wanted = [m for m in report.missing
                  if not args.under or any(p.removeprefix("./").startswith(u) for p in m.places for u in args.under)]
        sys.stdout.write("\n".join(stub(m) for m in wanted))
        return 0
    for p in report.read_problems:
        print(f"unreadable: {p}")
    for m in report.missing:
        print(f"missing: {m.msgid!r} ({m.places[0]})")
    for p in report.placeholder_errors:
        print(f"placeholders: {p}")
    for e in report.obsolete:
        print(f"obsolete (not in the code any more): line {e.line}: {e.msgid!r}")
    for u in untracked_calls():
        print(f"not extractable: {u}")
    shadows = shadowed_underscore()
    for u in shadows:
        print(f"shadowed: {u}")
    print(f"{len(report.missing)} missing, {len(report.placeholder_errors)} placeholder problems, "
          f"{len(report.obsolete)} obsolete, {len(report.read_problems)} unreadable")
    return 1 if report.failed or shadows else 0


if __name__ == "__main__":
    sys.exit(main())
