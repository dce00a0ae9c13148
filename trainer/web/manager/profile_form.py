"""The table-rules profile form of the manager's pages (issue 18, item 2).

Every field is checked where it is entered, with a sentence saying what is wanted;
amounts are typed in the reader's format (``web/platform/money_input.py``: "2.50", "2,50")
and kept as integer cents (never floats); the commission rate is a percentage with at most two decimals.
``profile_from(form)`` returns the engine's ``TableProfile`` or None after marking
the fields in error. The side bets are the engine's pay tables that may be offered
alone (an Envy table rides on a bonus bet), in the order listed; drills deal the first.
"""
from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, RadioField, SelectField, StringField, SubmitField
from wtforms.validators import DataRequired, Length

from trainer.engine.hands import Wheel
from trainer.engine.profiles import FoulPolicy, Rounding, SideBetOffer, TableProfile
from trainer.engine.side_bets import TableKind, load_table, table_names
from trainer.web.platform import languages, money_input
from trainer.web.words import data_words

PERCENT = re.compile(r"^\d{1,2}(\.\d{1,2})?$")
# Sane bounds, in cents and percent.
MAX_RATE_PERCENT = Decimal(25)
MAX_FEE_CENTS = 10_000
MIN_BET_CENTS, MAX_BET_CENTS = 100, 10_000_000
SIDE_MIN_CENTS, SIDE_MAX_CENTS = 100, 500_000
ENVY_TABLE = "envy"

WHEELS = [(Wheel.SECOND_HIGHEST.value, _l("A-2-3-4-5 is the second-highest straight")),
          (Wheel.LOWEST.value, _l("A-2-3-4-5 is the lowest straight"))]
COMMISSIONS = [("rate", _l("A commission on wins")),
               ("fee", _l("A flat fee on every hand")),
               ("none", _l("No commission (every bet pushes on the banker's "
                           "queen-high pai gow)"))]
FOUL_POLICIES = [(FoulPolicy.LOSE.value, _l("A fouled hand loses")),
                 (FoulPolicy.HOUSE_WAY.value, _l("A fouled hand is set the house way"))]


def side_tables() -> list[str]:
    """Return the pay tables a profile may offer as a bet (every one but Envy tables)."""
    return [name for name in table_names() if load_table(name).kind is not TableKind.ENVY]


def dollars(cents: int | None) -> str:
    """Return cents as the form shows them, in the reader's format ("2.50", "2,50"); empty for None."""
    return "" if cents is None else languages.page_money_format().number(cents)


class ProfileForm(FlaskForm):
    """A table-rules profile: its title, wheel, commission, foul policy, limits and side bets."""

    title = StringField(_l("Name (in words, as supervisors will see it)"),
                        validators=[DataRequired(_l("Give the table rules a name.")),
                                    Length(3, 80, _l("A name has 3 to 80 characters."))])
    wheel = SelectField(_l("The wheel"))
    commission = RadioField(_l("The house's take"), default="rate")
    rate = StringField(_l("Commission rate (%)"))
    rounding = SelectField(_l("Commission rounded"))
    # The amounts' labels name the installation's currency: set per request (``build_form``).
    fee = StringField(_l("Flat fee per hand"))
    foul_policy = SelectField(_l("Fouled hands"))
    min_bet = StringField(_l("Smallest bet"), default="2.00")
    max_bet = StringField(_l("Largest bet"), default="100.00")
    submit = SubmitField(_l("Save table rules"))
    # How amounts are typed, in the reader's language (``amounts_note``): set per request.
    amounts_note: str = ""


def amounts_note() -> str:
    """Say how amounts are typed: in the installation's currency (its code, which needs no
    grammar in any language: "USD", "EUR"), in the reader's format ("2.50", "2,50")."""
    return _("Amounts in %(currency)s (such as %(whole)s or %(example)s).",
             currency=languages.installation().currency,
             whole=languages.page_money_format().number(2500, short=True),
             example=dollars(250))


