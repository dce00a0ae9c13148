"""The engine never calls back up: no hook installed in it, no state planted in it from above.

docs/architecture.md: the engine is the lowest floor and is called with everything it
needs (a drill's context carries the resolved house way and table rules). A hook would
let a higher floor make the engine call it at run time, which no import check sees.
Three ways to install one are refused, by reading the source with ``ast``:

1. a ``global`` statement anywhere in ``trainer/engine/`` (rebinding module state from a
   function). ``nonlocal`` cannot name module state (Python refuses it at compile time),
   so a closure's ``nonlocal`` is no hook and is not flagged;
2. an assignment to an engine module's attribute, or to one of the objects it exports,
   from any other module of ``trainer/`` (``=``, augmented, ``setattr``, ``del``, or an
   item / mutating call on an exported container such as the drill registry), through
   any name the module is bound to (``import trainer.engine.x as y``,
   ``from trainer.engine import x``, relative imports inside the engine);
3. an engine function that keeps one of its parameters in module-level state: a
   mutating call (``append``, ``extend``, ``insert``, ``add``, ``update``,
   ``setdefault``, ``__setitem__``), an item assignment or an attribute assignment on a
   module-level name (or a class, through ``cls``) whose stored value is, or holds, a
   parameter (the parameter itself, an attribute or bound method of it, a container,
   closure or ``partial`` holding it, or an instance made by calling it). A cache filled
   with values the engine computes (keyed by parameters or not) is fine.
"""
from __future__ import annotations

import ast
import importlib
import pkgutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import trainer

PACKAGE_DIR = Path(trainer.__file__).resolve().parent
REPO_ROOT = PACKAGE_DIR.parent
ENGINE = "trainer.engine"

MUTATING_METHODS = frozenset({"append", "extend", "insert", "add", "update", "setdefault", "__setitem__"})
# For these, only the stored value counts, not the key: a cache keyed by a parameter
# holding a computed value is no hook.
VALUE_ARGUMENT = {"setdefault": 1, "__setitem__": 1}
# What a higher floor must not call on a container the engine exports (the registry).
EMPTYING_OR_MUTATING = MUTATING_METHODS | {"pop", "popitem", "clear", "remove", "discard", "__delitem__"}

# Engine functions allowed to keep a parameter in module state, keyed by
# (file, qualified function name): why it is no hook, and whether only the engine may
# call it. Each entry must still match something (a stale entry would hide a new hook).
# What they keep is engine data the engine itself reads back, never a function of a
# higher floor; a registration (engine_only) is no hook only while no higher floor can
# call it, which the test below checks.
@dataclass(frozen=True)
class Allowed:
    why: str
    engine_only: bool


FORK_HANDOFF = ("a house way handed to the fork pool's worker processes, which find it in "
                "module state (a pool calls module-level functions); engine data, not a "
                "callable; cleared when the pool is done")
KEEPS_A_PARAMETER: dict[tuple[str, str], Allowed] = {
    ("trainer/engine/drills/base.py", "register"): Allowed(
        "the drill registry's class decorator: each drill kind registers its own class, "
        "inside the engine, when the engine's drills package is imported", engine_only=True),
    ("trainer/engine/house_way/class_build.py", "build_class_table"): Allowed(FORK_HANDOFF, False),
    ("trainer/engine/house_way/proof.py", "_runner"): Allowed(FORK_HANDOFF, False),
    ("trainer/engine/house_way/verify.py", "verify"): Allowed(FORK_HANDOFF, False),
    ("trainer/engine/house_way/simulate.py", "_given"): Allowed(
        "a house way given as an object, kept under its name and rules digest so the fork "
        "pool's workers find it (engine data, not a callable); NOT cleared: one entry per "
        "distinct way a process simulates", False),
}


def _modules() -> list[str]:
    names = ["trainer"]
    for info in pkgutil.walk_packages(trainer.__path__, prefix="trainer.", onerror=lambda name: None):
        names.append(info.name)
    return sorted(names)


