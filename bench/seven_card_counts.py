#!/usr/bin/env python
"""Best-five-of-seven category counts over all C(53,7) seven-card hands.

Reproduces the published table for the 53-card deck (52 cards + joker) with the
project's own five-card evaluator, ``trainer.engine.hands.rank5_function``.  The
hands are not dealt one at a time: they are grouped into *classes* that share a
best category, one representative of each class is ranked (max of ``rank5`` over
its 21 five-card subsets), and the class is weighted by how many hands it holds.

Class of a hand = (rank multiset of the natural cards, joker or not, the set R
of ranks held in a "flush suit" if there is one).  A suit is a flush suit when it
holds 5+ natural cards, or 4+ and the joker is in the hand; with at most seven
cards at most one suit can qualify, and every other suit then holds at most two
natural cards.  ``rank5`` of a five-card subset depends only on the subset's ranks
and on whether all its natural cards share a suit, and the single-suited subsets
are exactly the five-card subsets of (flush-suit cards + joker).  So every hand of
a class has the same best category.  Weights (c_r = copies of rank r):

* all hands with the multiset: prod C(4, c_r);
* flush suit s with rank set R: 4 (the suit) * prod_{r in R} C(3, c_r - 1)
  * prod_{r not in R} C(3, c_r);
* no flush suit: the first minus the sum of the second over every R.

Before the main count the method is checked against exact brute force (every
hand, vectorised with NumPy over a table of rank5 of every five-card subset):
all 6-card hands of the full deck, all 7-card hands of a reduced deck, and a
random sample of full-deck 7-card hands classified hand by hand.  ``--brute``
also runs the full 154,143,080-hand brute force as an independent cross-check.

Usage:  .venv/bin/python bench/seven_card_counts.py [--brute] [--workers 2]
Exit status is non-zero if any count differs from the published figure or any
validation fails.
"""
from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from functools import cache
from itertools import combinations
from math import comb, prod
from multiprocessing import Pool

import numpy as np

from trainer.engine.hands import CATEGORY_SHIFT, Category, Wheel, rank5_function

JOKER = 52
RANK5 = rank5_function(Wheel.SECOND_HIGHEST)
N_CAT = len(Category)

# Published best-five-of-seven counts, 53-card deck (royal listed separately;
# "straight flush incl. royal" is 210,964).
PUBLISHED = {
    Category.FIVE_ACES: 1_128,
    Category.ROYAL_FLUSH: 26_132,
    Category.STRAIGHT_FLUSH: 210_964 - 26_132,
    Category.FOUR_OF_A_KIND: 307_472,
    Category.FULL_HOUSE: 4_188_528,
    Category.FLUSH: 6_172_088,
    Category.STRAIGHT: 11_236_028,
    Category.THREE_OF_A_KIND: 7_470_676,
    Category.TWO_PAIR: 35_553_816,
    Category.ONE_PAIR: 64_221_960,
    Category.HIGH_CARD: 24_780_420,
}
PUBLISHED_SF_INCL_ROYAL = 210_964
TOTAL_7 = comb(53, 7)  # 154,143,080


def best_category(cards) -> int:
    """Best category of a hand of 5..7 cards: max rank5 over its 5-card subsets."""
    return max(RANK5(s) for s in combinations(cards, 5)) >> CATEGORY_SHIFT


# --- the pattern method ------------------------------------------------------------

def rank_multisets(ranks: tuple[int, ...], n: int):
    """Yield count tuples (aligned with ``ranks``) of n cards, at most 4 per rank."""
    def rec(i: int, left: int, acc: list[int]):
        if i == len(ranks):
            if left == 0:
                yield tuple(acc)
            return
        for c in range(min(4, left) + 1):
            acc.append(c)
            yield from rec(i + 1, left - c, acc)
            acc.pop()
    yield from rec(0, n, [])