def build_form(profile: TableProfile | None = None, formdata: Any = None) -> ProfileForm:
    """Return the form with a set of side-bet fields per pay table, filled from ``profile``.

    The amounts' labels name the installation's currency as the reader writes it
    ("Smallest bet ($)", "Smallest bet (€)"); ``form.amounts_note`` says how to type them.
    """

    class Form(ProfileForm):
        pass

    sign = languages.currency_sign()
    for name in side_tables():
        table = load_table(name)
        title = data_words.data_text_words(table.title)
        setattr(Form, f"side-{name}", BooleanField(_("Offer %(title)s", title=title)))
        setattr(Form, f"side-{name}-min", StringField(_("Smallest %(title)s bet (%(currency)s)",
                                                        title=title, currency=sign)))
        setattr(Form, f"side-{name}-max", StringField(_("Largest %(title)s bet (%(currency)s)",
                                                        title=title, currency=sign)))
        if table.kind is TableKind.BONUS:
            setattr(Form, f"side-{name}-envy", BooleanField(_l("With Envy")))
        setattr(Form, f"side-{name}-commission", BooleanField(_l("Commission on its wins")))
    form = Form(formdata=formdata) if formdata is not None else Form()
    form.fee.label.text = _("Flat fee per hand (%(currency)s)", currency=sign)
    form.min_bet.label.text = _("Smallest bet (%(currency)s)", currency=sign)
    form.max_bet.label.text = _("Largest bet (%(currency)s)", currency=sign)
    form.amounts_note = amounts_note()
    # Choices set on the bound fields, as the app's other forms do.
    form.wheel.choices, form.commission.choices = list(WHEELS), list(COMMISSIONS)
    form.rounding.choices = data_words.rounding_choice_words()
    form.foul_policy.choices = list(FOUL_POLICIES)
    if profile is not None and formdata is None:
        form.title.data = profile.title
        form.wheel.data = profile.wheel.value
        form.commission.data = ("none" if profile.no_commission
                                else "fee" if profile.fee_cents is not None else "rate")
        form.rate.data = ("" if profile.no_commission or profile.fee_cents is not None
                          else str((profile.commission_rate * 100).normalize()))
        form.rounding.data = profile.commission_rounding.value
        form.fee.data = dollars(profile.fee_cents)
        form.foul_policy.data = profile.foul_policy.value
        form.min_bet.data, form.max_bet.data = (dollars(profile.min_bet_cents),
                                                dollars(profile.max_bet_cents))
    if profile is None and formdata is None and not form.is_submitted():
        # The defaults as the reader types amounts ("2.00", "2,00").
        form.min_bet.data, form.max_bet.data = dollars(200), dollars(10_000)
    if formdata is None:
        offers = {offer.table: offer for offer in (profile.side_bets if profile else ())}
        for name in side_tables():
            table, offer = load_table(name), offers.get(name)
            fixed = table.fixed_bet_cents
            default = SideBetOffer(name, fixed or 100, fixed or 2500)
            form[f"side-{name}"].data = offer is not None
            form[f"side-{name}-min"].data = dollars((offer or default).min_cents)
            form[f"side-{name}-max"].data = dollars((offer or default).max_cents)
            envy_field = getattr(form, f"side-{name}-envy", None)
            if envy_field is not None:
                envy_field.data = bool(offer and offer.envy)
            form[f"side-{name}-commission"].data = bool(offer and offer.commission)
    return form


def _error(field: Any, message: str) -> None:
    field.errors = [*field.errors, message]


def _cents(field: Any, required: bool = True) -> int | None:
    """Return an amount field as integer cents (typed in the reader's format, web/platform/money_input.py),
    or None after marking it in error."""
    text = (field.data or "").strip()
    if not text:
        if required:
            _error(field, _("Write an amount, such as 25 or %(example)s.",
                            example=dollars(250)))
        return None
    try:
        return money_input.parse_cents(text, languages.language())
    except money_input.AmountError as error:
        _error(field, str(error))
        return None


