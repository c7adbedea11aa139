"""The shape of an export document, checked before an import writes anything: each part, with a message naming it.

An entry is checked by one test after another (a 20,000-entry file is checked entry by entry: a message is
made only for the problem found).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, TypeGuard

from ..core.errors import WiezenError
from ..core.i18n import _
from .export import EXPORT_FORMAT, EXPORT_VERSION

_KINDS = ("deal", "pass", "redeal", "penalty", "join", "leave")
_SESSION_KEYS = ("uid", "name", "date", "rules_name", "rules_toml", "first_dealer", "started_at", "ended_at",
                 "source_hash", "players", "entries")  # fmt: skip
_PRECEDENT_KEYS = ("uid", "date", "session", "entry_no", "entry", "players", "origin", "created_at", "versions")
_ENTRY_FIELDS = ("no", "kind", "text", "contract", "dealer", "multiplier", "offender", "round", "deal_no", "reason",
                 "next_dealer", "next_multiplier", "replaces", "created_at", "points", "takers")  # fmt: skip


class _Bad(Exception):
    pass


def _bad(where: str, text: str) -> _Bad:
    return _Bad(f"{where} {text}" if where == _("the file") else f"{where}: {text}")


def _need(cond: bool, where: str, what: Callable[[], str]) -> None:
    """Raise :class:`_Bad` unless ``cond``; ``what`` makes the message only then (a 20,000-entry file is checked
    field by field: its messages are not translated and formatted 25 times an entry in vain)."""
    if not cond:
        raise _bad(where, what())


def _is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v: object) -> bool:
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return True  # (math.isfinite of an int too large for a float raises OverflowError)
    return isinstance(v, float) and math.isfinite(v)


def _adds_to_zero(values: Iterable[int | float]) -> bool:
    """The points (ints, finite floats) sum to 0, exactly (math.fsum); past what a float holds, or when the sum
    overflows on the way (1e308 + 1e308 - ...), as fractions. (Such points are refused later all the same, with
    the most a deal can give: rows.sixth_points.) A third, written as the nearest double, counts as the third it
    stands for (core.numbers.exact_points)."""
    values = list(values)
    if any(isinstance(v, float) and abs(v) < 1e15 and not (2 * v).is_integer() for v in values):
        from fractions import Fraction

        from ..core.numbers import exact_points

        try:
            return sum(Fraction(exact_points(v)) for v in values) == 0
        except (ValueError, OverflowError):
            return False
    try:
        return math.fsum(map(float, values)) == 0
    except OverflowError:
        from fractions import Fraction

        return sum(map(Fraction, values)) == 0


def _opt_str(v: object) -> bool:
    return v is None or isinstance(v, str)


def validate_header(doc: object) -> None:
    """Check an export document's top level (its sessions are checked one by one, see :func:`check_session`)."""
    try:
        if not isinstance(doc, dict):
            raise _bad(_("the file"), _("is not a wiezen export (a JSON object was expected)"))
        _need(doc.get("format") == EXPORT_FORMAT, _("the file"), lambda: _('is not a wiezen export (no "format": "{export_format}")').format(export_format=EXPORT_FORMAT))
        version = doc.get("version")
        if not _is_int(version):
            raise _bad(_("the file"), _('"version" must be a whole number'))
        _need(version <= EXPORT_VERSION, _("the file"),
              lambda: _('was exported by a newer wiezen (format version {version}; this one reads up to {export_version}): upgrade wiezen').format(version=version, export_version=EXPORT_VERSION))
        sessions = doc.get("sessions")
        _need(isinstance(sessions, (list, Iterator)), _("the file"), lambda: _('"sessions" must be a list'))
        precs = doc.get("precedents")
        _need(precs is None or isinstance(precs, list), _("the file"), lambda: _('"precedents" must be a list'))
        _check_player_facts(doc.get("player_facts"))
    except _Bad as bad:
        raise WiezenError(_('cannot import: {bad}').format(bad=bad)) from None


def _is_label(text: str) -> bool:
    """A table's label as `session start --table` keeps it (core/tables.py)."""
    from ..core.tables import parse_table

    try:
        return parse_table(text) == text
    except WiezenError:
        return False


def _check_player_facts(found: Any) -> None:
    """The facts about players (rename, merge, split) of an export: a list of objects of texts."""
    from ..core.people import ACTIONS

    _need(found is None or isinstance(found, list), _("the file"), lambda: _('"player_facts" must be a list'))
    for i, f in enumerate(found or []):
        where = f"player_facts[{i}]"
        _need(isinstance(f, dict), where, lambda: _("must be an object"))
        for k in ("uid", "action", "name", "other", "date", "created_at"):
            if not (isinstance(f.get(k), str) and f[k].strip() != "" and len(f[k]) <= 200):
                raise _bad(where, _('"{key}" must be a non-empty text').format(key=k))
        _need(f["action"] in ACTIONS, where, lambda: _('"action" must be one of {actions}').format(actions=", ".join(ACTIONS)))


