"""The hand-reading drill's words: its skills (rules.md §4-§6), categories and winners."""
from __future__ import annotations

from ....hands import Category
from ....messages import N_, Message
from ...explain import Text
from ...skills import Skill

WINNER_WORDS = {"a": N_("hand A wins"), "b": N_("hand B wins"), "copy": N_("it is a copy")}
# The hand categories in words, by slug; high card is pai gow.
CATEGORY_WORDS = {"high_card": N_("high card (pai gow)"), "one_pair": N_("one pair"),
                  "two_pair": N_("two pair"), "three_of_a_kind": N_("three of a kind"),
                  "straight": N_("straight"), "flush": N_("flush"),
                  "full_house": N_("full house"), "four_of_a_kind": N_("four of a kind"),
                  "straight_flush": N_("straight flush"), "royal_flush": N_("royal flush"),
                  "five_aces": N_("five aces")}


def category_words(slug: str) -> str:
    """Return a hand category in words ("three of a kind"); high card is pai gow."""
    return "high card (pai gow)" if slug == "high_card" else slug.replace("_", " ")


def category_message(slug: str) -> Text:
    """Return a hand category for a sentence, a word to translate."""
    found = CATEGORY_WORDS.get(slug)
    return Message(found) if found is not None and found == category_words(slug) \
        else category_words(slug)


def category_rule(category: Category, joker: bool) -> str:
    """Return the rule id of naming a hand of ``category`` (``.joker``: the joker in it)."""
    return f"reading.{category.slug.replace('_', '-')}" + (".joker" if joker else "")


def compare_rule(winner: str, size: str) -> str:
    """Return the rule id of comparing two hands of ``size`` ("five", "two") won by ``winner``."""
    return f"reading.{'copy' if winner == 'copy' else 'compare'}.{size}"


HINT = N_("Reading a hand: look for pairs, three or four of a kind first, then a "
          "straight or a flush, and where the joker fits.")
CATEGORY_SENTENCE = N_("From high to low: five aces, royal flush, straight flush, four of a "
                       "kind, full house, flush, straight, three of a kind, two pair, one "
                       "pair, high card.")
JOKER_SENTENCE = N_("The joker counts as an ace, or completes a straight, a flush or a "
                    "straight flush.")
SIZES = {"five": N_("five-card"), "two": N_("two-card")}


def _category_skills() -> list[Skill]:
    """Naming a hand of each category, without the joker and with it (five aces always
    hold the joker: there is no five-aces hand without it, so no such skill)."""
    skills = []
    for category in Category:
        hand = Message(CATEGORY_WORDS[category.slug])
        for joker in (False, True):
            if category is Category.FIVE_ACES and not joker:
                continue
            name = (Message(N_("Reading: %(hand)s with the joker"), hand=hand) if joker
                    else Message(N_("Reading: %(hand)s"), hand=hand))
            skills.append(Skill(id=category_rule(category, joker), section="§5" if joker else "§4",
                                name=name, short=name,
                                sentence=JOKER_SENTENCE if joker else CATEGORY_SENTENCE,
                                hint=HINT))
    return skills


def _compare_skill(winner: str, size: str, section: str, sentence: str) -> Skill:
    words = Message(SIZES[size])
    name = (Message(N_("Reading: a copy of %(size)s hands"), size=words) if winner == "copy"
            else Message(N_("Reading: which %(size)s hand wins"), size=words))
    return Skill(id=compare_rule(winner, size), section=section, name=name, short=name,
                 sentence=sentence, hint=HINT)


SKILLS = (
    *_category_skills(),
    _compare_skill("a", "five", "§4",
                   N_("Hands compare by category first, then by the ranks that make "
                      "them, high to low; suits never break a tie.")),
    _compare_skill("a", "two", "§6",
                   N_("A pair beats no pair; otherwise the higher card, then the lower, decides.")),
    _compare_skill("copy", "five", "§4",
                   N_("Hands of the same ranks are a copy: neither wins (at the table a copy "
                      "goes to the banker).")),
    _compare_skill("copy", "two", "§6",
                   N_("Two-card hands of the same ranks are a copy: neither wins (at the table "
                      "a copy goes to the banker).")),
)