MODULES = _modules()
MODULE_SET = frozenset(MODULES)


def _file(module: str) -> Path:
    found = importlib.import_module(module).__file__
    assert found, module
    return Path(found).resolve()


def _relative(path: Path) -> str:
    return path.relative_to(REPO_ROOT).as_posix()


def _is_engine(module: str) -> bool:
    return module == ENGINE or module.startswith(ENGINE + ".")


def _fail(problems: list[str], heading: str) -> None:
    if problems:
        pytest.fail(heading + "\n  " + "\n  ".join(problems), pytrace=False)


# --- 1. no ``global`` in the engine ----------------------------------------------


def global_statements(source: str) -> list[tuple[int, str]]:
    """Return (line, names) of every ``global`` statement in a module's source."""
    return [(node.lineno, ", ".join(node.names)) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Global)]


def test_the_engine_rebinds_no_module_state_with_global() -> None:
    problems = []
    for module in MODULES:
        if _is_engine(module):
            path = _file(module)
            problems += [f"{_relative(path)}:{line}: `global {names}`"
                         for line, names in global_statements(path.read_text(encoding="utf-8"))]
    _fail(problems, "The engine keeps no state a caller sets; pass it in (the drill's context) instead:")


# --- 2. nothing outside an engine module writes into it ---------------------------


def _resolve_from(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    parts = (module if is_package else module.rpartition(".")[0]).split(".")
    if node.level > 1:
        parts = parts[: len(parts) - (node.level - 1)]
    return ".".join(parts + ([node.module] if node.module else []))


@dataclass(frozen=True)
class Bound:
    """A local name bound to an engine module, or to an object an engine module exports."""

    target: str      # "trainer.engine.house_way.interpreter", or "...drills.base:DRILLS"
    is_module: bool


def engine_names(module: str, is_package: bool, tree: ast.AST) -> dict[str, Bound]:
    """Return the names a module's imports (anywhere in it) bind to engine modules or their objects.

    ``import trainer.engine.x`` binds ``trainer`` (written ``trainer.engine.x.attr``: an
    attribute chain, handled by ``_engine_target``); ``import trainer.engine.x as y``
    binds ``y``; ``from trainer.engine import x`` binds ``x`` to the module when it is
    one, else to the object.
    """
    bound: dict[str, Bound] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and _is_engine(alias.name):
                    bound[alias.asname] = Bound(alias.name, True)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve_from(module, is_package, node)
            if not _is_engine(base):
                continue
            for alias in node.names:
                if alias.name == "*":
                    continue
                candidate = f"{base}.{alias.name}"
                name = alias.asname or alias.name
                bound[name] = (Bound(candidate, True) if candidate in MODULE_SET
                               else Bound(f"{base}:{alias.name}", False))
    return bound


def _dotted(node: ast.expr) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return ".".join([node.id, *reversed(parts)])
    return None


def _engine_target(node: ast.expr, bound: dict[str, Bound]) -> str | None:
    """Return what an expression names in the engine (a module or an exported object), if anything."""
    dotted = _dotted(node)
    if dotted is None:
        return None
    if _is_engine(dotted) and dotted in MODULE_SET:
        return dotted
    head, _, rest = dotted.partition(".")
    if head == "trainer" and _is_engine(dotted):
        # trainer.engine.x.NAME: the longest module prefix, then the object.
        parts = dotted.split(".")
        for cut in range(len(parts) - 1, 2, -1):
            if ".".join(parts[:cut]) in MODULE_SET:
                return ".".join(parts[:cut]) + ":" + ".".join(parts[cut:])
        return None
    if head in bound:
        found = bound[head]
        if not rest:
            return found.target
        if found.is_module and f"{found.target}.{rest}" in MODULE_SET:
            return f"{found.target}.{rest}"
        return f"{found.target}:{rest}" if found.is_module else f"{found.target}.{rest}"
    return None


def writes_into_the_engine(module: str, is_package: bool, source: str) -> list[tuple[int, str]]:
    """Return (line, what) for every write into an engine module or an object it exports."""
    tree = ast.parse(source)
    bound = engine_names(module, is_package, tree)
    found: list[tuple[int, str]] = []

    def target_written(target: ast.expr) -> str | None:
        # ``x.attr = ``: x names an engine module or object; ``x[key] = ``: the same,
        # for an exported container (an engine module itself cannot be indexed).
        if isinstance(target, (ast.Attribute, ast.Subscript)):
            return _engine_target(target.value, bound)
        return None

    for node in ast.walk(tree):
        statement: ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Delete | None = (
            node if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)) else None)
        targets: list[ast.expr] = []
        if isinstance(statement, (ast.Assign, ast.Delete)):
            targets = list(statement.targets)
        elif statement is not None:
            targets = [statement.target]
        for target in targets:
            for each in (target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]):
                written = target_written(each)
                if written and statement is not None:
                    verb = "del" if isinstance(statement, ast.Delete) else "assigns to"
                    part = f".{each.attr}" if isinstance(each, ast.Attribute) else "[...]"
                    found.append((statement.lineno, f"{verb} {written}{part}"))
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in ("setattr", "delattr") and node.args:
                written = _engine_target(node.args[0], bound)
                if written:
                    found.append((node.lineno, f"{func.id}({written}, ...)"))
            elif isinstance(func, ast.Attribute) and func.attr in EMPTYING_OR_MUTATING:
                written = _engine_target(func.value, bound)
                if written and ":" in written:  # an exported object, not a module
                    found.append((node.lineno, f"{written}.{func.attr}(...)"))
    return found


