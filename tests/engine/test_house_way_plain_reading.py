"""The Trump Plaza preset against a second, deliberately plain reading of its sheet.

The interpreter is fast because it works on rank patterns, cached decisions and the
kinds of section 8 of the house-way README. This file reads the same sheet
(house-ways/trump-plaza.md) a second way, as a dealer would: count the ranks, look
the shape up, apply the clause, and for straights and flushes try all 21 settings and
keep the best front, then the strongest back. Where the sheet lets like cards be
swapped (which ace goes in front), it keeps the strongest back (README section 4).

The two must give the same value for the back and for the front on every hand; the
grader compares values, so that is the property that matters.
"""
from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.engine.cards import DECK, JOKER, Card
from trainer.engine.hands import CARD_RANK, Category, rank2, rank5
from trainer.engine.house_way import load
from trainer.engine.setting import is_foul_strengths, splits

SF_CATEGORIES = {Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH,
                 Category.ROYAL_FLUSH}
ACE, KING, DEUCE = 14, 13, 2


def _group(rank: int) -> str:
    """Trump Plaza's two-pair rank groups: Low 2-6, Medium 7-10, High J-K, aces."""
    return "low" if rank <= 6 else "medium" if rank <= 10 else "high" if rank <= 13 else "ace"


def _value(seven, front) -> tuple[int, int]:
    back = list(seven)
    for card in front:
        back.remove(card)
    return rank5(back), rank2(list(front))


def _best_sf(seven) -> tuple[int, int]:
    """README section 5: of the legal settings with an S/F back, best front, then back."""
    pool = []
    for setting in splits(seven):
        back_value, front_value = rank5(setting.back), rank2(setting.front)
        if back_value >> 20 in SF_CATEGORIES and not is_foul_strengths(back_value, front_value):
            pool.append((front_value, back_value))
    front_value, back_value = max(pool)
    return back_value, front_value


def plain_trump_plaza(seven) -> tuple[int, int]:
    """Return (back value, front value) of the Trump Plaza sheet's setting."""
    rank = CARD_RANK.__getitem__            # the joker counts as an ace
    count = Counter(rank(c) for c in seven)
    shape = "".join(str(n) for n in sorted(count.values(), reverse=True))
    has_sf = any(rank5(list(five)) >> 20 in SF_CATEGORIES for five in combinations(seven, 5))
    singles = sorted((c for c in seven if count[rank(c)] == 1), key=rank, reverse=True)
    pairs = sorted((r for r, n in count.items() if n == 2), reverse=True)
    trips = sorted((r for r, n in count.items() if n == 3), reverse=True)
    ace_single = count[ACE] == 1
    king_or_better = ace_single or count[KING] == 1

    def cards_of(r: int) -> list[Card]:
        return [c for c in seven if rank(c) == r]

    def place(front) -> tuple[int, int]:
        return _value(seven, front)

    def two_of(r: int) -> tuple[int, int]:
        # any two of that rank; the choice that leaves the strongest back
        return max(place(two) for two in combinations(cards_of(r), 2))

    def top_two() -> tuple[int, int]:
        return place(singles[:2])

    if shape == "1111111":                                      # rules 1 and 13.1
        if has_sf:
            return _best_sf(seven)
        by_rank = sorted(seven, key=rank, reverse=True)
        return place(by_rank[1:3])
    if shape == "211111":                                       # rules 2 and 13.2
        return _best_sf(seven) if has_sf else top_two()
    if shape == "22111":                                        # rule 3, S/F or not
        high, low = pairs
        groups = {_group(high), _group(low)}
        split = two_of(low)
        if high == ACE or groups in ({"high"}, {"medium", "high"}):
            return split
        if groups in ({"low", "high"}, {"medium"}):
            return top_two() if ace_single else split
        return top_two() if king_or_better else split             # low+low, low+medium
    if shape == "2221":                                         # rule 4
        return two_of(pairs[0])
    if shape == "31111":                                        # rules 5 and 13.3
        if has_sf:
            return _best_sf(seven)
        if trips[0] == ACE:
            return max(place((ace, singles[0])) for ace in cards_of(ACE))
        return top_two()
    if shape == "331":                                          # rule 6
        return two_of(trips[0])
    if shape == "3211":                                         # rule 7
        if pairs[0] == DEUCE and {rank(c) for c in singles} == {ACE, KING}:
            return top_two()
        return two_of(pairs[0])
    if shape == "322":                                          # rule 8
        return two_of(pairs[0])
    if shape == "4111":                                         # rule 9 (and 13.5)
        quads = next(r for r, n in count.items() if n == 4)
        split = two_of(quads)
        if quads <= 6:
            return top_two()
        if quads <= 10:
            return top_two() if king_or_better else split
        if quads <= 13:
            return top_two() if ace_single else split
        return split
    if shape in ("421", "43"):                                  # rules 10 and 11
        return two_of(pairs[0] if shape == "421" else trips[0])
    if shape in ("511", "52"):                                  # rule 12
        return two_of(KING) if count[KING] == 2 else two_of(ACE)
    raise AssertionError(f"shape {shape} is not on the sheet")


TRUMP_PLAZA = load("trump-plaza")


def _engine(seven) -> tuple[int, int]:
    setting = TRUMP_PLAZA.set(seven)
    return rank5(list(setting.back)), rank2(list(setting.front))


def _straight_flush_rich_deck() -> list[Card]:
    """Spades, the joker and every 7 to J: most hands drawn from it hold an S/F."""
    return [c for c in DECK if c == JOKER or c.suit == "s" or 7 <= c.rank <= 11]


def test_trump_plaza_matches_a_plain_reading_of_its_sheet_on_20000_hands():
    rng = random.Random(20261203)
    rich = _straight_flush_rich_deck()
    disagreements = []
    for i in range(20_000):
        seven = rng.sample(DECK if i % 2 else rich, 7)
        if _engine(seven) != plain_trump_plaza(seven):
            disagreements.append(" ".join(map(str, seven)))
    assert disagreements == []


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True))
def test_trump_plaza_matches_a_plain_reading_of_its_sheet(seven):
    assert _engine(seven) == plain_trump_plaza(seven)


def test_plain_reading_tells_the_sheets_settings_apart():
    """The plain reading is not a copy of the engine: it disagrees with a wrong setting."""
    seven = [Card(c) for c in DECK if str(c) in {"8h", "8s", "3d", "3c", "Ks", "Td", "5h"}]
    together = _value(seven, [c for c in seven if str(c) in {"Ks", "Td"}])
    split = _value(seven, [c for c in seven if str(c) in {"3d", "3c"}])
    assert plain_trump_plaza(seven) == together != split      # rule 3.5: together
