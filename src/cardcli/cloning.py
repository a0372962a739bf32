"""``State.clone`` written from a state class's ``__slots__``.

Search copies states constantly, so a copy must be as cheap as one written
by hand, and a variant author should not have to write (and keep in step
with its slots) a method of thirty assignments.  The first time a state of a
class is cloned, the core writes that class's copy function from its slots
and what they hold, and keeps it:

* a list of lists (the hands) is copied with each inner list;
* any other list is copied (a shallow copy: its items are numbers, cards,
  tuples or lists that are replaced, never changed);
* a dict or a set is copied;
* anything else (numbers, strings, tuples, ``None``, the shared config) is
  shared;
* a slot named in the class's ``shared`` tuple is shared whatever it holds
  (a list that never changes, such as the full pack).

A slot that was empty, ``None`` or unset when the function was written is
looked at on every copy, so it is copied right once it holds something.  A
slot that held a list then and holds something else now (``None`` between
the deals of a match) makes the copy fail, and the function is written again
with that slot looked at on every copy too.
A state without ``__slots__`` is copied the same way from its ``__dict__``,
item by item on every call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_COPIERS: dict[type, Callable[[Any], Any]] = {}
#: Per class, the slots seen holding something other than a list where a
#: copy function expected one: copied by ``copy_value`` on every copy.
_LOOSE: dict[type, set[str]] = {}
#: Per class, the shape of each slot the current copy function was written for.
_SHAPES: dict[type, dict[str, str]] = {}
_MISSING = object()


def clone(state: Any) -> Any:
    """An independent copy of ``state`` (see the module's docstring)."""
    cls = type(state)
    copier = _COPIERS.get(cls)
    if copier is None:
        copier = _COPIERS[cls] = _write_copier(cls, state)
    return copier(state)


def _slots(cls: type) -> list[str]:
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        slots = vars(klass).get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__") and name not in names:
                names.append(name)
    return names


def copy_value(value: Any) -> Any:
    """One value as a clone copies it when its kind is not known in advance."""
    kind = value.__class__
    if kind is list:
        return [item[:] for item in value] if value and value[0].__class__ is list else value[:]
    if kind is dict or kind is set:
        return kind(value)
    return value


def _shape(value: Any) -> str:
    """What a copy function writes for a value: a list of lists, a list, or other."""
    if value.__class__ is not list or not value:
        return "other"
    return "lists" if value[0].__class__ is list else "list"


def _rewrite(cls: type, state: Any) -> Any:
    """A copy function met a slot of another shape than it was written for: write
    it again with the slots whose shape changed looked at on every copy."""
    loose = _LOOSE.setdefault(cls, set())
    written = _SHAPES[cls]
    changed = {name for name, shape in written.items()
               if shape != "other" and _shape(getattr(state, name, None)) != shape} - loose
    if not changed:
        raise TypeError(f"{cls.__qualname__}: a slot cannot be copied")
    loose |= changed
    copier = _COPIERS[cls] = _write_copier(cls, state)
    return copier(state)


def _write_copier(cls: type, sample: Any) -> Callable[[Any], Any]:
    slots = _slots(cls)
    shared = set(getattr(cls, "shared", ()))
    loose = _LOOSE.get(cls, set())
    _SHAPES[cls] = {name: "other" if name in shared or name in loose else _shape(getattr(sample, name, None))
                    for name in slots}
    body = []
    guarded = []
    for name in slots:
        value = getattr(sample, name, _MISSING)
        attr = f"self.{name}"
        if name in shared:
            body.append(f"other.{name} = {attr}")
        elif name in loose and value is not _MISSING:
            body.append(f"other.{name} = copy_value({attr})")
        elif value is _MISSING:
            guarded.append(name)
        elif value.__class__ is list and value and value[0].__class__ is list:
            body.append(f"other.{name} = [item[:] for item in {attr}]")
        elif value.__class__ is list and value:
            body.append(f"other.{name} = {attr}[:]")
        elif value.__class__ in (list, dict, set) or value is None:
            body.append(f"other.{name} = copy_value({attr})")
        else:
            body.append(f"other.{name} = {attr}")
    for name in guarded:
        body.append(f"value = getattr(self, {name!r}, missing)")
        body.append(f"if value is not missing: other.{name} = copy_value(value)")
    if hasattr(sample, "__dict__"):
        body.append("if self.__dict__: other.__dict__.update("
                    "{k: copy_value(v) for k, v in self.__dict__.items()})")
    lines = ["def copy(self):", "    other = new(cls)", "    try:", *("        " + line for line in body),
             "    except AttributeError:  # a slot set when this was written is unset now",
             "        return slow(cls, slots, self)",
             "    except TypeError:  # a slot that held a list then holds None (or the like) now",
             "        return rewrite(cls, self)", "    return other"]
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls, "copy_value": copy_value,
                                 "missing": _MISSING, "slow": _slow_copy, "slots": slots,
                                 "rewrite": _rewrite}
    exec("\n".join(lines), namespace)  # the code is written here from the slots' names alone
    copier: Callable[[Any], Any] = namespace["copy"]
    copier.__qualname__ = f"{cls.__qualname__}.clone"
    return copier


def _slow_copy(cls: type, slots: list[str], state: Any) -> Any:
    other: Any = object.__new__(cls)
    for name in slots:
        value = getattr(state, name, _MISSING)
        if value is not _MISSING:
            setattr(other, name, copy_value(value))
    if hasattr(state, "__dict__"):
        other.__dict__.update({k: copy_value(v) for k, v in state.__dict__.items()})
    return other