_ENTRY_KEYS = frozenset(("uid", *_ENTRY_FIELDS, "void"))
_BIG = 2**40


def _joiners(entries: object) -> list[str]:
    """The players the session's join entries seat, in order (each once)."""
    out: list[str] = []
    for e in entries if isinstance(entries, list) else []:
        if (isinstance(e, dict) and e.get("kind") == "join" and isinstance(e.get("offender"), str)
                and e["offender"].casefold() not in {p.casefold() for p in out}):
            out.append(e["offender"])
    return out


def _check_entry(e: object, j: int, w: str, n: int, seated: Mapping[str, str], seen: set[str], here: set[str]) -> None:
    """Check entry ``j`` of session ``w`` (``n`` seats, ``seated``: casefolded name -> name) and add its uid to
    ``seen`` (the file's) and ``here`` (its session's); raises :class:`_Bad` naming the first problem.

    One test after another, each a plain comparison: a message is made only for the problem found (a
    20,000-entry file is checked entry by entry)."""
    if not isinstance(e, dict):
        raise _bad(f"{w}, entries[{j}]", _("must be an object"))
    if not e.keys() >= _ENTRY_KEYS:
        missing = [k for k in ("uid", *_ENTRY_FIELDS, "void") if k not in e]
        raise _bad(f"{w}, entries[{j}]", _('lacks {missing}').format(missing=', '.join(missing)))
    uid = e["uid"]
    if not isinstance(uid, str) or uid == "":
        raise _bad(f"{w}, entries[{j}]", _('"uid" must be a non-empty text'))
    if uid in seen:
        raise _bad(f"{w}, entries[{j}]", _('uid {uid} appears twice in the file').format(uid=uid))
    seen.add(uid)
    problem = _entry_problem(e, n, seated, here)
    if problem is not None:
        raise _bad(_("{session}, entry {uid}").format(session=w, uid=uid), problem)
    here.add(uid)


def _entry_problem(e: dict[str, Any], n: int, seated: Mapping[str, str], here: set[str]) -> str | None:
    """The first thing wrong with the fields of the entry ``e`` (its uid checked already), or None."""
    if e["kind"] not in _KINDS:
        return _('kind must be one of {kinds}').format(kinds=', '.join(_KINDS))
    for k in ("no", "multiplier", "next_multiplier"):
        x = e[k]
        if not (_is_int(x) and 1 <= x <= _BIG):
            return _('"{k}" must be a whole number from 1 to {value}').format(k=k, value=_BIG)
    for k in ("dealer", "next_dealer"):
        x = e[k]
        if not (_is_int(x) and 0 <= x < n):
            return _('"{k}" must be a seat number').format(k=k)
    deal_no = e["deal_no"]
    if not (deal_no is None or (_is_int(deal_no) and 1 <= deal_no <= _BIG)):
        return _('"deal_no" must be an entry number or null')
    if not isinstance(e["round"], bool):
        return _('"round" must be true or false')
    for k in ("text", "reason", "created_at"):
        if not isinstance(e[k], str):
            return _('"{k}" must be text').format(k=k)
    for k in ("contract", "offender", "replaces"):
        if not _opt_str(e[k]):
            return _('"{k}" must be text or null').format(k=k)
    if e["offender"] is not None and e["offender"].casefold() not in seated:
        return _("the offender is not at the table")
    if e["replaces"] is not None and e["replaces"] not in here:
        return _("it replaces an entry that is not listed before it in its session")
    pts = e["points"]
    if not (isinstance(pts, dict) and all(map(_is_num, pts.values()))):
        return _('"points" must map players to numbers')
    folded = [p.casefold() for p in pts]
    if not all(map(seated.__contains__, folded)):
        return _("points for a player who is not at the table")
    if len(set(folded)) != len(pts):
        return _("a player has points twice")
    if not _adds_to_zero(pts.values()):
        return _("the points do not add up to 0")
    tk = e["takers"]
    if not (isinstance(tk, dict) and set(map(type, tk.values())) <= {bool}):
        return _('"takers" must map players to true/false')
    if not tk.keys() <= pts.keys():
        return _("a taker without points")
    v = e["void"]
    if v is None:
        return None
    if not isinstance(v, dict):
        return _('"void" must be an object or null')
    if v.get("action") not in ("undo", "amend"):
        return _('the void\'s "action" must be undo or amend')
    if not ("by" in v and _opt_str(v.get("by")) and (v.get("action") == "amend") == (v.get("by") is not None)):
        return _('an amend void names the entry that replaced it ("by"), an undo does not')
    if not (isinstance(v.get("reason"), str) and isinstance(v.get("created_at"), str)):
        return _('the void needs "reason" and "created_at" texts')
    return None


