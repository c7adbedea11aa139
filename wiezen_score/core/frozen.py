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
# dataclasses made on first use


class _LazyFields:
    """``__dataclass_fields__`` of a lazy dataclass not made yet: asking for it makes the dataclass."""

    def __get__(self, obj: object, cls: type) -> Any:
        return _make(cls).__dataclass_fields__


def _make(cls: type) -> Any:
    kw = _LAZY.pop(cls, None)
    if kw is not None:  # (not made yet)
        import dataclasses

        type.__delattr__(cls, "__init__")
        type.__delattr__(cls, "__dataclass_fields__")
        dataclasses.dataclass(**kw)(cls)  # in place: the class itself becomes the dataclass
    return cls


_LAZY: dict[type, dict[str, Any]] = {}


def _lazy_dataclass(cls: type | None = None, /, **kw: Any) -> Any:
    """``dataclasses.dataclass`` (with the same options), made when the class is first used: its first
    instance, or its fields asked for (``dataclasses.fields``, ``replace``, ``is_dataclass``). For classes
    that a command seldom makes (a check's findings, a seal, the rows of a sheet): their code is not
    compiled at start-up. A class made this way must not be subclassed, nor its methods looked up on the
    class before its first instance (``Cls.__eq__``)."""

    def wrap(c: type) -> type:
        _LAZY[c] = kw

        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            _make(c).__init__(self, *args, **kwargs)

        type.__setattr__(c, "__init__", __init__)
        type.__setattr__(c, "__dataclass_fields__", _LazyFields())
        return c

    return wrap if cls is None else wrap(cls)


if TYPE_CHECKING:  # for the type checker it is the dataclass decorator itself
    from dataclasses import dataclass as lazy_dataclass  # noqa: F401
else:
    lazy_dataclass = _lazy_dataclass
