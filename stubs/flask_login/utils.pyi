from collections.abc import Callable
from datetime import timedelta
from typing import Any, ParamSpec, TypeVar

from flask.typing import ResponseReturnValue
from flask_login.mixins import UserMixin

_P = ParamSpec("_P")
_R = TypeVar("_R")

# A proxy to what the app's user loader returned (or the anonymous user): a class the
# library cannot name, so the one Any of these stubs.
current_user: Any

def encode_cookie(payload: str, key: str | None = None) -> str: ...
def login_url(login_view: str, next_url: str | None = None, next_field: str = "next") -> str: ...
def login_user(
    user: UserMixin,
    remember: bool = False,
    duration: timedelta | None = None,
    force: bool = False,
    fresh: bool = True,
) -> bool: ...
def logout_user() -> bool: ...

# The view runs as it is, or the login manager's unauthorized answer is returned instead.
def login_required(func: Callable[_P, _R]) -> Callable[_P, _R | ResponseReturnValue]: ...
