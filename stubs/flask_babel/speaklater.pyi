from collections.abc import Callable

# At run time a LazyString is no str subclass: it is a stand-in that computes
# ``func(*args, **kwargs)`` each time it is used and delegates every str operation and
# method to the result, made to go wherever a text does (WTForms labels and messages,
# flash, templates). Typed as a str for that use; ``isinstance(x, str)`` is False for
# it at run time, so code never narrows a lazy text with it (stubs/README.md).
class LazyString(str):
    def __init__(self, func: Callable[..., object], *args: object, **kwargs: object) -> None: ...
    def __html__(self) -> str: ...