def test_nothing_outside_the_engine_writes_into_an_engine_module() -> None:
    problems = []
    for module in MODULES:
        if _is_engine(module):
            continue  # part 3 below covers the engine's own state
        path = _file(module)
        problems += [f"{_relative(path)}:{line}: {what}"
                     for line, what in writes_into_the_engine(module, path.name == "__init__.py",
                                                              path.read_text(encoding="utf-8"))]
    _fail(problems, "Writes into an engine module from outside the engine (pass what the engine "
                    "needs as an argument instead):")


# --- 3. no engine function keeps a parameter in module state -----------------------


def _bound_at_module_level(tree: ast.Module) -> set[str]:
    """Return the names a module binds at its top level (assignments, defs, classes, imports)."""
    names: set[str] = set()
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            continue  # their bodies bind their own names
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        stack.extend(ast.iter_child_nodes(node))
    return names


def _parameters(function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> list[str]:
    args = function.args
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    names += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    return names


def _own_nodes(function: ast.AST) -> Iterator[ast.AST]:
    """Walk a function's body without entering the functions and classes defined in it."""
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(node))


def _root(node: ast.expr) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Starred)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _holds(node: ast.expr | None, tainted: set[str]) -> bool:
    """Tell whether an expression's value is, or keeps a reference to, a tainted name."""
    if node is None:
        return False
    if isinstance(node, ast.Name):
        return node.id in tainted
    if isinstance(node, (ast.Attribute, ast.Starred)):
        return _holds(node.value, tainted)  # part or bound method of a parameter
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_holds(e, tainted) for e in node.elts)
    if isinstance(node, ast.Dict):
        return any(_holds(e, tainted) for e in (*node.keys, *node.values) if e is not None)
    if isinstance(node, ast.Lambda):  # a closure over a parameter
        return any(isinstance(n, ast.Name) and n.id in tainted for n in ast.walk(node.body))
    if isinstance(node, ast.IfExp):
        return _holds(node.body, tainted) or _holds(node.orelse, tainted)
    if isinstance(node, ast.BoolOp):
        return any(_holds(v, tainted) for v in node.values)
    if isinstance(node, ast.NamedExpr):
        return _holds(node.value, tainted)
    if isinstance(node, ast.Call):
        callee = _dotted(node.func) or ""
        if callee.split(".")[-1] == "partial":  # functools.partial(fn, ...) keeps fn
            return any(_holds(a, tainted) for a in (*node.args, *(k.value for k in node.keywords)))
        if callee.split(".")[-1] in ("MappingProxyType", "tuple", "list", "dict", "set", "frozenset"):
            return any(_holds(a, tainted) for a in (*node.args, *(k.value for k in node.keywords)))
        # An instance made by calling a parameter (a class passed in) is the caller's code.
        return _root(node.func) in tainted
    return False  # a value computed from the parameters, not the parameters


