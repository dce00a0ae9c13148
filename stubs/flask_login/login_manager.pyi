from collections.abc import Callable
from typing import TypeVar

from flask import Flask
from flask.typing import ResponseReturnValue
from flask_login.mixins import UserMixin

_UserLoader = TypeVar("_UserLoader", bound=Callable[[str], UserMixin | None])
_Unauthorized = TypeVar("_Unauthorized", bound=Callable[[], ResponseReturnValue])

class LoginManager:
    login_view: str | None
    # Any text: flashed as it is (this app sets a lazy translation).
    login_message: object
    login_message_category: str
    def __init__(self, app: Flask | None = None, add_context_processor: bool = True) -> None: ...
    def init_app(self, app: Flask, add_context_processor: bool = True) -> None: ...
    def user_loader(self, callback: _UserLoader) -> _UserLoader: ...
    def unauthorized_handler(self, callback: _Unauthorized) -> _Unauthorized: ...
