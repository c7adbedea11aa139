"""The session-file grammar (shared/INTERFACE.md), shared by `replay` and `play`. Pure.

    session "Café De Kroon" 2026-11-27      name and date (both optional)
    rules rupelstreek                       house rules (default whisthub)
    players jan piet mieke lotte [dealer piet]
    tag kampioenschap-2026                  the competition the session belongs to (optional)
    round 2 table 3                         a night with several tables: round and table (optional)
    samen 8 jan+piet 9                      a deal line
    pas                                     rondje pas (also: pass, passen, rondje pas)
    redeal carte blanche                    a redeal; the rest of the line is the reason ("carte blanche"
                                            alone is a redeal too)
    penalty jan renonce in troef            strafpunten; "penalty jan round te laat" for a round
    join kris [after piet]                  a player sits down (Dutch: kris schuift aan [na piet])
    leave piet                              a player gets up (Dutch: piet stopt)
    undo [reason]
    amend 3 samen 8 jan+piet 8              (play only in practice; replay accepts it too)

The Dutch words a table uses are accepted too, whatever the language: sessie, regels, spelers ... deler piet,
label, ronde 2 tafel 3, straf jan [rondje], opnieuw delen / herdelen, ongedaan [maken], verbeter 3 ...
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import WiezenError
from .i18n import _
from .session import EntryInput
from .text import LazyPattern, as_count, is_digits, shorten


@dataclass(frozen=True, slots=True)
class Header:
    key: str  # session | rules | players | tag | round
    name: str = ""
    date: str = ""
    rules: str = ""
    players: tuple[str, ...] = ()
    dealer: str = ""
    tag: str = ""
    round: int | None = None
    table: int | None = None


#: a competition's tag: a word of letters, digits, hyphens, dots or underscores
TAG_RE = LazyPattern(r"^[\w][\w.-]{0,59}$")
MAX_ROUND = 99  # rounds in a night, tables in a round


def check_tag(tag: str) -> str:
    if not TAG_RE.match(tag):
        raise WiezenError(
            _("bad tag '{tag}': one word of letters, digits, '-', '.' or '_' (at most 60), e.g. kampioenschap-2026").format(
                tag=tag
            )
        )
    return tag


def check_number(value: int, what: str) -> int:
    if not 1 <= value <= MAX_ROUND:
        raise WiezenError(_("{what} must be 1 to {most}, not {value}").format(what=what, most=MAX_ROUND, value=value))
    return value


@dataclass(frozen=True, slots=True)
class Undo:
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Amend:
    no: int
    entry: EntryInput
    reason: str = ""


Line = Header | EntryInput | Undo | Amend

#: a rondje pas, as the scorer may write it (also "rondje pas", two words)
PASS_WORDS = ("pas", "pass", "passen", "rondje-pas")

_DATE = LazyPattern(r"^\d{4}-\d{2}-\d{2}$")


#: the first word of a line as a Dutch-speaking table types it, accepted whatever the language, by `play` and in
#: the session files given to `replay`: the kinds of line of a session file and play's own commands (those mean
#: something in play only). "pas"/"pass", "rondje pas" and "carte blanche" are the grammar's own words.
DUTCH_HEADS = {
    "hulp": "help", "stop": "quit", "stoppen": "quit", "blad": "sheet", "scoreblad": "sheet", "uitleg": "explain",
    "afrekenen": "settle", "einde": "end", "sluiten": "end", "ongedaan": "undo", "verbeter": "amend",
    "verbeteren": "amend", "straf": "penalty", "strafpunten": "penalty", "herdelen": "redeal", "spelers": "players",
    "regels": "rules", "huisregels": "rules", "sessie": "session", "spelen": "deals", "rondes": "rounds",
    "doel": "target", "ronde": "round", "tafel": "table", "label": "tag", "uitspraak": "precedent",
}


def canonical_line(line: str) -> str:
    """``line`` with its Dutch words put in the words of the grammar (``ongedaan`` -> ``undo``, ``straf jan
    rondje`` -> ``penalty jan round``, ``spelers ... deler jan`` -> ``players ... dealer jan``, ``ronde 2 tafel 3``);
    a line without any comes back unchanged."""
    words = line.split()
    if not words:
        return line
    head = words[0].lower()
    changed = True
    if head == "ongedaan" and len(words) > 1 and words[1].lower() == "maken":
        words = ["undo", *words[2:]]
    elif head == "opnieuw" and len(words) > 1 and words[1].lower() == "delen":
        words = ["redeal", *words[2:]]
    elif len(words) >= 3 and [w.lower() for w in words[1:3]] == ["schuift", "aan"]:  # kris schuift aan [na piet]
        if len(words) == 3 or (len(words) == 5 and words[3].lower() == "na"):
            words = ["join", words[0], *(["after", words[4]] if len(words) == 5 else [])]
        else:
            words = ["join", "?", "?", "?", "?"]  # (the usage line of join)
    elif len(words) == 2 and words[1].lower() == "stopt" and head not in DUTCH_HEADS:  # piet stopt
        words = ["leave", words[0]]
    elif head in DUTCH_HEADS:
        if DUTCH_HEADS[head] == "session":  # the rest as typed: a quoted name keeps its spaces
            return "session" + line.lstrip()[len(words[0]):]
        words = [DUTCH_HEADS[head], *words[1:]]
    else:
        changed = False
    head = words[0].lower()
    if head == "penalty" and len(words) > 2 and words[2].lower() == "rondje":
        words[2], changed = "round", True
    elif head == "players" and len(words) >= 3 and words[-2].lower() == "deler":
        words[-2], changed = "dealer", True
    elif head in ("round", "table"):
        fixed = [{"ronde": "round", "tafel": "table"}.get(w.lower(), w) for w in words]
        changed = changed or fixed != words
        words = fixed
    elif head == "amend" and len(words) > 2:
        entry = canonical_line(" ".join(words[2:]))
        if entry != " ".join(words[2:]):
            words, changed = [*words[:2], *entry.split()], True
    return " ".join(words) if changed else line


def parse_entry(words: list[str]) -> EntryInput | Undo:
    """An entry line (no header): deal, pas, redeal, penalty, undo."""
    if not words:
        raise WiezenError(_("an empty entry: give a deal line, pas, redeal or penalty, e.g. 'samen 8 jan+piet 9'"))
    head = words[0].lower()
    rest = " ".join(words[1:])
    if head == "rondje" and len(words) > 1 and words[1].lower() in ("pas", "pass"):  # what the table says
        head, words = "rondje-pas", ["rondje-pas", *words[2:]]
    if head in PASS_WORDS:
        if len(words) > 1:
            raise WiezenError(
                _("'{word}' takes nothing after it").format(word="rondje pas" if head == "rondje-pas" else words[0])
            )
        return EntryInput("pass")
    if head == "carte" and len(words) > 1 and words[1].lower() == "blanche":
        head, words = "carte-blanche", ["carte-blanche", *words[2:]]
    if head == "carte-blanche":
        return EntryInput("redeal", reason=" ".join(["carte blanche", *words[1:]]))
    if head == "redeal":
        return EntryInput("redeal", reason=rest)
    if head == "undo":
        return Undo(rest)
    if head in ("join", "leave"):
        if head == "join" and (len(words) == 2 or (len(words) == 4 and words[2].lower() == "after")):
            return EntryInput("join", offender=words[1], after=words[3] if len(words) == 4 else "")
        if head == "leave" and len(words) == 2:
            return EntryInput("leave", offender=words[1])
        raise WiezenError(_("write 'join kris', 'join kris after piet' or 'leave piet' (in Dutch: 'kris schuift "
                            "aan', 'kris schuift aan na piet', 'piet stopt')"))
    if head == "penalty":
        if len(words) < 2:
            raise WiezenError(_("penalty needs the offender: 'penalty jan renonce in troef'"))
        is_round = len(words) > 2 and words[2].lower() == "round"
        reason = " ".join(words[3:] if is_round else words[2:])
        deal_no = None
        m = re.match(r"^deal ([0-9]+)\b\s*(.*)$", reason)
        if m:
            deal_no, reason = as_count(m.group(1)), m.group(2)
            if deal_no is None:
                raise WiezenError(_("penalty ... deal {no}: no deal has that number").format(no=shorten(m.group(1))))
        # a first word of the reason that names a kind of [penalties] is the kind (core/session.py: penalty_kind)
        return EntryInput("penalty", offender=words[1], round=is_round, reason=reason, deal_no=deal_no,
                          penalty_kind=None)
    return EntryInput("deal", text=" ".join(words))


def parse_line(line: str) -> Line | None:
    """One line of a session file, in English or Dutch words (:func:`canonical_line`); None for blank lines and
    comments."""
    s = canonical_line(line.strip())
    if not s or s.startswith("#"):
        return None
    words = s.split()
    head = words[0].lower()
    if head == "session":
        try:
            import shlex

            parts = shlex.split(s[len(words[0]):])
        except ValueError as e:
            raise WiezenError(_("session line: {why}").format(why=e)) from None
        from .dates import looks_like_date

        date = ""
        if len(parts) >= 2 and parts[-2].lower() in ("last", "vorige", "afgelopen") and looks_like_date(" ".join(parts[-2:])):
            date = f"{parts[-2]} {parts.pop()}"  # "last friday", "vorige vrijdag"
            parts.pop()
        elif parts and (_DATE.match(parts[-1]) or looks_like_date(parts[-1])):
            date = parts.pop()  # 2026-11-27, 27/11/2026, gisteren ...
        return Header("session", name=" ".join(parts), date=date)
    if head == "rules":
        if len(words) != 2:
            raise WiezenError(_("rules line: 'rules NAME', e.g. 'rules rupelstreek'"))
        return Header("rules", rules=words[1])
    if head == "tag":
        if len(words) != 2:
            raise WiezenError(_("tag line: 'tag NAME', e.g. 'tag kampioenschap-2026'"))
        return Header("tag", tag=check_tag(words[1]))
    if head in ("round", "table"):
        # "round 2", "table 3", "round 2 table 3"
        pairs = [w.lower() for w in words]
        rnd = tno = None
        ok = len(pairs) in (2, 4)
        for i in range(0, len(pairs) - 1, 2):
            if pairs[i] not in ("round", "table") or not pairs[i + 1].isdigit():
                ok = False
                break
            n = check_number(int(pairs[i + 1]), pairs[i])
            if pairs[i] == "round":
                rnd = n
            else:
                tno = n
        if not ok:
            raise WiezenError(_("round line: 'round N', 'table T' or 'round N table T', e.g. 'round 2 table 3'"))
        return Header("round", round=rnd, table=tno)
    if head == "players":
        names = words[1:]
        dealer = ""
        if len(names) >= 2 and names[-2].lower() == "dealer":
            dealer = names[-1]
            names = names[:-2]
        if not 4 <= len(names) <= 6:
            raise WiezenError(_("players line: a table has 4 to 6 players, not {n}").format(n=len(names)))
        return Header("players", players=tuple(names), dealer=dealer)
    if head == "amend":
        if len(words) < 3 or not is_digits(words[1]):
            raise WiezenError(_("amend line: 'amend N DEAL', e.g. 'amend 3 samen 8 jan+piet 8'"))
        no = as_count(words[1])
        if no is None:
            raise WiezenError(_("amend line: there is no entry {no}").format(no=shorten(words[1])))
        entry = parse_entry(words[2:])
        if isinstance(entry, Undo):
            raise WiezenError(_("amend N takes a deal, pas, redeal or penalty, not undo"))
        return Amend(no, entry)
    return parse_entry(words)