@dataclass(frozen=True)
class Kept:
    """A place where an engine function keeps one of its parameters in module state."""

    line: int
    function: str   # qualified name, e.g. "set_resolver" or "Drill.register"
    what: str


def _stored(call: ast.Call) -> list[ast.expr]:
    """Return the arguments a mutating call stores (for a keyed store, the value only)."""
    assert isinstance(call.func, ast.Attribute)
    skip = VALUE_ARGUMENT.get(call.func.attr, 0)
    return [*call.args[skip:], *(k.value for k in call.keywords)]


def parameters_kept(source: str) -> list[Kept]:
    """Return every place an engine function stores a parameter into module-level state."""
    tree = ast.parse(source)
    module_names = _bound_at_module_level(tree)
    found: list[Kept] = []

    def visit(node: ast.AST, prefix: str, outer_tainted: frozenset[str], outer_locals: frozenset[str],
              in_class: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.", outer_tainted, outer_locals, True)
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                check(child, f"{prefix}{child.name}", outer_tainted, outer_locals, in_class)
            else:
                visit(child, prefix, outer_tainted, outer_locals, in_class)

    def check(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str,
              outer_tainted: frozenset[str], outer_locals: frozenset[str], in_class: bool) -> None:
        params = _parameters(function)
        decorators = {(_dotted(d) or "").split(".")[-1] for d in function.decorator_list}
        # A classmethod's (or __init_subclass__'s) first parameter is the class: module state.
        class_param = (params[0] if in_class and params
                       and ("classmethod" in decorators or function.name == "__init_subclass__")
                       else None)
        own_params = {p for p in params if p != class_param}
        nodes = list(_own_nodes(function))
        declared_global = {n for node in nodes if isinstance(node, ast.Global) for n in node.names}
        local = {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        local |= {(a.asname or a.name).split(".")[0] for n in nodes
                  if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
        local = (local | own_params | outer_locals) - declared_global
        if class_param:
            local.add(class_param)

        def module_state(root: str | None) -> bool:
            return root is not None and (root in aliases or root == class_param
                                         or root in declared_global
                                         or (root in module_names and root not in local))

        tainted = set(own_params | outer_tainted)
        aliases: set[str] = set()  # locals that are module state: ``hooks = _HOOKS``
        changed = True
        while changed:  # follow plain local copies to a fixed point
            changed = False
            for node in nodes:
                if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
                    continue
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = {t.id for t in targets if isinstance(t, ast.Name)}
                if names - tainted and _holds(node.value, tainted):
                    tainted |= names
                    changed = True
                if names - aliases and isinstance(node.value, (ast.Name, ast.Attribute)) \
                        and module_state(_root(node.value)):
                    aliases |= names
                    changed = True

        for node in nodes:
            mutating = (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr in MUTATING_METHODS and module_state(_root(node.func.value))
                        and any(_holds(a, tainted) for a in _stored(node)))
            setting = (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                       and node.func.id == "setattr" and len(node.args) == 3
                       and module_state(_root(node.args[0])) and _holds(node.args[2], tainted))
            if isinstance(node, ast.Call) and (mutating or setting):
                found.append(Kept(node.lineno, name, f"`{ast.unparse(node)}`"))
            elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    for each in (target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]):
                        if isinstance(each, (ast.Subscript, ast.Attribute)) \
                                and module_state(_root(each)) and _holds(node.value, tainted):
                            found.append(Kept(node.lineno, name, f"`{ast.unparse(node)}`"))
        # Functions defined inside see this one's parameters and locals (closures).
        for child in ast.iter_child_nodes(function):
            visit(child, f"{name}.", frozenset(tainted), frozenset(local), False)

    visit(tree, "", frozenset(), frozenset(), False)
    return found


def _engine_sources() -> Iterator[tuple[str, str]]:
    for module in MODULES:
        if _is_engine(module):
            path = _file(module)
            yield _relative(path), path.read_text(encoding="utf-8")


def test_no_engine_function_keeps_a_parameter_in_module_state() -> None:
    problems = []
    allowed_and_used = set()
    for where, source in _engine_sources():
        for kept in parameters_kept(source):
            if (where, kept.function) in KEEPS_A_PARAMETER:
                allowed_and_used.add((where, kept.function))
                continue
            problems.append(f"{where}:{kept.line}: {kept.function}(): {kept.what}")
    _fail(problems, "Engine functions that keep what a caller passes in module state (a hook the "
                    "engine calls back through; pass it in the drill's context instead):")
    stale = sorted(set(KEEPS_A_PARAMETER) - allowed_and_used)
    assert not stale, f"allowed places that keep no parameter any more (remove them): {stale}"


def uses_of(module: str, is_package: bool, source: str, owner: str, function: str) -> list[int]:
    """Return the lines where a module names the engine's ``owner.function``."""
    tree = ast.parse(source)
    bound = engine_names(module, is_package, tree)
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Name, ast.Attribute)):
            named = _engine_target(node, bound) or ""
            # Its own module's name for it, or any engine package's re-export of it.
            if named.replace(":", ".").rpartition(".")[2] == function and (
                    named.startswith(owner) or ":" in named):
                lines.append(node.lineno)
    return sorted(set(lines))


