"""Random evenings against a model of SCORING.md's session rules (issue 3).

The model below re-implements, on its own, who deals, who sits out, the pending doubling after a rondje
pas (none / once / stack, same / next dealer), redeals, strafpunten and rounds owed, undo and amend. For one
deal's points it uses the pure ``wiezen_score.core.scoring.score``. After every step the ledger's sheet must equal
the model's, every entry must sum to 0, and re-scoring the stored history gives the stored points.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from _hypothesis_helpers import examples
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from wiezen_score.core.deal import MiserieDeal, TrickDeal
from wiezen_score.core.errors import WiezenError
from wiezen_score.core.presets import preset_text
from wiezen_score.core.rules import MiserieContract, parse_rules
from wiezen_score.core.scoring import score
from wiezen_score.core.session import EntryInput, fold
from wiezen_score.ledger import Ledger
from wiezen_score.ledger.documents import sheet_doc

NAMES = ["an", "bert", "carla", "dirk", "eva", "fien"]
STACK_TOML = (Path(__file__).parents[1] / "data" / "rules-stack.toml").read_text(encoding="utf-8")
RULESETS = {name: preset_text(name) for name in ("whisthub", "rupelstreek", "wikibooks-wiezen")}
RULESETS["stapel"] = STACK_TOML


class Refused(Exception):
    """The model says the ledger must refuse this."""


@dataclass(frozen=True)
class M:
    """A model entry as typed: kind, and for a deal the contract and who played it."""

    kind: str
    contract: object = None
    level: int = 0
    takers: tuple = ()  # trick contracts
    tricks: int = 0
    plays: tuple = ()  # miserie: ((player, tricks), ...)
    offender: str = ""
    round: bool = False
    deal_no: int | None = None

    @property
    def text(self) -> str:
        if self.kind != "deal":
            return ""
        c = self.contract
        if isinstance(c, MiserieContract):
            return f"{c.name} " + " ".join(f"{p} {t}" for p, t in self.plays)
        return f"{c.name} {self.level} {'+'.join(self.takers)} {self.tricks}"

    @property
    def named(self) -> tuple:
        return tuple(p for p, _ in self.plays) if self.plays else self.takers

    def as_input(self) -> EntryInput:
        if self.kind == "deal":
            return EntryInput("deal", text=self.text)
        return EntryInput(self.kind, offender=self.offender, round=self.round, deal_no=self.deal_no)


def sits_out(n: int, dealer: int) -> set:
    """SCORING.md: at five the dealer sits out; at six also the player three seats on."""
    return {4: set(), 5: {dealer}, 6: {dealer, (dealer + 3) % 6}}[n]


class Model:
    def __init__(self, rules, players, first):
        self.rules, self.players, self.first = rules, players, first
        self.current: dict[int, M] = {}  # the entries that count, by number
        self.next_no = 1

    def active(self, dealer):
        out = sits_out(len(self.players), dealer)
        return [p for i, p in enumerate(self.players) if i not in out]

    def run(self, current):
        """The sheet the history ``current`` gives; raises Refused where the ledger must refuse."""
        n, r = len(self.players), self.rules
        dealer, pending = self.first, 1
        rows = []
        totals = dict.fromkeys(self.players, Fraction(0))
        rounds = dict.fromkeys(self.players, 0)
        deal_players: dict[int, list] = {}
        for no in sorted(current):
            m = current[no]
            act = self.active(dealer)
            if m.kind == "deal":
                if any(p not in act for p in m.named):
                    raise Refused(f"entry {no}: a player who sits out")
                c = m.contract
                d = MiserieDeal(c, m.plays) if isinstance(c, MiserieContract) else TrickDeal(c, m.level, m.takers, m.tricks)
                pts = dict(score(d, r, act, pending).points)
                rows.append((no, "deal", dealer, pending, pts, m.text))
                deal_players[no] = act
                dealer, pending = (dealer + 1) % n, 1
            elif m.kind == "pass":
                rows.append((no, "pass", dealer, 1, dict.fromkeys(act, 0), None))
                pending = {"none": pending, "once": 2, "stack": 2 * pending}[r.all_pass_double]
                if pending > 2**20:  # docs/rules.md: doubling stops at x1048576 (20 rondjes pas in a row)
                    raise Refused(f"entry {no}: a 21st rondje pas in a row")
                if r.all_pass_dealer == "next":
                    dealer = (dealer + 1) % n
            elif m.kind == "redeal":
                rows.append((no, "redeal", dealer, 1, dict.fromkeys(act, 0), None))
            else:  # penalty: paid to the other players of the deal in play, or of the linked deal
                if m.deal_no is not None:
                    if m.deal_no not in deal_players:
                        raise Refused(f"entry {no}: no deal {m.deal_no}")
                    table = deal_players[m.deal_no]
                else:
                    table = act
                pts = dict.fromkeys(table, 0)
                pts.setdefault(m.offender, 0)
                if m.round:
                    rounds[m.offender] += 1
                else:
                    for p in table:
                        if p != m.offender:
                            pts[p] += r.penalty
                            pts[m.offender] -= r.penalty
                rows.append((no, "penalty", dealer, 1, pts, None))
            for p, v in rows[-1][4].items():
                totals[p] += v
        return rows, dealer, pending, totals, rounds

    def dealer_at(self, no):
        """The dealer of counting entry ``no`` in the model's history."""
        return next(row[2] for row in self.run(self.current)[0] if row[0] == no)


