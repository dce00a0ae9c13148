from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup
from wtforms import Form
from wtforms.fields import Field
from wtforms.meta import _MultiDictLike

class FlaskForm(Form):
    # formdata defaults to the request's form and files (a private sentinel at run time).
    def __init__(self, formdata: _MultiDictLike | None = ..., **kwargs: object) -> None: ...
    def is_submitted(self) -> bool: ...
    def validate_on_submit(self, extra_validators: Mapping[str, Sequence[Any]] | None = None) -> bool: ...
    def hidden_tag(self, *fields: str | Field) -> Markup: ...