def profile_from(form: ProfileForm) -> TableProfile | None:
    """Return the profile the form describes, or None after marking every field in error."""
    errors_before = sum(len(f.errors) for f in form)
    kind = form.commission.data
    rate = Decimal("0.05")
    fee: int | None = None
    rate_text, fee_text = (form.rate.data or "").strip(), (form.fee.data or "").strip()
    if kind == "rate":
        if not rate_text:
            _error(form.rate, _("Write the commission rate, such as 5 or 4.5."))
        elif not PERCENT.match(rate_text) or not 0 < Decimal(rate_text) <= MAX_RATE_PERCENT:
            _error(form.rate, _("A commission rate is a percentage above 0 and at most "
                                "%(most)s, with at most two decimals, such as 5 or 4.5.",
                                most=MAX_RATE_PERCENT))
        else:
            rate = Decimal(rate_text) / 100
        if fee_text:
            _error(form.fee, _("Leave the flat fee empty: this table takes a commission."))
    elif kind == "fee":
        fee = _cents(form.fee)
        if fee is not None and not 0 < fee <= MAX_FEE_CENTS:
            _error(form.fee, _("A flat fee is from %(least)s to %(most)s.", least=languages.money(1),
                               most=languages.money(MAX_FEE_CENTS)))
        if rate_text:
            _error(form.rate, _("Leave the commission rate empty: this table takes a flat fee."))
    else:
        for field, text in ((form.rate, rate_text), (form.fee, fee_text)):
            if text:
                _error(field, _("Leave this empty: this table takes no commission."))
    low, high = _cents(form.min_bet), _cents(form.max_bet)
    bounds = {"least": languages.money(MIN_BET_CENTS), "most": languages.money(MAX_BET_CENTS)}
    for field, value in ((form.min_bet, low), (form.max_bet, high)):
        if value is not None and not MIN_BET_CENTS <= value <= MAX_BET_CENTS:
            _error(field, _("A bet limit is from %(least)s to %(most)s.", **bounds))
    if low is not None and high is not None and low > high and not form.max_bet.errors:
        _error(form.max_bet, _("The largest bet cannot be below the smallest."))
    offers = []
    side_bounds = {"least": languages.money(SIDE_MIN_CENTS), "most": languages.money(SIDE_MAX_CENTS)}
    for name in side_tables():
        if not form[f"side-{name}"].data:
            continue
        table = load_table(name)
        lo_field, hi_field = form[f"side-{name}-min"], form[f"side-{name}-max"]
        side_low, side_high = _cents(lo_field), _cents(hi_field)
        for side_field, value in ((lo_field, side_low), (hi_field, side_high)):
            if value is not None and not SIDE_MIN_CENTS <= value <= SIDE_MAX_CENTS:
                _error(side_field, _("A side-bet limit is from %(least)s to %(most)s.", **side_bounds))
        if side_low is None or side_high is None or lo_field.errors or hi_field.errors:
            continue
        if side_low > side_high:
            _error(hi_field, _("The largest bet cannot be below the smallest."))
            continue
        if table.fixed_bet_cents is not None and not (
                side_low == side_high == table.fixed_bet_cents):
            _error(lo_field, _("%(title)s is a fixed bet of %(amount)s.", title=table.title,
                               amount=languages.money(table.fixed_bet_cents)))
            continue
        envy_field = getattr(form, f"side-{name}-envy", None)
        offers.append(SideBetOffer(name, side_low, side_high,
                                   ENVY_TABLE if envy_field is not None and envy_field.data
                                   else None, bool(form[f"side-{name}-commission"].data)))
    if sum(len(f.errors) for f in form) > errors_before or low is None or high is None:
        return None
    try:
        return TableProfile(
            name="custom", title=(form.title.data or "").strip(), wheel=Wheel(form.wheel.data),
            commission_rate=rate, commission_rounding=Rounding(form.rounding.data),
            fee_cents=fee, foul_policy=FoulPolicy(form.foul_policy.data),
            no_commission=kind == "none", min_bet_cents=low, max_bet_cents=high,
            side_bets=tuple(offers))
    except ValueError as error:  # the engine's own check of the side bets, in words
        _error(form.submit, str(error))
        return None
