"""The session fold: dealer rotation, who sits out, pending doubling, penalties, rounds owed.

Pure: an entry is data; :func:`apply` takes the table state before it and gives the scored entry and the
state after it. The ledger stores that state with every entry, so recording the next deal reads only the
last entry; :func:`fold` replays a whole history (undo, amend and `wiezen check` rely on it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .deal import Deal, SitsOut, TrickDeal, parse_deal, resolve_player
from .errors import WiezenError
from .i18n import _, ngettext
from .rules import HouseRules
from .scoring import Points, score

KINDS = ("deal", "pass", "redeal", "penalty", "join", "leave")
#: the entries that change who sits at the table (`session join`, `session leave`)
SEAT_KINDS = ("join", "leave")

#: the most a deal can be doubled to under ``double = "stack"`` (20 rondjes pas in a row); one more is refused,
#: so that every score stays an exact, storable number
MAX_MULTIPLIER = 2**20


@dataclass(frozen=True, slots=True)
class TableState:
    """What the next entry needs: whose deal it is and the multiplier the next played deal gets.

    Under ``[all_pass] double = "queue"`` each rondje pas doubles one later played deal: ``pending`` is then 2
    while a doubled deal is owed, and ``queued`` counts the doubled deals owed after that one. The ledger
    stores ``pending`` with every entry; ``queued`` follows from the entries (:func:`queue_state`).
    """

    dealer: int  # seat index (0-based) of the player who deals next
    pending: int = 1
    queued: int = 0

    def owed(self) -> int:
        """Deals still to count double under "queue" (the next one included)."""
        return (1 if self.pending > 1 else 0) + self.queued


def queue_state(dealer: int, owed: int) -> TableState:
    """The state with ``owed`` doubled deals queued ("queue" house rules)."""
    return TableState(dealer, 2 if owed else 1, max(owed - 1, 0))


def queued_after(kinds: Sequence[str], owed: int = 0) -> int:
    """Under "queue", the doubled deals still owed after entries of these kinds (in order, those that count),
    when ``owed`` were owed before them."""
    for k in kinds:
        if k == "pass":
            owed += 1
        elif k == "deal" and owed:
            owed -= 1
    return owed


@dataclass(frozen=True, slots=True)
class EntryInput:
    """An entry as the scorer gives it (before scoring)."""

    kind: str  # deal | pass | redeal | penalty | join | leave
    text: str = ""  # the deal line (deal), else empty
    offender: str = ""  # penalty; join, leave: the player who comes or goes
    round: bool = False  # penalty: een rondje geven instead of points
    reason: str = ""
    deal_no: int | None = None  # penalty: the deal it belongs to
    over_troel: bool = False
    # penalty: the kind of [penalties] it is ("": none, the top-level amount); None: a first word of the reason
    # that names a kind is the kind (a session file, the prompt, the phone: 'penalty jan renonce in troef')
    penalty_kind: str | None = None
    after: str = ""  # join: the player the newcomer sits after ("": at the end of the seat order)


@dataclass(frozen=True, slots=True)
class Scored:
    kind: str
    text: str  # canonical line: "samen 8 jan+piet 9", "pas", "redeal", "penalty jan"
    dealer: int  # seat of the dealer of this entry
    multiplier: int
    points: Mapping[str, Points]  # the players of the deal in play; sitting-out players are absent
    takers: Mapping[str, bool] = field(default_factory=dict)  # taker -> made it (deals only)
    explanation: tuple[str, ...] = ()
    after: TableState = TableState(0)
    offender: str = ""
    round: bool = False
    reason: str = ""
    deal_no: int | None = None
    contract: str = ""
    seating: tuple[str, ...] = ()  # join, leave: the table's seat order from this entry on


def active_seats(n: int, dealer: int) -> tuple[int, ...]:
    """Seats that play a deal: all four; at five the dealer sits out; at six also the player opposite."""
    if n == 4:
        return tuple(range(4))
    if n == 5:
        return tuple(s for s in range(5) if s != dealer)
    if n == 6:
        return tuple(s for s in range(6) if s not in (dealer, (dealer + 3) % 6))
    raise WiezenError(_("a table has 4 to 6 players, not {n}").format(n=n))


def active_players(players: Sequence[str], dealer: int) -> tuple[str, ...]:
    return tuple(players[s] for s in active_seats(len(players), dealer))


def sitting_out(players: Sequence[str], dealer: int) -> tuple[str, ...]:
    act = set(active_seats(len(players), dealer))
    return tuple(p for s, p in enumerate(players) if s not in act)


def parse_entry_deal(e: EntryInput, rules: HouseRules, players: Sequence[str], state: TableState) -> Deal:
    act = active_players(players, state.dealer)
    try:
        return parse_deal(e.text, rules, players, act, over_troel=e.over_troel)
    except SitsOut as err:
        raise WiezenError(
            _("{player} sits out this deal ({dealer} deals; playing: {players})").format(
                player=err.player, dealer=players[state.dealer], players=", ".join(act)
            )
        ) from None


def after_deal(rules: HouseRules, n: int, state: TableState) -> TableState:
    """The table state after a deal played at ``state`` at a table of ``n``: the next player deals; a pending
    doubling is used up (or the next queued one comes up)."""
    nxt = (state.dealer + 1) % n
    return queue_state(nxt, state.queued) if rules.all_pass_double == "queue" else TableState(nxt, 1)


def apply(
    e: EntryInput,
    rules: HouseRules,
    players: Sequence[str],
    state: TableState,
    deal_players: Mapping[int, Sequence[str]] | None = None,
) -> Scored:
    """Score entry ``e`` at ``state``. ``deal_players`` maps a deal number to its players (penalties)."""
    n = len(players)
    if e.kind == "deal":
        d = parse_entry_deal(e, rules, players, state)
        act = active_players(players, state.dealer)
        why = _("after rondje pas") if state.pending > 1 else ""
        s = score(d, rules, act, state.pending, why)
        if isinstance(d, TrickDeal):
            takers = {p: bool(s.made) for p in d.takers}
        else:
            takers = {p: t == d.contract.tricks for p, t in d.plays}
        return Scored(
            "deal", d.text, state.dealer, state.pending, s.points, takers, s.explanation, after_deal(rules, n, state),
            contract=d.contract.name,
        )
    if e.kind == "pass":
        act = active_players(players, state.dealer)
        mode = rules.all_pass_double
        dealer = state.dealer if rules.all_pass_dealer == "same" else (state.dealer + 1) % n
        if mode == "queue":
            after = queue_state(dealer, state.owed() + 1)
        else:
            pending = {"none": state.pending, "once": 2, "stack": state.pending * 2}[mode]
            if pending > MAX_MULTIPLIER:
                raise WiezenError(
                    _("another rondje pas would make the next deal count x{pending}: wiezen doubles up to "
                      "x{most} ({n} rondjes pas in a row); record the deal that is played, or a redeal").format(
                        pending=pending, most=MAX_MULTIPLIER, n=MAX_MULTIPLIER.bit_length() - 1
                    )
                )
            after = TableState(dealer, pending)
        steps = [_("rondje pas: everybody passed, no contract is played: 0 for everyone")]
        if mode == "once":
            steps.append(
                _("the next deal that is played counts double (already pending: no extra doubling)")
                if state.pending > 1
                else _("the next deal that is played counts double")
            )
        elif mode == "stack":
            steps.append(
                _("each rondje pas doubles again: the next deal that is played counts x{n}").format(n=after.pending)
            )
        elif mode == "queue":
            owed = after.owed()
            steps.append(
                _("each rondje pas doubles one later deal: the next deal that is played counts double")
                if owed == 1
                else _("each rondje pas doubles one later deal: the next {n} deals that are played count double each")
                .format(n=owed)
            )
        # the last step (calc, which has no table, leaves it out)
        steps.append(
            (_("{player} deals next (the same dealer deals again)") if dealer == state.dealer
             else _("{player} deals next")).format(player=players[dealer])
        )
        return Scored("pass", "pas", state.dealer, 1, {p: 0 for p in act}, {}, tuple(steps), after)
    if e.kind == "redeal":
        act = active_players(players, state.dealer)
        if rules.redeal_dealer == "next":  # [redeal] dealer = "next" (issue 30): the deal passes on
            after_redeal = TableState((state.dealer + 1) % n, state.pending, state.queued)
            steps = [_("redeal (carte blanche or misdeal): 0 for everyone; the next dealer deals ([redeal] dealer = "
                       "\"next\")")]
        else:
            after_redeal = state
            steps = [_("redeal (carte blanche or misdeal): 0 for everyone; the same dealer deals again")]
        if state.pending > 1:
            steps.append(_("the pending x{n} stays for the next deal that is played").format(n=state.pending))
        if state.queued:
            steps.append(
                ngettext(
                    "{n} more doubled deal stay queued after it", "{n} more doubled deals stay queued after it", state.queued
                ).format(n=state.queued)
            )
        return Scored("redeal", "redeal", state.dealer, 1, {p: 0 for p in act}, {}, tuple(steps), after_redeal,
                      reason=e.reason)
    if e.kind == "penalty":
        offender = resolve_player(e.offender, players)
        if e.deal_no is not None and deal_players is not None and e.deal_no in deal_players:
            act = tuple(deal_players[e.deal_no])
            where = _("deal {no}").format(no=e.deal_no)
        elif e.deal_no is not None and deal_players is not None:
            raise WiezenError(
                _("there is no recorded deal {no} in this session to link the penalty to").format(no=e.deal_no)
            )
        else:
            act = active_players(players, state.dealer)
            where = _("the deal in play")
        kind, reason = penalty_kind(e, rules)
        payees = [p for p in act if p != offender]
        pts: dict[str, Points] = {p: 0 for p in act}
        if offender not in pts:
            pts = {offender: 0, **pts}
        if e.round:
            steps = [
                _("penalty for {player}: een rondje geven (buys a round): no points, one more round owed").format(
                    player=offender
                )
            ]
        else:
            amount = rules.penalty_amount(kind)
            pts[offender] = -amount * len(payees)
            for p in payees:
                pts[p] = amount
            steps = [
                _("penalty (strafpunten) for {player}: pays {amount} to each other player of {where} "
                  "({payees}) = -{total}").format(
                    player=offender, amount=amount, where=where, payees=", ".join(payees), total=amount * len(payees)
                ),
                _("penalties are never doubled and leave a pending doubling for the next deal"),
            ]
            if kind:
                steps.insert(0, _("kind: {kind}, {amount} strafpunten ([penalties] of house rules '{rules}')").format(
                    kind=kind, amount=amount, rules=rules.name))
        if reason:
            steps.insert(0, _("reason: {reason}").format(reason=reason))
        return Scored(
            "penalty", f"penalty {offender}" + (" round" if e.round else "") + (f" {kind}" if kind else ""),
            state.dealer, 1, pts, {}, tuple(steps), state, offender=offender, round=e.round, reason=reason,
            deal_no=e.deal_no,
        )
    if e.kind in SEAT_KINDS:
        return seat_change(e, players, state)
    raise WiezenError(_("unknown entry kind '{kind}' (known: {kinds})").format(kind=e.kind, kinds=", ".join(KINDS)))


def seat_text(kind: str, player: str, after: str = "") -> str:
    """The stored line of a join or leave: ``join kris``, ``join kris after piet``, ``leave piet``."""
    return f"{kind} {player}" + (f" after {after}" if after else "")


def seat_input(text: str, reason: str = "") -> EntryInput:
    """A stored join or leave (:func:`seat_text`) as the input that re-scores it."""
    words = text.split()
    return EntryInput(words[0], offender=words[1] if len(words) > 1 else "", reason=reason,
                      after=words[3] if len(words) > 3 else "")


def seating_after(initial: Sequence[str], texts: Sequence[str]) -> tuple[str, ...]:
    """The seat order after the stored joins and leaves ``texts`` (:func:`seat_text`), in the order recorded."""
    seats = list(initial)
    for text in texts:
        e = seat_input(text)
        if e.kind == "join" and e.offender not in seats:
            seats.insert(seats.index(e.after) + 1 if e.after in seats else len(seats), e.offender)
        elif e.kind == "leave" and e.offender in seats:
            seats.remove(e.offender)
    return tuple(seats)


def seat_change(e: EntryInput, players: Sequence[str], state: TableState) -> Scored:
    """A player sits down (join) or gets up (leave): no points; from the next deal on the table has one player
    more or fewer, with the sit-out rules of its size. The player who deals next stays the same person (when
    he is the one who leaves, the next player in the seat order deals)."""
    from .names import name_key

    n = len(players)
    dealer = players[state.dealer]
    if e.kind == "join":
        who = e.offender.strip()
        if not who:
            raise WiezenError(_("join: name the player who sits down"))
        if any(name_key(p) == name_key(who) for p in players):
            raise WiezenError(_("{player} sits at this table already ({players})").format(
                player=who, players=", ".join(players)))
        if n >= 6:
            raise WiezenError(_("{player} cannot join: a table has at most 6 players ({players})").format(
                player=who, players=", ".join(players)))
        behind = resolve_player(e.after, players) if e.after else ""
        at = players.index(behind) + 1 if behind else n
        seating = (*players[:at], who, *players[at:])
        steps = [_("{player} sits down after {after}: the table has {n} players").format(
            player=who, after=seating[at - 1], n=n + 1)]
        text = seat_text("join", who, behind)
        new_dealer = seating.index(dealer)
    else:
        who = resolve_player(e.offender, players)
        if n <= 4:
            raise WiezenError(_("{player} cannot leave: a table has at least 4 players ({players})").format(
                player=who, players=", ".join(players)))
        seating = tuple(p for p in players if p != who)
        steps = [_("{player} gets up: the table has {n} players").format(player=who, n=n - 1)]
        text = seat_text("leave", who)
        nxt = dealer if who != dealer else players[(state.dealer + 1) % n]
        new_dealer = seating.index(nxt)
    size = len(seating)
    steps.append(
        _("from the next deal on all four play") if size == 4
        else _("from the next deal on the dealer sits out") if size == 5
        else _("from the next deal on the dealer and the player opposite him sit out")
    )
    steps.append(_("{player} deals next").format(player=seating[new_dealer]))
    if e.reason:
        steps.insert(0, _("reason: {reason}").format(reason=e.reason))
    return Scored(e.kind, text, state.dealer, 1, {}, {}, tuple(steps), TableState(new_dealer, state.pending, state.queued),
                  offender=who, reason=e.reason, seating=seating)
def penalty_kind(e: EntryInput, rules: HouseRules) -> tuple[str, str]:
    """The kind of a penalty ("" for none) and its reason without it. A kind given (``penalty jan renonce`` on the
    command line, a stored entry) must be one of the house rules' ``[penalties]``; without one, the first word of
    the reason is the kind when it names one. A round (een rondje geven) has no kind: it costs no points."""
    if e.penalty_kind:
        kind = rules.penalty_kind(e.penalty_kind)
        if kind is None:
            raise WiezenError(
                (_("house rules '{rules}' have no kind of penalty '{kind}'; they have: {kinds}") if rules.penalties
                 else _("house rules '{rules}' have no kind of penalty '{kind}': they have no [penalties], only the "
                        "one amount ({amount})")).format(
                    rules=rules.name, kind=e.penalty_kind, kinds=", ".join(k for k, _a in rules.penalties),
                    amount=rules.penalty,
                )
            )
        if e.round:
            raise WiezenError(_("a round (een rondje geven) costs no points: give it no kind of penalty ({kind})")
                              .format(kind=kind))
        return kind, e.reason
    if e.penalty_kind is None and not e.round and rules.penalties:
        first, _sp, rest = e.reason.strip().partition(" ")
        kind = rules.penalty_kind(first) if first else None
        if kind is not None:
            return kind, rest.strip()
    return "", e.reason


class Fold:
    """The one fold: entries applied in order to a running table state.

    Recording one entry (resumed from the state the ledger stored), replaying a session file, amending,
    explaining and `wiezen check` all score through :meth:`step`; :meth:`undo` takes back the last step
    (a session file's ``undo``), :meth:`resync` goes on from a stored state after an entry that could not
    be re-scored (check).
    """

    def __init__(
        self,
        rules: HouseRules,
        players: Sequence[str],
        state: TableState | None = None,
        deal_players: Mapping[int, Sequence[str]] | None = None,
    ) -> None:
        self.rules = rules
        self.players = tuple(players)
        self.state = state if state is not None else TableState(0, 1)
        self.deal_players: dict[int, tuple[str, ...]] = {k: tuple(v) for k, v in (deal_players or {}).items()}
        self.totals: dict[str, Points] = {p: 0 for p in self.players}
        self.rounds: dict[str, int] = {p: 0 for p in self.players}
        self._stack: list[tuple[int, TableState, Scored, tuple[str, ...]]] = []

    def score(self, e: EntryInput) -> Scored:
        """Entry ``e`` scored at the current state, without taking the step."""
        return apply(e, self.rules, self.players, self.state, self.deal_players)

    def step(self, no: int, e: EntryInput) -> Scored:
        """Score entry number ``no`` and move the state past it."""
        return self.take(no, self.score(e))

    def take(self, no: int, s: Scored) -> Scored:
        """Move past an entry scored by :meth:`score`."""
        if s.kind == "deal":
            self.deal_players[no] = tuple(s.points)
        for p, v in s.points.items():
            self.totals[p] = self.totals.get(p, 0) + v
        if s.kind == "penalty" and s.round:
            self.rounds[s.offender] = self.rounds.get(s.offender, 0) + 1
        self._stack.append((no, self.state, s, self.players))
        self.state = s.after
        if s.seating:  # a join or a leave: the table from the next entry on
            self.players = s.seating
            for p in s.seating:
                self.totals.setdefault(p, 0)
                self.rounds.setdefault(p, 0)
        return s

    def undo(self) -> int:
        """Take back the last step; returns its entry number. Raises when there is none."""
        if not self._stack:
            raise WiezenError(_("nothing to undo"))
        no, before, s, self.players = self._stack.pop()
        if s.kind == "deal":
            self.deal_players.pop(no, None)
        for p, v in s.points.items():
            self.totals[p] -= v
        if s.kind == "penalty" and s.round:
            self.rounds[s.offender] -= 1
        self.state = before
        return no

    def resync(self, state: TableState) -> None:
        self.state = state


@dataclass(frozen=True, slots=True)
class FoldResult:
    scored: tuple[Scored, ...]
    state: TableState
    totals: Mapping[str, Points]
    rounds_owed: Mapping[str, int]


def fold(
    entries: Sequence[tuple[int, EntryInput]],
    rules: HouseRules,
    players: Sequence[str],
    first_dealer: int = 0,
) -> FoldResult:
    """Score a whole history of (entry number, entry) pairs, in order. Raises on the first bad entry."""
    f = Fold(rules, players, TableState(first_dealer, 1))
    out: list[Scored] = []
    for no, e in entries:
        try:
            out.append(f.step(no, e))
        except WiezenError as err:
            raise WiezenError(_("entry {no}: {error}").format(no=no, error=err)) from None
    return FoldResult(tuple(out), f.state, f.totals, f.rounds)
