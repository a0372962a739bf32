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
looked at on every copy, so it is copied right once it holds something; a
slot that held a list then and holds ``None`` now (a round's places, set at
a round's end and cleared at the next deal) has the function written again,
that slot looked at on every copy from then on.
A state without ``__slots__`` is copied the same way from its ``__dict__``,
item by item on every call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_COPIERS: dict[type, Callable[[Any], Any]] = {}
#: The slots of each class seen holding ``None``: looked at on every copy.
_NULLABLE: dict[type, set[str]] = {}
_MISSING = object()


def clone(state: Any) -> Any:
    """An independent copy of ``state`` (see the module's docstring)."""
    cls = type(state)
    copier = _COPIERS.get(cls)
    if copier is None:
        copier = _COPIERS[cls] = _write_copier(cls, state)
    return copier(state)


def _relearn(cls: type, state: Any) -> Any:
    """A copy of ``state``, one of whose slots holds ``None`` where the copy
    function expected a list: the function is written again, from ``state``,
    with every slot ever seen holding ``None`` looked at on each copy."""
    nullable = _NULLABLE.setdefault(cls, set())
    nullable.update(name for name in _slots(cls) if getattr(state, name, _MISSING) is None)
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


def _write_copier(cls: type, sample: Any) -> Callable[[Any], Any]:
    slots = _slots(cls)
    shared = set(getattr(cls, "shared", ()))
    nullable = _NULLABLE.get(cls, set())
    body = []
    guarded = []
    for name in slots:
        value = getattr(sample, name, _MISSING)
        attr = f"self.{name}"
        if name in shared:
            body.append(f"other.{name} = {attr}")
        elif value is _MISSING:
            guarded.append(name)
        elif name in nullable:
            body.append(f"other.{name} = copy_value({attr})")
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
             "    except TypeError:  # a slot that held a list when this was written holds None now",
             "        return relearn(cls, self)", "    return other"]
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls, "copy_value": copy_value,
                                 "missing": _MISSING, "slow": _slow_copy, "slots": slots, "relearn": _relearn}
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
