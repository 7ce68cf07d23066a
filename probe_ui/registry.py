"""One registry mechanism for every kind of extension: perturbations, providers (hosted services are providers),
metric families, export formats, importers, prompt templates, suites, legacy parsers, benchmarks and the app's tabs.

A :class:`Registry` maps names to entries of one type. Entries come from three places, all found without a
hand-written list:

- the modules of the registry's own packages (``packages``), imported on first use by walking them with
  :mod:`pkgutil`: a module registers its entries when it is imported, so adding one is adding a file;
- plugin files named by the ``PROBE_UI_PLUGINS`` environment variable (:func:`load_plugins`): each a ``.py`` file,
  or a folder whose ``.py`` files are all loaded; a plugin registers into any registry it imports, exactly as a
  built-in module does, so an extension outside the source tree is also one file;
- lazy factories (:meth:`Registry.lazy`): a callable that builds the entry on first use, for an entry whose module
  imports an optional dependency (an SDK, pyarrow) at import time. No ``"module:Class"`` strings.

Every lookup of an unknown name raises the registry's own error (a :class:`~probe_ui.errors.ProbeUIError`) naming
the kind and the known names; two entries under one name are refused, so a plugin cannot silently replace a
built-in entry.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import importlib.util
import os
import pkgutil
import sys
import threading
import types
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Generic, TypeVar

from probe_ui.errors import ProbeUIError

T = TypeVar("T")

#: the environment variable naming plugin files or folders (separated like PATH)
PLUGINS_ENV = "PROBE_UI_PLUGINS"


class RegistryError(ProbeUIError, ValueError):
    """An unknown name, a name registered twice, or a plugin that cannot be loaded."""


class PluginError(RegistryError):
    """A plugin file named by ``PROBE_UI_PLUGINS`` is missing or fails to import (the message names the file)."""


# Three locks, none held while another thread may hold an import lock it needs: ``_lock`` guards the registries'
# dicts (held briefly, never during an import); ``_plugin_lock`` guards loading plugins; each registry's own lock
# guards its discovery (a thread that imports one of its modules directly registers through ``_lock`` alone).
_lock = threading.RLock()
_plugin_lock = threading.RLock()
_current = threading.local()  # .plugin: the plugin this thread is importing (its registrations are its own)
_loaded_plugins: dict[Path, str] = {}
_plugins_env: str | None = None  # the value of PROBE_UI_PLUGINS when plugins were last loaded
_registries: list[weakref.ref[Registry[Any]]] = []


def plugin_paths() -> list[Path]:
    """The ``.py`` files ``PROBE_UI_PLUGINS`` names, folders expanded (sorted), in order."""
    out: list[Path] = []
    for part in os.environ.get(PLUGINS_ENV, "").split(os.pathsep):
        if not part.strip():
            continue
        p = Path(part.strip()).expanduser()
        if p.is_dir():
            out.extend(sorted(f for f in p.glob("*.py") if not f.name.startswith("_")))
        elif p.suffix == ".py" and p.is_file():
            out.append(p)
        else:
            raise PluginError(f"{PLUGINS_ENV}: {p} is neither a .py file nor a folder")
    return out


def load_plugins() -> list[str]:
    """Import every plugin file ``PROBE_UI_PLUGINS`` names that is not loaded yet; returns the module names of all
    loaded plugins. A plugin is imported once per process (as module ``probe_ui_plugin_<name>_<hash>``); the
    variable is read again on every lookup, but a folder is listed again only when the variable changes."""
    global _plugins_env
    env = os.environ.get(PLUGINS_ENV, "")
    if env == _plugins_env:
        return list(_loaded_plugins.values())
    with _plugin_lock:
        for path in plugin_paths():
            path = path.resolve()
            if path in _loaded_plugins:
                continue
            digest = hashlib.sha256(str(path).encode()).hexdigest()[:10]
            name = f"probe_ui_plugin_{path.stem}_{digest}"
            spec = importlib.util.spec_from_file_location(name, path)
            if spec is None or spec.loader is None:
                raise PluginError(f"{PLUGINS_ENV}: {path} cannot be loaded as a Python module")
            module = importlib.util.module_from_spec(spec)
            _loaded_plugins[path] = name  # before running it: a plugin that imports a registry does not recurse
            sys.modules[name] = module
            _current.plugin = name
            try:
                spec.loader.exec_module(module)
            except Exception as exc:
                _forget(name)
                del _loaded_plugins[path]
                if isinstance(exc, ProbeUIError):
                    raise PluginError(f"plugin {path}: {exc}") from None
                # a plugin's own bug: say which file and what, in one line
                raise PluginError(f"plugin {path} failed to load: {exc.__class__.__name__}: {exc}") from exc
            finally:
                _current.plugin = None
        _plugins_env = env
        return list(_loaded_plugins.values())


def forget_plugins() -> None:
    """Unload every plugin: their entries leave every registry, and ``PROBE_UI_PLUGINS`` is read afresh on the
    next lookup (tests load throwaway plugins; a long-lived process can reload changed ones)."""
    global _plugins_env
    with _plugin_lock:
        for name in list(_loaded_plugins.values()):
            _forget(name)
        _loaded_plugins.clear()
        _plugins_env = None


def _forget(module: str) -> None:
    """Remove what plugin ``module`` registered, and the module itself."""
    for ref in _registries:
        reg = ref()
        if reg is not None:
            reg.forget_origin(module)
    sys.modules.pop(module, None)


def _source(entry: Any, plugin: str | None) -> str | None:
    """The file an entry comes from: its plugin's (``plugin``: the plugin module that registered it), else the file
    that defines the entry, its function or its class; None when it cannot be told."""
    if plugin is not None:
        return next((str(p) for p, m in _loaded_plugins.items() if m == plugin), None)
    import inspect  # only for this message: not on every command's start

    for obj in (entry, getattr(entry, "fn", None), type(entry)):
        try:
            source = inspect.getsourcefile(obj) if obj is not None else None
        except TypeError:  # a built-in, or an instance: try its function or class
            continue
        if source:
            return source
    return None


def import_package(package: str, only: tuple[str, ...] = ()) -> None:
    """Import every module of ``package`` and of its subpackages (so their registrations run); with ``only``, just
    the modules of those names (``("prompts",)``: each benchmark folder's ``prompts.py``, not its metric, whose
    imports take seconds) and the packages above them."""
    pkg = importlib.import_module(package)
    for info in pkgutil.walk_packages(getattr(pkg, "__path__", []), prefix=f"{package}."):
        if not only or info.name.rsplit(".", 1)[-1] in only:
            importlib.import_module(info.name)


class Registry(Generic[T]):
    """Name → entry of one kind (see the module docstring). ``kind`` names the kind in messages ("provider");
    ``packages`` are walked on first use (only the modules named ``only``, when given); ``error`` is the exception
    an unknown name raises (the kind's own, so callers keep catching what they caught before); ``ordered``: names
    come in registration order (a menu whose order means something, e.g. the prompt templates) rather than
    sorted."""

    def __init__(self, kind: str, *, packages: tuple[str, ...] = (), only: tuple[str, ...] = (),
                 error: Callable[[str], Exception] = RegistryError,
                 check: Callable[[], None] | None = None, ordered: bool = False, key: str = "name",
                 instances: bool = False) -> None:
        self.kind = kind
        self.key = key  # the attribute an entry is named by (``name``; ``NAME`` of a module; a tab's ``id``)
        self.instances = instances  # :meth:`put` takes a class and holds one instance of it (formats, benchmarks)
        self.ordered = ordered
        self.packages = packages
        self.only = only  # the module names to import from the packages (all when empty)
        self.error = error
        self.check = check  # run once everything is discovered (e.g. suites naming metric families)
        self._entries: dict[str, T] = {}
        self._factories: dict[str, Callable[[], T]] = {}
        self._origin: dict[str, str] = {}  # name → the plugin module that registered it
        self.version = 0  # changes whenever an entry is added or removed (for callers that cache a view)
        self._discovered = False  # the packages are imported
        self._owner: int | None = None  # the thread importing them
        self._imported = threading.Event()
        self._checked = self._checking = False
        _registries.append(weakref.ref(self))

    # ---- registering ------------------------------------------------------------------------------------------
    def put(self, entry: Any, *, name: str | None = None) -> Any:
        """The one way in: register ``entry`` under its own name (its attribute :attr:`key`, or ``name``); returns
        ``entry``, so it serves as a decorator. In a registry of ``instances``, ``entry`` is a class and one
        instance of it is held. Whether an entry already under that name is the same definition seen again (a
        module imported twice: replaced) or another one (refused, naming both files) is decided here, by
        :func:`_same`, for every registry."""
        if name is None:
            name = getattr(entry, self.key, None)
            if not isinstance(name, str) or not name:
                raise RegistryError(f"{self.kind} {entry!r} has no {self.key}: a registered {self.kind} names itself")
        old = self._entries.get(name)
        same = old is not None and _same(type(old) if self.instances else old, entry)
        self.add(name, entry() if self.instances else entry, replace=same)
        return entry

    def add(self, name: str, entry: T, *, replace: bool = False) -> T:
        """Register ``entry`` under ``name``; returns it. The same name twice is refused unless ``replace`` (tests
        re-register throwaway entries) or it is the very same entry (a module imported twice)."""
        with _lock:
            old = self._entries.get(name)
            if name in self._factories or (old is not None and old is not entry and not _same(old, entry)):
                if not replace:
                    raise RegistryError(f"{self.kind} '{name}' is registered twice{self._where(name, entry)}")
                self._factories.pop(name, None)
            self._entries[name] = entry
            self.version += 1
            plugin = getattr(_current, "plugin", None)
            if plugin is not None:
                self._origin[name] = plugin
            return entry

    def _where(self, name: str, new: Any) -> str:
        """" (by FILE and by FILE)": the files of the entry already under ``name`` and of ``new``, for a clash
        message (a plugin's file, or the file that defines the entry); what cannot be told is left out."""
        plugin = getattr(_current, "plugin", None)
        old = _source(self._entries.get(name, self._factories.get(name)), self._origin.get(name))
        files = [f for f in (_source(new, plugin), old) if f]
        return f" (by {' and by '.join(files)})" if files else ""

    def lazy(self, name: str, factory: Callable[[], T]) -> None:
        """Register an entry built by ``factory`` on first use (its optional imports happen then)."""
        with _lock:
            if name in self._entries or name in self._factories:
                raise RegistryError(f"{self.kind} '{name}' is registered twice{self._where(name, factory)}")
            self._factories[name] = factory
            self.version += 1
            plugin = getattr(_current, "plugin", None)
            if plugin is not None:
                self._origin[name] = plugin

    def register(self, name: str) -> Callable[[T], T]:
        """A decorator naming its entry: ``@REGISTRY.register("name")`` over a function (which has no name
        attribute to :meth:`put` it by)."""
        def deco(entry: T) -> T:
            return self.put(entry, name=name)  # type: ignore[no-any-return]
        return deco

    def remove(self, name: str) -> None:
        """Forget an entry (tests register throwaway ones)."""
        with _lock:
            self._entries.pop(name, None)
            self._factories.pop(name, None)
            self._origin.pop(name, None)
            self.version += 1

    def forget_origin(self, module: str) -> None:
        """Remove the entries plugin ``module`` registered."""
        with _lock:
            for name in [n for n, m in self._origin.items() if m == module]:
                self.remove(name)

    def origin(self, name: str) -> str | None:
        """The plugin module that registered ``name`` (None for a built-in entry)."""
        return self._origin.get(name)

    # ---- reading ----------------------------------------------------------------------------------------------
    def discover(self) -> None:
        """Import this registry's packages (once), then any plugin not loaded yet, then run ``check`` (once).

        Another thread asking while the packages are imported waits for them; the importing thread itself (a
        module that looks something up while it is imported) sees what is registered so far. No lock is held
        while plugins load, so a plugin may look things up in any registry."""
        if not self._discovered:
            self._import_packages()
        load_plugins()
        if self.check is not None and not self._checked and not self._checking:
            self._checking = True  # a lookup made by the check itself does not check again
            try:
                self.check()
                self._checked = True
            finally:
                self._checking = False

    def _import_packages(self) -> None:
        me = threading.get_ident()
        with _lock:
            if self._discovered or self._owner == me:
                return
            mine = self._owner is None
            if mine:
                self._owner = me
                self._imported.clear()
        if not mine:
            self._imported.wait()
            if not self._discovered:  # the other thread failed: try again (and fail the same way, here)
                self._import_packages()
            return
        try:
            for package in self.packages:
                import_package(package, self.only)
            self._discovered = True
        finally:
            with _lock:
                self._owner = None
            self._imported.set()

    def get(self, name: str) -> T:
        """The entry registered as ``name`` (built now if it is lazy); the registry's error when there is none."""
        self.discover()
        factory = self._factories.get(name)
        if factory is not None:
            built = factory()  # outside the lock: it may import
            with _lock:
                if self._factories.get(name) is factory:
                    del self._factories[name]
                    self._entries[name] = built
        try:
            return self._entries[name]
        except KeyError:
            known = ", ".join(self.names()) or "none"
            raise self.error(f"unknown {self.kind} '{name}'; known: {known}") from None

    def find(self, name: str) -> T | None:
        """The entry registered as ``name``, or None."""
        return self.get(name) if name in self else None

    def names(self) -> list[str]:
        """Every registered name, sorted or in registration order (lazy entries included, not built)."""
        self.discover()
        with _lock:
            names = [*self._entries, *(n for n in self._factories if n not in self._entries)]
        return names if self.ordered else sorted(names)

    def entries(self) -> list[T]:
        """Every entry in name order (lazy ones are built)."""
        return [self.get(n) for n in self.names()]

    def values(self) -> list[T]:
        """The entries, as a mapping's ``values()`` (same as :meth:`entries`)."""
        return self.entries()

    def items(self) -> list[tuple[str, T]]:
        return [(n, self.get(n)) for n in self.names()]

    def __setitem__(self, name: str, entry: T) -> None:
        self.add(name, entry)

    def __delitem__(self, name: str) -> None:
        self.remove(name)

    def loaded(self) -> dict[str, T]:
        """The entries built so far, without discovering or building (for code that runs during discovery)."""
        return dict(self._entries)

    def __contains__(self, name: object) -> bool:
        self.discover()
        return name in self._entries or name in self._factories

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())

    def __getitem__(self, name: str) -> T:
        return self.get(name)

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}, {len(self._entries) + len(self._factories)} entries)"


