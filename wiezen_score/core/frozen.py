"""Frozen value classes: what ``@dataclass(frozen=True)`` makes, without making it at import time.

``@dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__`` and
``__delattr__`` as source text and compiles it when the module is imported: about a millisecond per class on a
small machine, and a dozen classes are on the path of every ``wiezen deal``. A :class:`Frozen` subclass lists
its fields in order (``_fields``) and writes its ``__init__`` by hand (compiled once, into the module's
bytecode); this base gives the rest as the dataclass would: equality and hash over the compared fields
(``_compare``, default all), the same ``repr`` (over ``_repr``, default all), ``dataclasses.FrozenInstanceError``
on assigning or deleting an attribute, ``__match_args__``; and ``dataclasses.replace``, ``fields`` and
``asdict`` work (the dataclass fields are made on first use, from the class's ``__init__``).
tests/test_frozen.py checks each class against the dataclass of the same declaration.
"""

from __future__ import annotations

from operator import attrgetter

__all__ = ["Frozen", "NEW_DICT", "lazy_dataclass"]
from typing import TYPE_CHECKING, Any, Callable, ClassVar


class _NewDict:
    def __repr__(self) -> str:
        return "<factory>"


#: the default of a field whose default is a new empty dict (``field(default_factory=dict)``)
NEW_DICT: Any = _NewDict()


class _DataclassFields:
    """``__dataclass_fields__``, made on first use (``dataclasses.replace``, ``fields``, ``asdict``)."""

    def __get__(self, obj: object, cls: type[Frozen]) -> dict[str, Any]:
        made: dict[str, Any] | None = cls.__dict__.get("_dataclass_fields")
        if made is None:
            import dataclasses
            import inspect

            params = inspect.signature(cls.__init__).parameters
            spec: list[tuple[str, Any, Any]] = []
            for name in cls._fields:
                default = params[name].default
                shown = name in cls._repr
                compared = name in cls._compare
                if default is NEW_DICT:
                    f = dataclasses.field(default_factory=dict, repr=shown, compare=compared)
                elif default is inspect.Parameter.empty:
                    f = dataclasses.field(repr=shown, compare=compared)
                else:
                    f = dataclasses.field(default=default, repr=shown, compare=compared)
                spec.append((name, cls.__annotations__.get(name, Any), f))
            shadow: Any = dataclasses.make_dataclass(cls.__name__, spec, frozen=True)
            made = dict(shadow.__dataclass_fields__)
            type.__setattr__(cls, "_dataclass_fields", made)
        return made


def _frozen(name: str, deleting: bool = False) -> Exception:
    from dataclasses import FrozenInstanceError

    return FrozenInstanceError(f"cannot {'delete' if deleting else 'assign to'} field {name!r}")


