"""Cards and notation (rules.md, "Cards")."""
import random

import pytest

from trainer.engine.cards import DECK, JOKER, Card, deal, deal_piles, format_cards, parse_card, parse_cards


def test_deck_has_53_cards_with_one_joker():
    assert len(DECK) == 53
    assert len(set(DECK)) == 53
    assert sum(1 for c in DECK if c.is_joker) == 1
    assert sorted(str(c) for c in DECK if not c.is_joker)[:2] == ["2c", "2d"]


@pytest.mark.parametrize("text, canonical", [
    ("As", "As"), ("as", "As"), ("AS", "As"), ("10h", "Th"), ("10H", "Th"),
    ("td", "Td"), ("JK", "JK"), ("joker", "JK"), ("Joker", "JK"), ("jk", "JK"),
])
def test_notation_accepts_ten_any_case_and_joker(text, canonical):
    assert str(parse_card(text)) == canonical


def test_output_is_always_canonical():
    assert format_cards(parse_cards("as 10d 2C joker")) == "As Td 2c JK"


def test_every_card_round_trips():
    for card in DECK:
        assert parse_card(str(card)) == card


@pytest.mark.parametrize("text, fragment", [
    ("Ax Kd", "Ax is not a card"),
    ("1s", "1s is not a card"),
    ("As Kd As", "As appears twice"),
    ("JK joker", "JK appears twice"),
])
def test_bad_card_input_names_the_card(text, fragment):
    with pytest.raises(ValueError, match=fragment):
        parse_cards(text)


def test_wrong_card_count_is_refused():
    with pytest.raises(ValueError, match="7 cards; 6 were given"):
        parse_cards("As Ks Qs Js Ts 9s", 7)


def test_card_properties():
    card = parse_card("Qh")
    assert (card.rank, card.suit, card.name) == (12, "h", "queen of hearts")
    assert (JOKER.rank, JOKER.suit, JOKER.name) == (14, None, "joker")
    assert isinstance(card, Card) and repr(card) == "Card('Qh')"


def test_deal_replays_from_its_seed():
    assert deal(random.Random(42), 7) == deal(random.Random(42), 7)
    assert deal(random.Random(42), 7) != deal(random.Random(43), 7)
    hand = deal(random.Random(1), 7)
    assert len(set(hand)) == 7


def test_seven_piles_of_seven_and_four_unused():
    piles, unused = deal_piles(random.Random(5))
    assert len(piles) == 7 and all(len(p) == 7 for p in piles)
    assert len(unused) == 4
    everything = [c for p in piles for c in p] + list(unused)
    assert sorted(everything) == list(range(53))