def pattern_counts(ranks: tuple[int, ...], n: int, keep_classes: bool = False):
    """Count best categories of all n-card hands (n <= 7) of the deck made of
    ``ranks`` (rank indices 0..12, four suits each) plus the joker.

    Returns (counts per category, number of classes, optional class table).  The
    class table maps (counts, joker, R or None) to the class's category.
    """
    assert 5 <= n <= 7
    counts = [0] * N_CAT
    classes: dict | None = {} if keep_classes else None
    n_classes = 0
    for j in (0, 1):
        k_min = 4 if j else 5
        for cnt in rank_multisets(ranks, n - j):
            present = [(r, c) for r, c in zip(ranks, cnt, strict=True) if c]
            total = prod(comb(4, c) for _, c in present)
            # No flush suit: suits spread round-robin, at most 2 naturals per suit.
            rep, i = [], 0
            for r, c in present:
                for _ in range(c):
                    rep.append(r * 4 + i % 4)
                    i += 1
            if j:
                rep.append(JOKER)
            plain_cat = best_category(rep)
            n_classes += 1
            flush_weight = 0
            for k in range(k_min, len(present) + 1):
                for sub in combinations(range(len(present)), k):
                    in_r = set(sub)
                    w = 4
                    rep = []
                    extra_suit = 1
                    for idx, (r, c) in enumerate(present):
                        if idx in in_r:
                            w *= comb(3, c - 1)
                            rep.append(r * 4)  # suit 0 is the flush suit
                            extras = c - 1
                        else:
                            w *= comb(3, c)
                            extras = c
                        for _ in range(extras):  # other suits hold <= 2 naturals
                            rep.append(r * 4 + extra_suit)
                            extra_suit += 1
                    assert extra_suit <= 4
                    if w == 0:
                        continue
                    if j:
                        rep.append(JOKER)
                    cat = best_category(rep)
                    counts[cat] += w
                    flush_weight += w
                    n_classes += 1
                    if classes is not None:
                        classes[(cnt, j, frozenset(present[x][0] for x in sub))] = cat
            assert 0 <= flush_weight <= total
            counts[plain_cat] += total - flush_weight
            if classes is not None:
                classes[(cnt, j, None)] = plain_cat
    return counts, n_classes, classes