def check_session(s: object, i: int, seen_sessions: set[str], seen_entries: set[str]) -> None:
    """Check the shape of the ``i``-th session of an export document; raises WiezenError naming the bad part."""
    from ..core.dates import parse_date
    from .rows import _rules_cache
    from .sessions import check_player_name, check_player_names

    try:
        w = f"sessions[{i}]"
        if not isinstance(s, dict):
            raise _bad(w, _("must be an object"))
        missing = [k for k in _SESSION_KEYS if k not in s]
        _need(not missing, w, lambda: _('lacks {missing}').format(missing=', '.join(missing)))
        _need(isinstance(s["uid"], str) and s["uid"] != "", w, lambda: _('"uid" must be a non-empty text'))
        _need(s["uid"] not in seen_sessions, w, lambda: _('uid {uid} appears twice in the file').format(uid=s['uid']))
        seen_sessions.add(s["uid"])
        w = _("session {uid}").format(uid=s["uid"])
        for k in ("name", "date", "rules_name", "rules_toml", "started_at"):
            _need(isinstance(s[k], str), w, lambda: _('"{k}" must be text').format(k=k))  # noqa: B023 (called at once)
        for k in ("ended_at", "source_hash"):
            _need(_opt_str(s[k]), w, lambda: _('"{k}" must be text or null').format(k=k))  # noqa: B023 (called at once)
        if s.get("plan") is not None:
            from ..core.evening import parse_plan

            _need(isinstance(s["plan"], str), w, lambda: _('"plan" must be text or null'))
            try:
                parse_plan(s["plan"])
            except WiezenError as err:
                raise _Bad(_('{w}: {error}').format(w=w, error=err)) from None
        void = s.get("void")
        _need(void is None or (isinstance(void, dict) and set(void) == {"reason", "at"}
                               and isinstance(void["reason"], str) and void["reason"].strip() != ""
                               and isinstance(void["at"], str) and s["ended_at"] is not None), w,
              lambda: _('"void" must be null or {"reason": TEXT, "at": TIME} of an ended session'))
        from ..core.sessionfile import MAX_ROUND, TAG_RE

        _need(s.get("tag") is None or (isinstance(s["tag"], str) and bool(TAG_RE.match(s["tag"]))), w,
              lambda: _('"tag" must be one word (letters, digits, -, ., _) or null'))
        for k in ("round", "table"):
            if k == "table" and isinstance(s.get(k), str) and _is_label(s[k]):
                continue  # a table's label (terras)
            _need(s.get(k) is None or (_is_int(s[k]) and 1 <= s[k] <= MAX_ROUND), w, lambda: _('"{k}" must be 1 to {max_round} or null').format(k=k, max_round=MAX_ROUND))  # noqa: B023
        try:
            _need(parse_date(s["date"]).isoformat() == s["date"], w, lambda: _('bad date {date}').format(date=repr(s['date'])))
            _rules_cache(s["rules_toml"], s["rules_name"])
        except WiezenError as err:
            raise _Bad(_('{w}: {error}').format(w=w, error=err)) from None
        players = s["players"]
        _need(isinstance(players, list) and all(isinstance(p, str) for p in players), w, lambda: _('"players" must be a list of names'))
        try:
            check_player_names(players)
        except WiezenError as err:
            raise _Bad(_('{w}: {error}').format(w=w, error=err)) from None
        n = len(players)
        _need(_is_int(s["first_dealer"]) and 0 <= s["first_dealer"] < n, w, lambda: _('"first_dealer" must be a seat number'))
        seated = {p.casefold(): p for p in players}
        _need(isinstance(s["entries"], list), w, lambda: _('"entries" must be a list'))
        joiners = [p for p in _joiners(s["entries"]) if p.casefold() not in seated]
        if joiners:  # players who sat down later (`session join`): a table of up to six from then on
            try:
                for p in joiners:
                    check_player_name(p)
            except WiezenError as err:
                raise _Bad(_('{w}: {error}').format(w=w, error=err)) from None
            seated = {**seated, **{p.casefold(): p for p in joiners}}
            n = 6
        uids_here: set[str] = set()
        for j, e in enumerate(s["entries"]):
            _check_entry(e, j, w, n, seated, seen_entries, uids_here)
        hist = s.get("history")
        _need(hist is None or (isinstance(hist, list) and all(
            isinstance(h, list) and len(h) == 2 and h[0] in ("entry", "void", "seal")
            and (_is_int(h[1]) if h[0] == "seal" else isinstance(h[1], str)) for h in hist)), w,
            lambda: _('"history" must be a list of ["entry", UID], ["void", UID] or ["seal", N]'))
        seals = s.get("seals")
        _need(seals is None or (isinstance(seals, list) and all(
            isinstance(x, dict) and _is_int(x.get("n")) and 1 <= x["n"] <= 100_000 and isinstance(x.get("seal"), str)
            and isinstance(x.get("sealed_at"), str) for x in seals)), w,
            lambda: _('"seals" must be a list of {"n": N, "seal": CODE, "sealed_at": TIME}'))
        _need(seals is None or [x["n"] for x in seals] == list(range(1, len(seals) + 1)), w,
              lambda: _("the seals must be numbered 1, 2, 3 ... in order"))
        _need(not seals or s["ended_at"] is not None, w, lambda: _("an open session cannot carry a seal"))
        _need(not seals or seals[0]["sealed_at"] == s["ended_at"], w, lambda: _("its first seal is not at its end"))
        for _j, e in enumerate(s["entries"]):
            v = e["void"]
            if v is not None and v["by"] is not None:
                _need(v["by"] in uids_here, _("{session}, entry {uid}").format(session=w, uid=e["uid"]), lambda: _("voided by an entry that is not in its session"))
    except _Bad as bad:
        raise WiezenError(_('cannot import: {bad}').format(bad=bad)) from None


