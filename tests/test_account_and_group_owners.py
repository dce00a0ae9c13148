"""Issue 29 (2): one way to create, change and deactivate an account, one way to change a group.

``trainer/services/accounts.py`` is the only module that makes an account (``User(``,
``Membership(``), sets a password, deactivates one, or writes an account's columns;
``trainer/services/groups.py`` the only one that makes a group (``Group(``) or writes
its name, house way, table rules or settings (``group_settings.GroupSettings.save_to``
is the JSON writer it calls). The models themselves (``trainer/models/``) are the
columns and their own methods. The source of every other module of ``trainer/`` is read
with ``ast``: a failure names the file, the line and what it does.

And no web or command module writes the audit log itself: the services write their
entries with their change. The web's only entries are the sign-ins' (a session's
start and end, a refused password), which are not account changes.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import trainer

PACKAGE_DIR = Path(trainer.__file__).resolve().parent
ACCOUNTS = "services/accounts.py"
GROUPS = "services/groups.py"
GROUP_SETTINGS = "services/group_settings.py"

# What only the accounts service does: construct, call, or assign.
ACCOUNT_CONSTRUCTORS = frozenset({"User", "Membership"})
ACCOUNT_METHODS = frozenset({"set_password", "deactivate", "end_other_sessions"})
# What only the groups service does (the settings' JSON writer is group_settings' own).
GROUP_CONSTRUCTORS = frozenset({"Group"})
GROUP_METHODS = frozenset({"save_to"})
# Columns no other model has: refused on any object.
OWN_COLUMNS = {
    **dict.fromkeys(("password_hash", "role", "active", "deactivated_by_role", "session_version",
                     "password_change_due", "membership", "language", "time_zone"), ACCOUNTS),
    **dict.fromkeys(("supervisor_id", "supervisor"), GROUPS),
}
# Columns other models have too (a session's house way, a profile's settings, a device's
# login): refused on a variable that names an account or a group.
SHARED_COLUMNS = {"login": ACCOUNTS, "name": ACCOUNTS, "house_way": GROUPS, "profile": GROUPS,
                  "settings": GROUPS}
ACCOUNT_VARIABLES = frozenset({"user", "trainee", "account", "admin", "manager", "supervisor",
                               "current_user"})
SQL_WRITES = frozenset({"insert", "delete"})
# The web's own audit entries: sign-ins, not changes of an account or a group.
WEB_AUDIT_ENTRIES = {("web/auth/pages.py", "sign-in.failed"), ("web/platform/sessions.py", "sign-in"),
                     ("web/platform/sessions.py", "sign-out")}
MODELS = {"User": ACCOUNTS, "Membership": ACCOUNTS, "Group": GROUPS}


def _modules() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        relative = path.relative_to(PACKAGE_DIR).as_posix()
        yield relative, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _called_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _assigned_attributes(node: ast.AST) -> Iterator[ast.Attribute]:
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        targets = [node.target]
    while targets:
        target = targets.pop()
        if isinstance(target, (ast.Tuple, ast.List)):
            targets.extend(target.elts)
        elif isinstance(target, ast.Attribute):
            yield target


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def _variable_owner(node: ast.expr) -> str | None:
    """Return whose object a variable names by its name: an account's, a group's, or None."""
    if not isinstance(node, ast.Name):
        return None
    name = node.id.lower()
    if name in ACCOUNT_VARIABLES:
        return ACCOUNTS
    return GROUPS if name == "group" or name.endswith("_group") else None


def _updated_model(call: ast.Call) -> str | None:
    """Return the model of ``update(Model)....values(...)``, or None."""
    node: ast.expr = call.func
    while isinstance(node, (ast.Attribute, ast.Call)):
        if isinstance(node, ast.Call):
            if (_called_name(node) == "update" and node.args
                    and isinstance(node.args[0], ast.Name) and node.args[0].id in MODELS):
                return node.args[0].id
            node = node.func
        else:
            node = node.value
    return None


def _sql_writes(node: ast.Call) -> Iterator[tuple[int, str, str]]:
    name = _called_name(node)
    if name in SQL_WRITES and node.args and isinstance(node.args[0], ast.Name) \
            and node.args[0].id in MODELS:
        yield node.lineno, MODELS[node.args[0].id], f"{name}({node.args[0].id})"
    if name == "values" and (model := _updated_model(node)) is not None:
        # A column set to itself (a row lock, services/table.py) changes nothing.
        changed = [kw.arg for kw in node.keywords if not (
            isinstance(kw.value, ast.Attribute) and kw.value.attr == kw.arg
            and isinstance(kw.value.value, ast.Name) and kw.value.value.id == model)]
        if changed or node.args:
            yield node.lineno, MODELS[model], f"update({model}).values({', '.join(map(str, changed))})"


def _writes(tree: ast.Module) -> Iterator[tuple[int, str, str]]:
    """Yield (line, owner, what) for each account or group write in a module."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _called_name(node)
            if name in ACCOUNT_CONSTRUCTORS | ACCOUNT_METHODS:
                yield node.lineno, ACCOUNTS, f"{name}(...)"
            elif name in GROUP_CONSTRUCTORS | GROUP_METHODS:
                yield node.lineno, GROUPS, f"{name}(...)"
            elif name == "setattr" and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant):
                owner = OWN_COLUMNS.get(str(node.args[1].value))
                if owner is None and _variable_owner(node.args[0]) is not None:
                    owner = SHARED_COLUMNS.get(str(node.args[1].value))
                if owner is not None:
                    yield node.lineno, owner, f"setattr(..., {node.args[1].value!r})"
            yield from _sql_writes(node)
        for target in _assigned_attributes(node):
            if target.attr in OWN_COLUMNS and not _is_self(target.value):
                yield target.lineno, OWN_COLUMNS[target.attr], f".{target.attr} = ..."
            elif target.attr in SHARED_COLUMNS and (variable := _variable_owner(target.value)):
                # "name" is an account's or a group's by the variable; the rest a group's or a login.
                owner = variable if target.attr == "name" else SHARED_COLUMNS[target.attr]
                yield target.lineno, owner, f"{ast.unparse(target.value)}.{target.attr} = ..."