def class_key(hand, ranks: tuple[int, ...]):
    """The pattern class of a concrete hand (for the sampled check)."""
    naturals = [c for c in hand if c != JOKER]
    j = len(naturals) != len(hand)
    cnt = tuple(sum(1 for c in naturals if c // 4 == r) for r in ranks)
    for s in range(4):
        suited = [c // 4 for c in naturals if c % 4 == s]
        if len(suited) >= (4 if j else 5):
            return (cnt, int(j), frozenset(suited))
    return (cnt, int(j), None)


# --- exact brute force, vectorised ---------------------------------------------------

@cache
def combos(n: int, k: int) -> np.ndarray:
    """All k-combinations of range(n), lexicographic, as a uint8 array."""
    if k == 0:
        return np.zeros((1, 0), np.uint8)
    parts = []
    for a in range(n - k + 1):
        rest = combos(n - a - 1, k - 1)
        head = np.full((len(rest), 1), a, np.uint8)
        parts.append(np.hstack([head, rest + np.uint8(a + 1)]))
    return np.vstack(parts) if parts else np.zeros((0, k), np.uint8)


def build_table(deck: list[int]) -> np.ndarray:
    """Category of every 5-card subset of ``deck``, indexed by the combinadic
    sum C(p0,1)+C(p1,2)+...+C(p4,5) of its sorted deck positions."""
    table = np.empty(comb(len(deck), 5), np.int8)
    for pos in combinations(range(len(deck)), 5):
        idx = sum(comb(p, t + 1) for t, p in enumerate(pos))
        table[idx] = RANK5([deck[p] for p in pos]) >> CATEGORY_SHIFT
    return table


_W: dict = {}


def _init_worker(table, d, n):
    _W["table"], _W["d"], _W["n"] = table, d, n
    binom = np.array([[comb(p, t) for p in range(d)] for t in range(6)], np.int32)
    _W["binom"] = binom
    _W["subsets"] = list(combinations(range(n), 5))


def _brute_chunk(a: int) -> list[int]:
    """Category counts of all hands whose lowest deck position is ``a``."""
    table, d, n = _W["table"], _W["d"], _W["n"]
    binom, subsets = _W["binom"], _W["subsets"]
    out = np.zeros(N_CAT, np.int64)
    for b in range(a + 1, d - n + 2):
        rest = combos(d - b - 1, n - 2)
        if not len(rest):
            continue
        m = len(rest)
        hand = np.empty((m, n), np.int64)
        hand[:, 0] = a
        hand[:, 1] = b
        hand[:, 2:] = rest.astype(np.int64) + (b + 1)
        best = np.zeros(m, np.int8)
        for sub in subsets:
            idx = binom[1][hand[:, sub[0]]].copy()
            for t in range(1, 5):
                idx += binom[t + 1][hand[:, sub[t]]]
            np.maximum(best, table[idx], out=best)
        out += np.bincount(best, minlength=N_CAT)
    return out.tolist()


def brute_counts(deck: list[int], n: int, workers: int, table=None) -> list[int]:
    """Exact category counts over every n-card hand of ``deck``."""
    if table is None:
        table = build_table(deck)
    d = len(deck)
    starts = list(range(d - n + 1))  # ascending = largest chunks first
    if workers > 1:
        with Pool(workers, _init_worker, (table, d, n)) as pool:
            parts = pool.map(_brute_chunk, starts, chunksize=1)
    else:
        _init_worker(table, d, n)
        parts = [_brute_chunk(a) for a in starts]
    return [sum(p[c] for p in parts) for c in range(N_CAT)]


# --- reporting -----------------------------------------------------------------

def peak_rss_mb() -> tuple[float, float]:
    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return me, kids


def check(label: str, ours: list[int], theirs: list[int], failures: list[str]) -> None:
    ok = ours == theirs
    print(f"  {label}: {'OK' if ok else 'MISMATCH'}  total {sum(ours):,}")
    if not ok:
        failures.append(label)
        for c in Category:
            if ours[c] != theirs[c]:
                print(f"    {c.slug}: pattern {ours[c]:,} brute {theirs[c]:,}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--brute", action="store_true",
                    help="also brute-force all 154,143,080 hands (a few minutes)")
    ap.add_argument("--skip-validation", action="store_true")
    ap.add_argument("--sample", type=int, default=100_000,
                    help="random full-deck hands checked one by one")
    args = ap.parse_args()
    t0 = time.perf_counter()
    failures: list[str] = []
    all_ranks = tuple(range(13))
    full_deck = list(range(53))
    table53 = None

    if not args.skip_validation:
        print("Validation against exact brute force:")
        t = time.perf_counter()
        table53 = build_table(full_deck)
        pat6, _, _ = pattern_counts(all_ranks, 6)
        bru6 = brute_counts(full_deck, 6, args.workers, table53)
        check(f"all C(53,6) 6-card hands ({time.perf_counter() - t:.1f}s)", pat6, bru6,
              failures)
        # Reduced deck: 2 3 4 5 T J Q K A (+ joker), keeps wheels, royals, the
        # joker filling a missing 6, and every category.
        t = time.perf_counter()
        small = (0, 1, 2, 3, 8, 9, 10, 11, 12)
        small_deck = [r * 4 + s for r in small for s in range(4)] + [JOKER]
        pat7s, _, _ = pattern_counts(small, 7)
        bru7s = brute_counts(small_deck, 7, args.workers)
        check(f"all C({len(small_deck)},7) 7-card hands of 2345TJQKA+joker "
              f"({time.perf_counter() - t:.1f}s)", pat7s, bru7s, failures)

    print("Pattern count of all C(53,7) 7-card hands:")
    t = time.perf_counter()
    counts, n_classes, classes = pattern_counts(all_ranks, 7,
                                                keep_classes=not args.skip_validation)
    t_pattern = time.perf_counter() - t
    print(f"  {n_classes:,} classes ranked in {t_pattern:.1f}s")

    if not args.skip_validation and args.sample:
        t = time.perf_counter()
        rng = random.Random(20240607)
        bad = 0
        for _ in range(args.sample):
            hand = rng.sample(full_deck, 7)
            if classes[class_key(hand, all_ranks)] != best_category(hand):
                bad += 1
        label = (f"{args.sample:,} random 7-card hands, class vs brute force "
                 f"({time.perf_counter() - t:.1f}s)")
        print(f"  {label}: {'OK' if not bad else f'{bad} MISMATCHES'}")
        if bad:
            failures.append(label)

    if args.brute:
        t = time.perf_counter()
        bru7 = brute_counts(full_deck, 7, args.workers, table53)
        check(f"full brute force, all C(53,7) hands ({time.perf_counter() - t:.1f}s)",
              counts, bru7, failures)

    print()
    print(f"{'category':<28}{'count':>14}{'published':>14}  match")
    rows = [(c.slug, counts[c], PUBLISHED[c]) for c in reversed(Category)]
    rows.insert(3, ("  straight_flush incl. royal",
                    counts[Category.STRAIGHT_FLUSH] + counts[Category.ROYAL_FLUSH],
                    PUBLISHED_SF_INCL_ROYAL))
    rows.append(("total", sum(counts), TOTAL_7))
    rows.append(("  published total", sum(PUBLISHED.values()), TOTAL_7))
    for name, ours, pub in rows:
        ok = ours == pub
        if not ok:
            failures.append(name)
        print(f"{name:<28}{ours:>14,}{pub:>14,}  {'yes' if ok else 'NO'}")
    wall = time.perf_counter() - t0
    me, kids = peak_rss_mb()
    print()
    print(f"wall time {wall:.1f}s; peak RSS {me:.0f} MB self + {kids:.0f} MB largest "
          f"child = {me + kids:.0f} MB")
    if failures:
        print(f"FAILED: {len(failures)} check(s): " + "; ".join(failures))
        return 1
    print("All counts match the published figures.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
