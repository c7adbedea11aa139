"""Seals with a check character (core/sealcode.py): the Luhn mod 32 check, reading a typed seal, old seals."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from wiezen_score.core.sealcode import ALPHABET, luhn32, near, printed, read_seal, seal_code

bodies = st.text(alphabet=ALPHABET, min_size=12, max_size=12)


def test_check_characters_worked_by_hand():
    # from the right, the 1st, 3rd ... character is doubled and its two base-32 digits added; the check makes
    # the sum a multiple of 32
    assert luhn32("000000000001") == "Y"  # 1 doubled = 2; 32 - 2 = 30 = Y
    assert luhn32("00000000000Z") == "1"  # Z = 31, doubled 62 = 1 x 32 + 30: 1 + 30 = 31; 32 - 31 = 1
    assert luhn32("0000000000Z0") == "1"  # not doubled: 31; 32 - 31 = 1
    assert luhn32("000000000000") == "0"


def test_a_seal_is_the_hash_in_base_32_grouped_by_four_with_its_check():
    # the first 15 hex digits (60 bits) of the hash, 5 bits a character: 0x000000000000001 is eleven 0s and a 1
    assert seal_code("000000000000001" + "f" * 49) == "0000-0000-0001-Y"
    assert seal_code("f" * 64) == "ZZZZ-ZZZZ-ZZZZ-" + luhn32("Z" * 12)


@given(bodies, st.integers(0, 11), st.sampled_from(ALPHABET))
def test_one_wrong_character_is_always_a_typo(body, i, ch):
    code = printed(body)
    wrong = body[:i] + ch + body[i + 1:]
    typed = read_seal(wrong + code[-1])
    assert typed.checked and typed.typo == (wrong != body)


@given(bodies)
def test_a_seal_reads_back_however_it_is_typed(body):
    code = printed(body)
    for typed in (code, code.lower(), code.replace("-", " "), code.replace("-", ""), code.replace("0", "O").replace("1", "l")):
        got = read_seal(typed)
        assert (got.body, got.checked, got.typo) == (body, True, False), typed


def test_old_seals_of_twelve_characters_read_without_a_check():
    got = read_seal("7KQ2-M9XD-4TPA")
    assert (got.body, got.checked, got.typo, got.shaped) == ("7KQ2M9XD4TPA", False, False, True)


def test_what_is_not_a_seals_shape():
    for typed in ("", "7KQ2-M9XD", "7KQ2-M9XD-4TPA-RR", "7KQ2-M9XD-4TPU", "ééé"):
        assert not read_seal(typed).shaped, typed


def test_near_is_one_place_or_two_neighbours_swapped():
    assert near("ABCDEFGHJKMN", "ABCDEFGHJKMN")
    assert near("ABCDEFGHJKMN", "ABCDEFGHJKMX")
    assert near("ABCDEFGHJKMN", "ABCDEFGHJKNM")
    assert not near("ABCDEFGHJKMN", "ABCDEFGHJKXX")
    assert not near("ABCDEFGHJKMN", "BACDEFGHJKNM")