def _allowed(module: str, owner: str, what: str) -> bool:
    if module.startswith("models/") or module == owner:
        return True
    # GroupSettings writes its own JSON onto a group; the groups service calls it.
    return module == GROUP_SETTINGS and owner == GROUPS and what in {
        "group.house_way = ...", "group.profile = ...", "group.settings = ..."}


def _check_finds_each_kind_of_write() -> None:
    """The check can fail: each kind of write it looks for is found in a sample, and the
    look-alikes (another model's column, an object's own attribute, a lock) are not."""
    sample = ast.parse(
        "u = User(login='x')\nm = Membership(group=g)\nu.set_password('p')\nu.deactivate()\n"
        "u.active = False\nu.role, group.house_way = 'admin', 'x'\nuser.name = 'N'\n"
        "g = Group(name='G')\nsettings.save_to(g)\ndb.session.execute(delete(Membership))\n"
        "setattr(u, 'language', 'pt')\nupdate(User).where(User.id == 1).values(role='admin')\n"
        "# look-alikes, not found:\n"
        "self.language = 'pt'\nrecord.settings = {}\nrow.name = 'x'\n"
        "update(User).where(User.id == 1).values(name=User.name)\n")
    found = [(owner, what) for _line, owner, what in _writes(sample)]
    assert sorted(found) == sorted([
        (ACCOUNTS, "User(...)"), (ACCOUNTS, "Membership(...)"), (ACCOUNTS, "set_password(...)"),
        (ACCOUNTS, "deactivate(...)"), (ACCOUNTS, ".active = ..."), (ACCOUNTS, ".role = ..."),
        (GROUPS, "group.house_way = ..."), (ACCOUNTS, "user.name = ..."), (GROUPS, "Group(...)"),
        (GROUPS, "save_to(...)"), (ACCOUNTS, "delete(Membership)"),
        (ACCOUNTS, "setattr(..., 'language')"), (ACCOUNTS, "update(User).values(role)")])


def test_accounts_and_groups_are_created_and_changed_only_by_their_services() -> None:
    _check_finds_each_kind_of_write()
    found = [f"trainer/{module}:{line}: {what} (only {owner} may)"
             for module, tree in _modules()
             for line, owner, what in _writes(tree) if not _allowed(module, owner, what)]
    assert not found, "\n".join(["Written outside their service:", *found])


def _audit_writes(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """Yield (line, action) for each audit entry a module writes itself."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "AuditLog":
            yield node.lineno, "AuditLog(...)"
        elif (isinstance(func, ast.Attribute) and func.attr == "record"
              and isinstance(func.value, ast.Name) and func.value.id == "audit"):
            action = node.args[1] if len(node.args) > 1 else None
            yield node.lineno, (action.value if isinstance(action, ast.Constant)
                                else ast.unparse(action) if action is not None else "?")


def test_no_web_or_command_module_writes_an_account_or_group_entry_itself() -> None:
    written = {(module, line, action) for module, tree in _modules()
               if module.startswith(("web/", "cli/")) for line, action in _audit_writes(tree)}
    unexpected = sorted(f"trainer/{module}:{line}: {action}" for module, line, action in written
                        if (module, action) not in WEB_AUDIT_ENTRIES)
    assert not unexpected, "\n".join(
        ["Audit entries written by a web or command module (the service writes them):",
         *unexpected])
