"""Class tables: a house way's decision for every class of seven-card hands.

The 154,143,080 seven-card hands fall into 292,253 classes that no house way can
tell apart (``verify`` explains why): a rank multiset (the joker a 14th symbol),
and, when some suit can make a flush, the set of ranks held in that suit. A class
is named by one integer, its *key*:

    key = (product of the seven cards' primes, hands.CARD_PRIME) << 13 | flush mask

where the flush mask has bit ``r`` set when the flush suit holds rank index ``r``
(0 = deuce .. 12 = ace), and is 0 when no suit can make a flush (a flush class
always holds four ranks or more in its suit, so 0 is unambiguous).

A *class table* holds, for one house way and one wheel setting, per class in key
order: the split index (0..20, ``setting.SPLITS``) and the rule (an index into the
way's ``rule_ids``, bit 7 set for the rule's ``.fallback``): two bytes a class. The
sorted keys are shared by every table (``class_keys``), with each class's queen-high
pai gow flag. The strengths of the chosen back and front follow from the key and the
split; the simulation derives them for every class at once (``simulate``), so they
are not shipped (they would quadruple the tables' size).

Card mapping: a table's split indices apply to the seven cards in *class order*:
sorted by card number for a class without a flush, and by (rank, not in the flush
suit, suit) for a flush class; the joker is last either way.

Tables for the presets are package data (``tables/``, written by
``tools/build_class_tables.py``), each carrying the ``rules_digest`` of the house
way it was built from; a table whose digest differs from the loaded way's is
rejected and the interpreter decides instead. This module reads tables; building
one needs the interpreter (``class_build.build_class_table``).
"""
from __future__ import annotations

import hashlib
import json
import logging
import sys
import zlib
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from itertools import combinations
from math import comb

from ..cards import DECK, Card
from ..hands import CARD_PRIME

log = logging.getLogger(__name__)

MASK_BITS = 13
FALLBACK_BIT = 0x80
FORMAT = 1
_KEYS_FILE = "classes.bin"
_KEYS_MAGIC = b"PGCK"
_TABLE_MAGIC = b"PGCT"
_TABLES = "tables"


# --- the classes -------------------------------------------------------------------

def rank_multisets() -> Iterator[tuple[tuple[int, ...], int]]:
    """Yield (count of each rank 2..A, joker 0/1) for every seven-card rank multiset."""
    for joker in (0, 1):
        for c in _fill([0] * 13, 0, 7 - joker):
            yield c, joker


def _fill(counts: list[int], i: int, left: int) -> Iterator[tuple[int, ...]]:
    """Yield each way to spread ``left`` cards over ranks ``i``..A, at most four of a rank."""
    if i == 12:
        if left <= 4:
            counts[12] = left
            yield tuple(counts)
        return
    for n in range(min(4, left) + 1):
        counts[i] = n
        yield from _fill(counts, i + 1, left - n)
    counts[i] = 0


def _card(rank_index: int, suit: int) -> Card:
    return DECK[rank_index * 4 + suit]


def classes_of(counts: Sequence[int], joker: int) -> list[tuple[tuple[Card, ...], int]]:
    """Return one representative hand per class of a rank multiset, with its weight.

    A flush class's representative holds its flush suit in suit 0 (clubs), so its
    cards sorted by number are already in class order.
    """
    total = 1
    for c in counts:
        total *= comb(4, c)
    out: list[tuple[tuple[Card, ...], int]] = []
    held = [r for r in range(13) if counts[r]]
    need = 5 - joker
    flushy = 0
    for size in range(need, len(held) + 1):
        for S in combinations(held, size):
            ins = set(S)
            weight = 4
            for r in held:
                weight *= comb(3, counts[r] - 1) if r in ins else comb(3, counts[r])
            if not weight:
                continue
            cards = []
            for r in held:
                if r in ins:
                    cards.append(_card(r, 0))
                    cards.extend(_card(r, s) for s in range(1, counts[r]))
                else:
                    cards.extend(_card(r, s) for s in range(1, counts[r] + 1))
            if joker:
                cards.append(DECK[52])
            out.append((tuple(cards), weight))
            flushy += weight
    plain = total - flushy
    if plain:
        load_ = [0, 0, 0, 0]
        cards = []
        for r in sorted(held, key=lambda r: -counts[r]):
            suits = sorted(range(4), key=lambda s: (load_[s], s))[:counts[r]]
            for s in suits:
                load_[s] += 1
                cards.append(_card(r, s))
        if max(load_) + joker >= 5:
            raise AssertionError(f"no flush-free representative for {counts}")
        if joker:
            cards.append(DECK[52])
        out.append((tuple(cards), plain))
    return out