def _module_of_file(where: str) -> str:
    return where.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def test_an_engine_registration_is_used_inside_the_engine_only() -> None:
    """An allowed registration is no hook only while no higher floor calls it."""
    problems = []
    for module in MODULES:
        if _is_engine(module):
            continue
        path = _file(module)
        source = path.read_text(encoding="utf-8")
        for (where, function), allowed in KEEPS_A_PARAMETER.items():
            if allowed.engine_only:
                owner = _module_of_file(where)
                problems += [f"{_relative(path)}:{line}: uses {owner}.{function}"
                             for line in uses_of(module, path.name == "__init__.py", source, owner, function)]
    _fail(problems, "An engine registration used from a higher floor (that makes it a hook):")


# --- the checks themselves find what they are for ----------------------------------


RESOLVER_HOOK = """
_RESOLVER = []
_CACHE = {}
def set_resolver(fn):
    _RESOLVER.clear()
    if fn is not None:
        _RESOLVER.append(fn)
def cached(ref):
    way = compute(ref)
    _CACHE[(ref, 1)] = way
    _CACHE.setdefault(ref, compute(ref))
    return way
"""


def test_a_resolver_appended_to_a_module_list_is_found() -> None:
    kept = parameters_kept(RESOLVER_HOOK)
    assert [(k.line, k.function) for k in kept] == [(7, "set_resolver")], kept


@pytest.mark.parametrize("body", [
    "_HOOKS[0] = fn",
    "_HOOKS['x'] = (1, fn)",
    "_HOOKS.update(x=fn)",
    "_HOOKS.__setitem__('x', fn)",
    "_HOOKS.setdefault('x', fn)",
    "_HOOKS.insert(0, fn)",
    "_HOOKS.extend([fn])",
    "_HOOKS.add(lambda r: fn(r))",
    "_HOOKS.append(functools.partial(fn, 1))",
    "_HOOKS.append(fn.resolve)",
    "_HOOKS.append(fn())",
    "f = fn\n    hooks = _HOOKS\n    hooks.append(f)",
    "Holder.current = fn",
    "setattr(Holder, 'current', fn)",
])
def test_every_way_of_keeping_a_parameter_is_found(body: str) -> None:
    source = f"import functools\n_HOOKS = []\nclass Holder: pass\ndef install(fn):\n    {body}\n"
    assert [k.function for k in parameters_kept(source)] == ["install"], body