class RegisteredNames:
    """The names of a registry that is imported only when they are asked for: ``choices=`` of a command-line
    option (``argparse`` asks ``in`` when the option is given and lists the names in its error), so building the
    parser imports nothing. ``where`` is ``"module:ATTRIBUTE"`` of the registry (``"probe_ui.scoring:PARSERS"``),
    or of a fixed tuple of names (``"probe_ui.messages:ANSWER_FORMATS"``)."""

    def __init__(self, where: str) -> None:
        self.where = where

    def _names(self) -> list[str]:
        module, _, attr = self.where.partition(":")
        reg: Registry[Any] | tuple[str, ...] = getattr(importlib.import_module(module), attr)
        return list(reg.names()) if isinstance(reg, Registry) else list(reg)

    def __contains__(self, name: object) -> bool:
        return name in self._names()

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())


def _definition(entry: object) -> tuple[str, str] | None:
    """Where an entry is defined, as (module, qualified name): a module by its name; a class or function by its
    own; a record (a dataclass: a suite, a template, a tab, a perturbation) by the first function it holds (its
    code); None for a record of plain values (compared by value instead)."""
    if isinstance(entry, types.ModuleType):
        return entry.__name__, ""
    qualname = getattr(entry, "__qualname__", None)
    if isinstance(qualname, str):
        return str(getattr(entry, "__module__", "")), qualname
    if dataclasses.is_dataclass(entry):
        for f in dataclasses.fields(entry):
            value = getattr(entry, f.name, None)
            if callable(value) and isinstance(getattr(value, "__qualname__", None), str):
                return str(value.__module__), value.__qualname__
    return None


def _same(a: object, b: object) -> bool:
    """Whether two entries under one name are one definition seen twice (its module imported again), which
    replaces the old entry, rather than two definitions, which is refused: decided here for every registry."""
    if a is b:
        return True
    where = _definition(a)
    if where is not None:
        return where == _definition(b)
    return type(a) is type(b) and a == b


__all__ = ["PLUGINS_ENV", "PluginError", "RegisteredNames", "Registry", "RegistryError", "forget_plugins",
           "import_package",
           "load_plugins", "plugin_paths"]