def flush_suit(cards: Sequence[int]) -> int | None:
    """Return the suit that can make a flush among seven cards, or None."""
    counts = [0, 0, 0, 0]
    joker = 0
    for c in cards:
        if c == 52:
            joker = 1
        else:
            counts[c & 3] += 1
    for s in range(4):
        if counts[s] + joker >= 5:
            return s
    return None


def class_order(cards: Sequence[int]) -> tuple[int, list[Card]]:
    """Return (class key, the cards in class order) of seven cards."""
    key = 1
    for c in cards:
        key *= CARD_PRIME[c]
    fs = flush_suit(cards)
    if fs is None:
        return key << MASK_BITS, [DECK[c] for c in sorted(cards)]
    mask = 0
    for c in cards:
        if c != 52 and c & 3 == fs:
            mask |= 1 << (c >> 2)
    ordered = sorted(cards, key=lambda c: (c >> 2, (c & 3) != fs, c))
    return key << MASK_BITS | mask, [DECK[c] for c in ordered]


def all_classes() -> list[tuple[int, tuple[Card, ...], int]]:
    """Return (key, representative in class order, weight) of every class, by key."""
    out = []
    for counts, joker in rank_multisets():
        for cards, weight in classes_of(counts, joker):
            key, ordered = class_order(cards)
            out.append((key, tuple(ordered), weight))
    out.sort()
    return out


# --- the shared keys -----------------------------------------------------------------

def _words(data: bytes, typecode: str) -> array[int]:
    words = array(typecode)
    words.frombytes(data)
    if sys.byteorder == "big":
        words.byteswap()
    return words


def _le(words: array[int]) -> bytes:
    if sys.byteorder == "big":
        words = array(words.typecode, words)
        words.byteswap()
    return words.tobytes()


@dataclass(frozen=True, slots=True)
class ClassKeys:
    """The sorted class keys (shared by every table) and each class's queen-high flag."""

    keys: array[int]          # 'Q', sorted
    queen_high: bytes         # 1 where the class is a queen-high pai gow
    digest: str               # sha256 of the serialised keys
    # Where each bucket of keys starts (``bucket_of``), so a look-up bisects a few
    # dozen keys, not 292,253.
    starts: array[int]

    def index(self, key: int) -> int:
        """Return the index of a class key (raise KeyError when it is not one)."""
        from bisect import bisect_left

        bucket = bucket_of(key)
        i = bisect_left(self.keys, key, self.starts[bucket], self.starts[bucket + 1])
        if i == len(self.keys) or self.keys[i] != key:
            raise KeyError(key)
        return i


def bucket_of(key: int) -> int:
    """Return a key's bucket: its bit length and the eight bits after its leading one.

    Buckets follow key order, so the keys of a bucket are a slice of the sorted keys.
    (``HouseWay.set`` inlines this.)
    """
    bits = key.bit_length()
    return bits << 8 | (key >> bits - 9) & 255


def bucket_starts(keys: Sequence[int]) -> array[int]:
    """Return the index of the first key of each bucket (and one past the end)."""
    from bisect import bisect_left

    starts = array("I")
    for bits in range(65):
        for top in range(256):
            bound = (256 | top) << bits - 9 if bits >= 9 else 0
            starts.append(bisect_left(keys, bound) if bits >= 9 else 0)
    starts.append(len(keys))
    return starts


def keys_to_bytes(keys: Sequence[int], queen_high: bytes) -> bytes:
    """Serialise the class keys: magic, sizes, zlib(the keys' u64 LE byte planes), zlib(flags).

    Byte planes (every key's byte 0, then every byte 1, ...) compress to about half
    of the keys' own bytes and read back with eight slice assignments.
    """
    raw = _le(array("Q", keys))
    packed = zlib.compress(b"".join(raw[i::8] for i in range(8)), 9)
    flags = zlib.compress(queen_high, 9)
    head = array("I", [len(keys), len(packed), len(flags)])
    return _KEYS_MAGIC + _le(head) + packed + flags


def keys_from_bytes(data: bytes) -> ClassKeys:
    """Read ``keys_to_bytes``."""
    if data[:4] != _KEYS_MAGIC:
        raise ValueError("Not a class-key file.")
    n, n_packed, n_flags = _words(data[4:16], "I")
    planes = zlib.decompress(data[16:16 + n_packed])
    flags = zlib.decompress(data[16 + n_packed:16 + n_packed + n_flags])
    if len(planes) != 8 * n or len(flags) != n:
        raise ValueError("A class-key file of the wrong size.")
    raw = bytearray(8 * n)
    for i in range(8):
        raw[i::8] = planes[i * n:(i + 1) * n]
    keys = _words(bytes(raw), "Q")
    return ClassKeys(keys, flags, hashlib.sha256(data).hexdigest(), bucket_starts(keys))