def as_float(points):
    return {p: float(v) for p, v in points.items()}


class LedgerMachine(RuleBasedStateMachine):
    @initialize(
        n=st.sampled_from([4, 5, 6]),
        rules_name=st.sampled_from(sorted(RULESETS)),
        first=st.integers(0, 5),
    )
    def start(self, n, rules_name, first):
        self.dir = tempfile.mkdtemp(prefix="wiezen-sm-")
        self.led = Ledger(str(Path(self.dir) / "w.db"))
        text = RULESETS[rules_name]
        rules = parse_rules(text, rules_name)
        players = NAMES[:n]
        first %= n
        with self.led.write():
            self.sid = self.led.start_session(players, rules.name, text, first, "", "2026-11-27")
        self.model = Model(rules, players, first)

    def teardown(self):
        if hasattr(self, "led"):
            self.led.close()
            shutil.rmtree(self.dir, ignore_errors=True)

    # -- drawing entries ---------------------------------------------------------------------------------
    def draw_deal(self, data, dealer) -> M:
        """A deal; now and then it names a player who sits out (the ledger must refuse it)."""
        model = self.model
        pool = model.active(dealer)
        if len(model.players) > 4 and data.draw(st.integers(0, 9)) == 0:
            pool = model.players
        c = data.draw(st.sampled_from(model.rules.contracts))
        if isinstance(c, MiserieContract):
            who = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3, unique=True))
            tricks = [data.draw(st.sampled_from([c.tricks, c.tricks, 0, 1, 2, 4])) for _ in who]
            return M("deal", c, plays=tuple(zip(who, tricks, strict=False)))
        k = 2 if c.team else 1
        takers = tuple(data.draw(st.lists(st.sampled_from(pool), min_size=k, max_size=k, unique=True)))
        return M("deal", c, level=data.draw(st.sampled_from(c.levels)), takers=takers,
                 tricks=data.draw(st.integers(0, 13)))

    def draw_penalty(self, data) -> M:
        deals = [no for no, m in self.model.current.items() if m.kind == "deal"]
        others = [no for no in range(1, self.model.next_no + 2) if no not in deals]
        link = data.draw(st.sampled_from([None, None, "deal", "bogus"]))
        deal_no = None
        if link == "deal" and deals:
            deal_no = data.draw(st.sampled_from(deals))
        elif link == "bogus":
            deal_no = data.draw(st.sampled_from(others))
        return M("penalty", offender=data.draw(st.sampled_from(self.model.players)),
                 round=data.draw(st.booleans()), deal_no=deal_no)

    def draw_entry(self, data, dealer) -> M:
        kind = data.draw(st.sampled_from(["deal", "deal", "deal", "pass", "pass", "redeal", "penalty"]))
        if kind == "deal":
            return self.draw_deal(data, dealer)
        if kind == "penalty":
            return self.draw_penalty(data)
        return M(kind)

    # -- doing it to both -----------------------------------------------------------------------------------
    def counts(self):
        c = self.led.conn
        return tuple(c.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("entries", "entry_points", "voids"))

    def expect(self, new_current, action, next_no=None):
        """Run ``action`` on the ledger; it must succeed iff the model accepts ``new_current``
        (None: the model refuses outright, e.g. nothing to undo)."""
        refused = Refused("nothing to do") if new_current is None else None
        if new_current is not None:
            try:
                self.model.run(new_current)
            except Refused as e:
                refused = e
        before = self.counts()
        try:
            action()
        except WiezenError as e:
            assert refused is not None, f"ledger refused what the model accepts: {e}"
            assert self.counts() == before, "a refused command wrote something"
            return
        assert refused is None, f"ledger accepted what the model refuses: {refused}"
        self.model.current = new_current
        if next_no is not None:
            self.model.next_no = next_no

    @rule(data=st.data())
    def add_entry(self, data):
        dealer = self.model.run(self.model.current)[1]
        m = self.draw_entry(data, dealer)
        no = self.model.next_no
        self.expect({**self.model.current, no: m}, lambda: self.led.record(m.as_input()), no + 1)

    @rule(data=st.data())
    def pas(self, data):  # rondje pas is common, and what this issue is about
        no = self.model.next_no
        self.expect({**self.model.current, no: M("pass")}, lambda: self.led.record(EntryInput("pass")), no + 1)

    @rule()
    def undo(self):
        cur = dict(self.model.current)
        if not cur:
            self.expect(None, lambda: self.led.undo())  # nothing to undo
            return
        del cur[max(cur)]
        self.expect(cur, lambda: self.led.undo())

    @precondition(lambda self: self.model.next_no > 1)
    @rule(data=st.data())
    def amend(self, data):
        model = self.model
        no = data.draw(st.integers(1, model.next_no))
        if no not in model.current:  # voided or never recorded: refused
            self.expect(None, lambda: self.led.amend(no, EntryInput("pass")))
            return
        m = self.draw_entry(data, model.dealer_at(no))
        self.expect({**model.current, no: m}, lambda: self.led.amend(no, m.as_input(), "test"))

    # -- the checks -------------------------------------------------------------------------------------------
    @invariant()
    def sheet_equals_model(self):
        if not hasattr(self, "led"):
            return
        model = self.model
        rows, dealer, pending, totals, rounds = model.run(model.current)
        s = self.led.session(self.sid)
        doc = sheet_doc(self.led, s)
        names = model.players
        got = [e for e in doc["entries"] if not e["voided"]]
        assert [(e["no"], e["kind"], e["dealer"], e["multiplier"]) for e in got] == [
            (no, kind, names[d], mult) for no, kind, d, mult, _, _ in rows
        ]
        for e, (no, _kind, _, _, pts, text) in zip(got, rows, strict=False):
            assert e["points"] == as_float(pts), f"entry {no}"
            if text is not None:
                assert e["text"] == text
        assert doc["totals"] == as_float(totals)
        assert doc["dealer"] == names[dealer]
        assert doc["pending_multiplier"] == pending
        assert doc["rounds_owed"] == rounds
        assert doc["sitting_out"] == [p for i, p in enumerate(names) if i in sits_out(len(names), dealer)]
        # every version of every entry sums to 0; numbers only grow; one counting version per number
        for e in doc["entries"]:
            assert sum(Fraction(v) for v in e["points"].values()) == 0, e
        nos = [e["no"] for e in doc["entries"]]
        assert nos == sorted(nos)
        assert len({e["no"] for e in got}) == len(got)
        assert max(nos, default=0) == model.next_no - 1

    @invariant()
    def stored_history_rescores_to_stored_points(self):
        if not hasattr(self, "led"):
            return
        s = self.led.session(self.sid)
        stored = [r for r in self.led.entries(s) if not r.voided]
        res = fold([(r.no, r.as_input()) for r in stored], s.rules, s.players, s.first_dealer)
        for r, sc in zip(stored, res.scored, strict=True):
            assert (r.kind, r.dealer, r.multiplier) == (sc.kind, sc.dealer, sc.multiplier), r.no
            assert dict(r.points) == as_float(sc.points), r.no
            assert r.next_dealer == sc.after.dealer, r.no
            if r.kind == "deal":  # what a pas or penalty carries is derived (an amendment does not re-add it)
                assert r.next_multiplier == sc.after.pending, r.no
        assert self.led.totals(s.id) == dict(res.totals)
        assert self.led.rounds_owed(s) == dict(res.rounds_owed)


LedgerMachine.TestCase.settings = settings(
    max_examples=examples(30), stateful_step_count=25, deadline=None, suppress_health_check=[HealthCheck.too_slow],
)
TestLedgerMachine = LedgerMachine.TestCase
