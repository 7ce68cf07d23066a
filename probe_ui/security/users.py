"""Who uses the app, and what each may do: the users file, salted password hashes and the three roles.

A users file (``probe-ui --auth-file PATH``; written by ``probe-ui users add NAME``) holds one user per line::

    alice:prober:scrypt$16384$8$1$<salt, base64>$<hash, base64>
    bob:prober:scrypt$16384$8$1$<salt, base64>$<hash, base64>:max_cost_usd=5.0

A line may end with fields of the user's own, ``key=value`` separated by commas; the one there is is
``max_cost_usd`` (:data:`LIMIT_FIELD`), the most the user's calls may cost in the app, in US dollars (set by an
admin with ``probe-ui users limit NAME USD``; the app holds every call to it: :mod:`probe_ui.runner.allowance`).

Blank lines and lines starting with ``#`` are ignored. Passwords are never stored: each line holds an scrypt hash
(the standard library's :func:`hashlib.scrypt`) with its own random 16-byte salt and cost parameters, and a login
is checked by hashing the typed password the same way and comparing in constant time. A line in the old
``user:password`` form is refused: a plain-text password has no place in a file that several people may read.

Roles, each with the rights of the one before it:

- ``viewer``: reads results (the Results tab), nothing else;
- ``prober``: probes, stress tests and batches (which spend API credit), rates answers, saves benchmark sets, adds
  endpoints for themselves (on a server open beyond this machine, only at hosts the server allows);
- ``admin``: adds endpoints for everyone and at any host, and cancels or resumes anyone's run.

Without a login (the app on this machine only) there is one local user, :data:`LOCAL_USER`, with a prober's rights.
"""

from __future__ import annotations

import base64
import functools
import getpass
import hashlib
import hmac
import logging
import math
import os
import re
import secrets
import stat
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from probe_ui.errors import ProbeUIError

ROLES = ("viewer", "prober", "admin")
#: what each role may do (the app checks these in every callback; hiding a tab is not a check)
RIGHTS: dict[str, frozenset[str]] = {
    "viewer": frozenset({"read"}),
    "prober": frozenset({"read", "probe", "rate", "add_endpoint"}),
    "admin": frozenset({"read", "probe", "rate", "add_endpoint", "share_endpoint", "any_host", "cancel_any",
                       "manage_sets", "send_gate"}),
}
#: the one user of an app served without a login (loopback only)
LOCAL_USER = "local"
LOCAL_ROLE = "prober"
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@+-]{0,63}$")
MIN_PASSWORD = 8
#: a user's spending limit in the app, in US dollars (an optional field at the end of their line)
LIMIT_FIELD = "max_cost_usd"
#: scrypt's cost: 2**14 x 8 x 1 takes 16 MiB and about 50 ms a check here (OWASP's minimum for scrypt)
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
_SCHEME = "scrypt"
log = logging.getLogger("probe_ui.security.users")


class UsersError(ProbeUIError, ValueError):
    """A users file, user name, role or password that cannot be used; the message names the file and line."""


@dataclass(frozen=True)
class User:
    """Someone using the app: a name and a role (see the module doc)."""

    name: str
    role: str

    def can(self, right: str) -> bool:
        return right in RIGHTS.get(self.role, frozenset())


@dataclass(frozen=True)
class Account:
    """One line of a users file: a user, their password hash and their spending limit (USD; None: none)."""

    name: str
    role: str
    hash: str
    max_cost_usd: float | None = None


def check_name(name: str) -> str:
    name = (name or "").strip()
    if not NAME_RE.match(name):
        raise UsersError(f"user name {name[:40]!r} is not valid: 1-64 letters, digits, '.', '_', '-', '@' or '+', "
                         "starting with a letter or digit")
    return name


def check_role(role: str) -> str:
    if role not in ROLES:
        raise UsersError(f"role {role!r} is not one of {', '.join(ROLES)}")
    return role