def build_class_keys() -> tuple[list[int], bytes]:
    """Enumerate every class: the sorted keys and their queen-high flags."""
    from ..hands import is_queen_high_pai_gow

    classes = all_classes()
    keys = [k for k, _, _ in classes]
    flags = bytes(int(is_queen_high_pai_gow(cards)) for _, cards, _ in classes)
    return keys, flags


_KEYS: list[ClassKeys] = []


def _data_dir() -> resources.abc.Traversable:
    return resources.files(__package__).joinpath(_TABLES)


def class_keys() -> ClassKeys:
    """Return the shared class keys: read from package data, or built if it is missing."""
    if not _KEYS:
        try:
            data = _data_dir().joinpath(_KEYS_FILE).read_bytes()
        except FileNotFoundError:
            keys, flags = build_class_keys()
            data = keys_to_bytes(keys, flags)
        _KEYS.append(keys_from_bytes(data))
    return _KEYS[0]


# --- one house way's table -----------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ClassTable:
    """One house way's decisions for every class under one wheel setting."""

    name: str
    wheel: str
    rules_digest: str
    rule_ids: tuple[str, ...]
    keys: ClassKeys
    split: bytes              # split index per class
    rule: bytes               # rule index per class, FALLBACK_BIT for a fallback

    @property
    def rule_names(self) -> tuple[str, ...]:
        """Return the rule id of each of the 256 rule bytes ('' where unused)."""
        names = [""] * 256
        for i, rid in enumerate(self.rule_ids):
            names[i] = rid
            names[i | FALLBACK_BIT] = rid + ".fallback"
        return tuple(names)

    def rule_id(self, i: int) -> str:
        """Return the deciding rule id of class ``i``."""
        r = self.rule[i]
        base = self.rule_ids[r & ~FALLBACK_BIT]
        return base + ".fallback" if r & FALLBACK_BIT else base

    def to_bytes(self) -> bytes:
        """Serialise: magic, a JSON header line, then zlib of the two columns."""
        header = {"format": FORMAT, "name": self.name, "wheel": self.wheel,
                  "rules_digest": self.rules_digest, "rule_ids": list(self.rule_ids),
                  "keys": self.keys.digest, "classes": len(self.split)}
        body = zlib.compress(self.split + self.rule, 9)
        return (_TABLE_MAGIC + json.dumps(header, sort_keys=True).encode() + b"\n" + body)


def read_header(data: bytes) -> dict[str, object]:
    """Return the JSON header of a serialised table."""
    if data[:4] != _TABLE_MAGIC:
        raise ValueError("Not a class table.")
    end = data.index(b"\n")
    header: dict[str, object] = json.loads(data[4:end])
    return header


def table_from_bytes(data: bytes, keys: ClassKeys) -> ClassTable:
    """Read ``ClassTable.to_bytes``; raise ValueError if it does not fit the keys."""
    header = read_header(data)
    n = len(keys.keys)
    if header.get("format") != FORMAT or header.get("keys") != keys.digest or \
            header.get("classes") != n:
        raise ValueError("A class table made for other class keys or another format.")
    body = zlib.decompress(data[data.index(b"\n") + 1:])
    if len(body) != 2 * n:
        raise ValueError("A class table of the wrong size.")
    rule_ids = header["rule_ids"]
    if not isinstance(rule_ids, list) or max(body[n:]) & ~FALLBACK_BIT >= len(rule_ids) \
            or max(body[:n]) > 20:
        raise ValueError("A class table naming a rule or split that does not exist.")
    return ClassTable(str(header["name"]), str(header["wheel"]), str(header["rules_digest"]),
                      tuple(str(r) for r in rule_ids), keys, body[:n], body[n:])


def table_file_name(name: str, wheel: str) -> str:
    """Return the package-data file name of a preset's table for one wheel setting."""
    return f"{name}-{wheel}.bin"


def shipped_table(name: str, wheel: str, rules_digest: str) -> ClassTable | None:
    """Return a preset's shipped table, or None (no file, or made from other rules)."""
    try:
        data = _data_dir().joinpath(table_file_name(name, wheel)).read_bytes()
    except (FileNotFoundError, OSError):
        return None
    try:
        header = read_header(data)
    except ValueError as exc:
        log.warning("Class table %s/%s unreadable (%s); the interpreter decides.",
                    name, wheel, exc)
        return None
    if header.get("rules_digest") != rules_digest:
        log.warning("Class table %s/%s was built from other rules (digest %s, the house "
                    "way's is %s); the interpreter decides.", name, wheel,
                    str(header.get("rules_digest"))[:12], rules_digest[:12])
        return None
    try:
        return table_from_bytes(data, class_keys())
    except (ValueError, zlib.error) as exc:
        log.warning("Class table %s/%s unreadable (%s); the interpreter decides.",
                    name, wheel, exc)
        return None