class Frozen:
    """The base of a frozen value class: see the module's docstring. A subclass sets ``_fields`` and an
    ``__init__`` that stores each field with ``self.__dict__[name] = value``. It is never subclassed again."""

    _fields: ClassVar[tuple[str, ...]] = ()
    _compare: ClassVar[tuple[str, ...]]
    _repr: ClassVar[tuple[str, ...]]
    _key: ClassVar[Any]  # the compared fields of an instance as a tuple (a staticmethod)
    __dataclass_fields__: ClassVar[Any] = _DataclassFields()

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if "_compare" not in cls.__dict__:
            cls._compare = cls._fields
        if "_repr" not in cls.__dict__:
            cls._repr = cls._fields
        type.__setattr__(cls, "__match_args__", cls._fields)
        key: Callable[[Any], Any]
        if len(cls._compare) == 1:
            one = attrgetter(cls._compare[0])
            key = lambda o: (one(o),)  # noqa: E731
        else:
            key = attrgetter(*cls._compare)
        type.__setattr__(cls, "_key", staticmethod(key))

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return bool(self._key(self) == self._key(other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key(self))

    def __repr__(self) -> str:
        inside = ", ".join(f"{name}={self.__dict__[name]!r}" for name in self._repr)
        return f"{self.__class__.__qualname__}({inside})"

    # as the dataclass's (of a class that is not subclassed): every name is refused
    def __setattr__(self, name: str, value: Any) -> None:
        raise _frozen(name)

    def __delattr__(self, name: str) -> None:
        raise _frozen(name, deleting=True)


# --------------------------------------------------------------------------------------------------------
# frozen dataclasses declared as such, their __init__ written on first use


_LAZY: dict[type, tuple[tuple[str, ...], dict[str, Any]]] = {}  # class -> (fields, defaults): __init__ not made yet


def _make_init(cls: type) -> Any:
    """Write and install ``cls.__init__`` (the dataclass's: each argument stored as its field, in order)."""
    fields, defaults = _LAZY.pop(cls)
    params = ", ".join(f"{f}=_d[{f!r}]" if f in defaults else f for f in fields)
    body = "\n".join(f"    d[{f!r}] = {f}" for f in fields) or "    pass"
    space: dict[str, Any] = {"_d": defaults}
    exec(f"def __init__(self, {params}):\n    d = self.__dict__\n{body}\n", space)
    init = space["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    type.__setattr__(cls, "__init__", init)
    return init


_IMMUTABLE = (int, float, str, bytes, tuple, frozenset, type(None))


def _plain(c: type, kw: dict[str, Any], notes: dict[str, Any], defaults: dict[str, Any]) -> bool:
    """A declaration :func:`lazy_dataclass` makes itself: frozen=True only, no base class, no methods of its
    own that the dataclass would write or use, only plain fields (no ClassVar, InitVar, KW_ONLY), immutable
    plain defaults (no ``field()``), none without a default after one with."""
    if kw != {"frozen": True} or c.__bases__ != (object,):
        return False
    if any(name in c.__dict__ for name in ("__init__", "__post_init__", "__eq__", "__hash__", "__repr__",
                                          "__setattr__", "__delattr__", "__slots__", "__match_args__")):
        return False
    if any(word in str(note) for note in notes.values() for word in ("ClassVar", "InitVar", "KW_ONLY")):
        return False
    if not all(isinstance(v, _IMMUTABLE) for v in defaults.values()):
        return False
    after_default = False
    for f in notes:
        if f in defaults:
            after_default = True
        elif after_default:
            return False
    return True


def _lazy_dataclass(cls: type | None = None, /, **kw: Any) -> Any:
    """``@dataclass(frozen=True)`` for a plain declaration (fields with plain immutable defaults), as a
    :class:`Frozen` class whose ``__init__`` is written when the class is first instantiated: a class a
    command seldom makes (a check's findings, a seal, the rows of a sheet) costs nothing at start-up, one that
    it makes (the session) a fraction of what the dataclass costs. Any other declaration, or other options,
    is given to ``dataclasses.dataclass`` itself."""

    def wrap(c: type) -> type:
        notes = c.__dict__.get("__annotations__", {})
        fields = tuple(notes)
        defaults = {f: c.__dict__[f] for f in fields if f in c.__dict__}
        if not _plain(c, kw, notes, defaults):
            import dataclasses

            return dataclasses.dataclass(**kw)(c)
        space = {k: v for k, v in c.__dict__.items() if k not in ("__dict__", "__weakref__")}
        space["_fields"], space["__qualname__"] = fields, c.__qualname__
        made = type(c.__name__, (Frozen,), space)
        _LAZY[made] = (fields, defaults)

        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            init = _make_init(made) if made in _LAZY else vars(made)["__init__"]
            init(self, *args, **kwargs)

        import inspect  # (imported by click already)

        P = inspect.Parameter
        __init__.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [P("self", P.POSITIONAL_OR_KEYWORD)]
            + [P(f, P.POSITIONAL_OR_KEYWORD, default=defaults.get(f, P.empty), annotation=notes[f]) for f in fields])
        __init__.__qualname__ = f"{made.__qualname__}.__init__"
        type.__setattr__(made, "__init__", __init__)
        return made

    return wrap if cls is None else wrap(cls)


if TYPE_CHECKING:  # for the type checker it is the dataclass decorator itself
    from dataclasses import dataclass as lazy_dataclass  # noqa: F401
else:
    lazy_dataclass = _lazy_dataclass