def check_limit(value: Any) -> float:
    """``value`` as a spending limit in US dollars (a finite number, 0 or more), else a one-line UsersError naming
    the field."""
    try:
        usd = float(str(value).strip().removeprefix("$")) if not isinstance(value, bool) else math.nan
    except (TypeError, ValueError, OverflowError):
        usd = math.nan
    if not (math.isfinite(usd) and usd >= 0):
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise UsersError(f"{LIMIT_FIELD} {shown}: give an amount in US dollars, 0 or more (e.g. 5.00)")
    return usd


def _fields(text: str, here: str) -> dict[str, float]:
    """The fields at the end of a user's line (``max_cost_usd=5.0``), checked."""
    out: dict[str, float] = {}
    for part in text.split(","):
        key, eq, value = part.strip().partition("=")
        if key != LIMIT_FIELD or not eq:
            raise UsersError(f"{here}: unknown field {key[:40]!r} after the hash (the one known: {LIMIT_FIELD}=USD)")
        try:
            out[key] = check_limit(value)
        except UsersError as exc:
            raise UsersError(f"{here}: {exc}") from None
    return out


# ---- password hashes ---------------------------------------------------------------------------------------------
def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=128 * r * (n + p + 2) + 2**20,
                          dklen=32)


def hash_password(password: str) -> str:
    """A salted scrypt hash of ``password``: ``scrypt$N$r$p$salt$hash`` (base64), a fresh random salt each time."""
    salt = secrets.token_bytes(16)
    digest = _scrypt(password, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
    return f"{_SCHEME}${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${_b64(salt)}${_b64(digest)}"


def _parse_hash(stored: str) -> tuple[int, int, int, bytes, bytes]:
    scheme, n, r, p, salt, digest = stored.split("$")
    if scheme != _SCHEME:
        raise ValueError(scheme)
    n_, r_, p_ = int(n), int(r), int(p)
    if not (2 <= n_ <= 2**20 and n_ & (n_ - 1) == 0 and 1 <= r_ <= 32 and 1 <= p_ <= 16):
        raise ValueError("cost out of range")
    return n_, r_, p_, base64.b64decode(salt, validate=True), base64.b64decode(digest, validate=True)


def verify_password(password: str, stored: str) -> bool:
    """Whether ``password`` hashes to ``stored`` (compared in constant time); False for a malformed hash."""
    try:
        n, r, p, salt, digest = _parse_hash(stored)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(_scrypt(password, salt, n, r, p), digest)


@functools.cache
def _dummy_hash() -> str:
    """Checked for an unknown user name, so that a wrong name takes as long as a wrong password."""
    return hash_password(secrets.token_hex(16))


# ---- the users file ----------------------------------------------------------------------------------------------
def parse_users(text: str, where: str) -> dict[str, Account]:
    """The accounts of a users file's text; raises UsersError naming ``where`` and the line of the first problem
    (never quoting a line, which might hold a password)."""
    accounts: dict[str, Account] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        here = f"{where}: line {number}"
        parts = line.split(":")
        if len(parts) == 2 or (len(parts) >= 3 and not parts[2].startswith(f"{_SCHEME}$")):
            raise UsersError(f"{here}: looks like a plain-text password (user:password); a users file holds salted "
                             f"hashes: make it with 'probe-ui users add NAME --file {where}'")
        if len(parts) not in (3, 4):
            raise UsersError(f"{here}: expected name:role:hash, then {LIMIT_FIELD}=USD or nothing (written by "
                             "'probe-ui users add NAME')")
        name, role, digest = parts[:3]
        try:
            check_name(name)
            check_role(role)
        except UsersError as exc:
            raise UsersError(f"{here}: {exc}") from None
        try:
            _parse_hash(digest)
        except (ValueError, TypeError):
            raise UsersError(f"{here}: the password hash is malformed (re-add the user with 'probe-ui users add "
                             f"{name}')") from None
        if name in accounts:
            raise UsersError(f"{here}: user {name!r} is listed twice")
        fields = _fields(parts[3], here) if len(parts) == 4 else {}
        accounts[name] = Account(name, role, digest, fields.get(LIMIT_FIELD))
    return accounts


def read_users(path: str | os.PathLike[str], *, missing_ok: bool = False) -> dict[str, Account]:
    """The accounts in a users file (empty when it does not exist and ``missing_ok``)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        if missing_ok:
            return {}
        raise UsersError(f"{p}: no such users file (make one with 'probe-ui users add NAME --file {p}')") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsersError(f"{p}: cannot be read: {getattr(exc, 'strerror', None) or exc}") from None
    return parse_users(text, str(p))


def _writable(path: str | os.PathLike[str]) -> Path:
    """``path``, unless something other than a regular file (a link, folder, device or FIFO) is there."""
    p = Path(path)
    try:
        st = p.lstat()
    except FileNotFoundError:
        return p
    if not stat.S_ISREG(st.st_mode):
        raise UsersError(f"{p} is not a regular file (a link, folder or device): not replaced; give another --file")
    return p


def write_users(path: str | os.PathLike[str], accounts: dict[str, Account]) -> None:
    """Write a users file safely (:mod:`probe_ui.files.safe_write`: a temporary file beside it, renamed into place),
    readable by its owner only (mode 0600 from the start). Refuses to replace anything that is not a regular file
    (a link, a folder, a device, a FIFO)."""
    from probe_ui.files.safe_write import WriteError, write_text

    p = _writable(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    lines = ["# probe-ui users: name:role:scrypt hash (probe-ui users add NAME), then max_cost_usd=USD where a "
             "spending limit is set (probe-ui users limit NAME USD). Keep this file private."]
    lines += [f"{a.name}:{a.role}:{a.hash}" + (f":{LIMIT_FIELD}={a.max_cost_usd!r}" if a.max_cost_usd is not None
                                               else "") for a in accounts.values()]
    try:
        write_text(p, "\n".join(lines) + "\n", force=True, mode=0o600, what="cannot write the users file")
    except WriteError as exc:
        raise UsersError(str(exc)) from None


def add_user(path: str | os.PathLike[str], name: str, role: str, password: str) -> bool:
    """Add a user to a users file, or change their role and password; True when the user is new."""
    name, role = check_name(name), check_role(role)
    if len(password) < MIN_PASSWORD:
        raise UsersError(f"the password must have at least {MIN_PASSWORD} characters")
    if "\n" in password or "\r" in password:
        raise UsersError("the password must be one line")
    accounts = read_users(_writable(path), missing_ok=True)
    new = name not in accounts
    limit = None if new else accounts[name].max_cost_usd  # a new role or password keeps the spending limit
    accounts[name] = Account(name, role, hash_password(password), limit)
    write_users(path, accounts)
    return new


def set_limit(path: str | os.PathLike[str], name: str, usd: Any) -> Account:
    """Give a user of a users file a spending limit in US dollars (``usd``; None clears it) and return their
    account; an app following the file holds their calls to it from their next request (their sessions go on)."""
    limit = None if usd is None else check_limit(usd)
    accounts = read_users(_writable(path))
    if name not in accounts:
        raise UsersError(f"{path}: no user {name!r} (users: {', '.join(accounts) or 'none'})")
    accounts[name] = account = Account(name, accounts[name].role, accounts[name].hash, limit)
    write_users(path, accounts)
    return account


def remove_user(path: str | os.PathLike[str], name: str) -> None:
    accounts = read_users(_writable(path))
    if name not in accounts:
        raise UsersError(f"{path}: no user {name!r} (users: {', '.join(accounts) or 'none'})")
    del accounts[name]
    write_users(path, accounts)


class Accounts:
    """The logins an app accepts: :meth:`check` a name and password, :meth:`user` of a signed-in name.

    Made :meth:`from_file`, they follow the users file (issue 52, F47): each call looks at the file's size, time and
    inode (one ``stat``), and a changed file is read again, so a removed user, a new role or a new password counts
    from the next request, with no restart. A file that can no longer be used (deleted, unreadable, malformed, no
    users left) lets nobody in until it is fixed, and says so in the log once per change: a half-edited file must
    not keep a removed user in. :meth:`stamp` is what a session is bound to (:class:`LiveTokens`): a user's role and
    password hash, so that any change to a user ends the sessions they had."""

    def __init__(self, accounts: dict[str, Account], *, path: str | os.PathLike[str] | None = None) -> None:
        if not accounts:
            raise UsersError("no users: add one with 'probe-ui users add NAME --file PATH'")
        self._accounts = dict(accounts)
        self._path = Path(path) if path is not None else None
        self._seen = _file_stamp(self._path) if self._path is not None else None
        self._lock = threading.Lock()

    @classmethod
    def single(cls, name: str, password: str) -> Accounts:
        """One admin with this password (``--auth user:password`` and ``PROBE_UI_AUTH``), hashed in memory."""
        return cls({name: Account(name, "admin", hash_password(password))})

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Accounts:
        """The users of a users file, followed as it changes (raises UsersError when it cannot be used now)."""
        return cls(read_users(path), path=path)

    def _current(self) -> dict[str, Account]:
        if self._path is None:
            return self._accounts
        seen = _file_stamp(self._path)
        if seen == self._seen:
            return self._accounts
        with self._lock:
            if seen != self._seen:
                try:
                    accounts = read_users(self._path)
                    if not accounts:
                        raise UsersError(f"{self._path}: no users left")
                except UsersError as exc:
                    accounts = {}
                    log.error("users file changed and cannot be used, so nobody can sign in until it is fixed: %s",
                              exc)
                else:
                    log.warning("users file %s changed: %d user(s) now; sessions of removed or changed users end",
                                self._path, len(accounts))
                self._accounts, self._seen = accounts, seen
        return self._accounts

    def __len__(self) -> int:
        return len(self._current())

    def names(self) -> list[str]:
        return list(self._current())

    def check(self, name: str, password: str) -> User | None:
        """The user when ``password`` is theirs, else None; an unknown name costs one hash too."""
        account = self._current().get(str(name))
        ok = verify_password(str(password), account.hash if account else _dummy_hash())
        return User(account.name, account.role) if ok and account is not None else None

    def user(self, name: str | None) -> User | None:
        account = self._current().get(str(name)) if name else None
        return User(account.name, account.role) if account else None

    def limit(self, name: str | None) -> float | None:
        """A user's spending limit in US dollars as the users file says now (None: no limit, or no such user)."""
        account = self._current().get(str(name)) if name else None
        return account.max_cost_usd if account else None

    def stamp(self, name: str | None) -> str | None:
        """What a session of ``name`` is bound to (a hash of their role and password hash); None: no such user."""
        account = self._current().get(str(name)) if name else None
        if account is None:
            return None
        return hashlib.sha256(f"{account.role}\0{account.hash}".encode()).hexdigest()


def _file_stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino


class LiveTokens(dict):  # type: ignore[type-arg]
    """Gradio's table of login cookies (``App.tokens``: cookie token -> user name), with each token bound to its
    user's :meth:`Accounts.stamp` when it was issued: a token whose user was removed, demoted or given a new
    password since is forgotten the next time it is looked up, so that user's sessions end (issue 52, F47)."""

    def __init__(self, accounts: Accounts, tokens: dict[str, str] | None = None) -> None:
        super().__init__()
        self.accounts = accounts
        self._stamps: dict[str, str | None] = {}
        for token, name in (tokens or {}).items():
            self[token] = name

    def __setitem__(self, token: str, name: str) -> None:
        self._stamps[token] = self.accounts.stamp(name)
        super().__setitem__(token, name)

    def _valid(self, token: object) -> bool:
        name = super().get(token)  # type: ignore[call-overload]
        if name is None:
            return False
        stamp = self._stamps.get(token)  # type: ignore[call-overload]
        if stamp is not None and stamp == self.accounts.stamp(name):
            return True
        super().pop(token, None)
        self._stamps.pop(token, None)  # type: ignore[call-overload]
        return False

    def get(self, token: object, default: object = None) -> object:  # type: ignore[override]
        return super().get(token, default) if self._valid(token) else default  # type: ignore[call-overload]

    def __contains__(self, token: object) -> bool:
        return self._valid(token)

    def __delitem__(self, token: str) -> None:
        self._stamps.pop(token, None)
        super().__delitem__(token)


def system_user() -> str:
    """Who runs probe-ui on this machine (recorded with runs made outside the app)."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no name for this uid (a container)
        return f"uid {os.getuid()}" if hasattr(os, "getuid") else "unknown"