def test_a_classmethod_keeping_a_parameter_on_its_class_is_found() -> None:
    source = "class Base:\n    @classmethod\n    def install(cls, fn):\n        cls.hooks.append(fn)\n"
    assert [k.function for k in parameters_kept(source)] == ["Base.install"]


@pytest.mark.parametrize("body", [
    "_CACHE[key] = compute(key)",       # a cache of computed values, keyed by a parameter
    "_CACHE.setdefault(key, compute(key))",
    "cache = {}\n    cache[key] = key",  # a local, not module state
    "_CACHE = {}\n    _CACHE[key] = key",  # a local that shadows the module's name
    "self_list = []\n    self_list.append(key)",
])
def test_computed_caches_and_locals_are_not_hooks(body: str) -> None:
    source = f"_CACHE = {{}}\ndef compute(k): return k\ndef lookup(key):\n    {body}\n"
    assert parameters_kept(source) == [], body


def test_global_is_found() -> None:
    assert global_statements("X = 1\ndef f(v):\n    global X\n    X = v\n") == [(3, "X")]


@pytest.mark.parametrize(("source", "what"), [
    ("import trainer.engine.house_way.interpreter as way\nway._RESOLVER = [f]\n",
     "assigns to trainer.engine.house_way.interpreter._RESOLVER"),
    ("from trainer.engine.house_way import interpreter\ninterpreter.LIMIT += 1\n",
     "assigns to trainer.engine.house_way.interpreter.LIMIT"),
    ("from trainer.engine.house_way import interpreter\ndel interpreter.load\n",
     "del trainer.engine.house_way.interpreter.load"),
    ("import trainer.engine.house_way.interpreter\ntrainer.engine.house_way.interpreter.X = 1\n",
     "assigns to trainer.engine.house_way.interpreter.X"),
    ("def f():\n    from trainer.engine.house_way import interpreter as i\n    setattr(i, 'load', g)\n",
     "setattr(trainer.engine.house_way.interpreter, ...)"),
    ("from trainer.engine.drills import DRILLS\nDRILLS['x'] = object()\n",
     "assigns to trainer.engine.drills:DRILLS[...]"),
    ("from trainer.engine.drills import DRILLS\nDRILLS.update(x=1)\n",
     "trainer.engine.drills:DRILLS.update(...)"),
    ("from ..engine.drills.base import Drill\nDrill.resolver = staticmethod(f)\n",
     "assigns to trainer.engine.drills.base:Drill.resolver"),
])
def test_a_write_into_an_engine_module_is_found(source: str, what: str) -> None:
    found = writes_into_the_engine("trainer.services.example", False, source)
    assert [w for _, w in found] == [what], found


def test_a_registration_used_from_a_higher_floor_is_found() -> None:
    owner = "trainer.engine.drills.base"
    source = ("from trainer.engine.drills import base\nfrom trainer.engine.drills.base import register\n"
              "@register\nclass Mine: pass\nbase.register(Mine)\n"
              "from trainer.engine.drills import register as r\nr(Mine)\n")
    assert uses_of("trainer.services.example", False, source, owner, "register") == [3, 5, 7]


def test_reading_an_engine_module_is_no_write() -> None:
    source = ("from trainer.engine import drills\nfrom trainer.engine.drills import DRILLS\n"
              "x = drills.DRILLS['house-way']\ny = DRILLS.get('x')\nz = {}\nz['a'] = drills\n")
    assert writes_into_the_engine("trainer.services.example", False, source) == []