def check_precedent(p: object, i: int) -> str:
    """Check the shape of the ``i``-th precedent of an export document (the same checks as `precedent add` and
    `precedent edit`); returns how messages name it, raises WiezenError naming the bad part."""
    try:
        if not isinstance(p, dict):
            raise _bad(f"precedents[{i}]", _("must be an object"))
        missing = [k for k in _PRECEDENT_KEYS if k not in p]
        _need(not missing, f"precedents[{i}]", lambda: _('lacks {missing}').format(missing=', '.join(missing)))
        _need(isinstance(p["uid"], str) and p["uid"] != "", f"precedents[{i}]", lambda: _('"uid" must be a non-empty text'))
        w = _("precedent {uid}").format(uid=p["uid"][:8])
        _need(isinstance(p["date"], str) and isinstance(p["created_at"], str), w, lambda: _('"date" and "created_at" must be text'))
        _need(_opt_str(p["session"]) and _opt_str(p["entry"]), w, lambda: _('"session" and "entry" must be uids or null'))
        _need(p["entry_no"] is None or (_is_int(p["entry_no"]) and 1 <= p["entry_no"] <= 2**40), w,
              lambda: _('"entry_no" must be a number from 1 to {value} or null').format(value=2**40))
        _need(p["origin"] in ("ruling", "penalty", "house-rules"), w, lambda: _('"origin" must be ruling, penalty or house-rules'))
        _need(isinstance(p["players"], list) and all(isinstance(x, str) for x in p["players"]), w,
              lambda: _('"players" must be a list of names'))
        vs = p["versions"]
        _need(isinstance(vs, list) and len(vs) > 0 and all(isinstance(v, dict) for v in vs), w,
              lambda: _('"versions" must be a non-empty list'))
        for k, v in enumerate(vs, 1):
            _need(v.get("version") == k, w, lambda: _("versions must be numbered 1, 2, 3 ... in order"))
            _need(all(isinstance(v.get(x), str) for x in ("title", "ruling", "note", "edited_at")), w,
                  lambda: _('a version needs "title", "ruling", "note" and "edited_at" texts'))
            _need(isinstance(v.get("tags"), list) and all(isinstance(t, str) for t in v["tags"]), w,
                  lambda: _('"tags" must be a list of words'))
            # the same checks as `precedent add` and `precedent edit`: a clear line, never "CHECK constraint failed"
            from ..core.text import require_utf8
            from .precedents import clean_ruling, clean_tags, clean_title

            try:
                for x in ("title", "ruling", "note"):
                    require_utf8(v[x], f'its "{x}"')
                clean_title(v["title"])
                clean_ruling(v["ruling"])
                clean_tags(v["tags"])
            except WiezenError as e:
                raise _Bad(_('{w}, version {k}: {error}').format(w=w, k=k, error=str(e).replace(_('; nothing was recorded'), ''))) from None
        from ..core.dates import parse_date

        try:
            _need(parse_date(p["date"]).isoformat() == p["date"], w, lambda: _('bad date {date} (YYYY-MM-DD)').format(date=repr(p['date'])))
        except WiezenError:
            raise _Bad(_('{w}: bad date {date} (YYYY-MM-DD)').format(w=w, date=repr(p['date']))) from None
    except _Bad as e:
        raise WiezenError(_('cannot import: {error}').format(error=e)) from None
    return w
