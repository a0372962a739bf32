"""A record of a real table written back as the words a person types at
``cardcli referee``, in each wording docs/referee.md offers:

* ``draws``: ``"count"``, a player's run of draws as one entry (``bob draws
  3``); ``"each"``, in trick one entry per draw (``bob draws`` three
  times: drawing to follow, a card at a time);
  ``"then"``, the run and the play that ends it in one entry (``bob draws 3
  then 9s``);
* ``call``: ``"line"``, the Page One call on the play's line (``ann 7h page
  one``); ``"next"``, as the next entry (``ann 7h``, then ``page one``); in
  matching, the call with the last card is Stop (``ann 7h stop``, ``stop``);
* ``ups``: ``"line"``, the cards of one chance event in one entry (``up ah
  3h``); ``"each"``, one card a line (``up ah``, ``up 3h``);
  ``"together"``, every card turned up in a row in one entry (``up qc 4s
  5s``).

Each move is its player's typed move, the cards the table saw turned up as
``up``, the hands shown at a round's end as ``shows``.  The draws the rules
make follow a move are not typed (the referee writes them).  From a seat's
view (``--seat``), that seat's deal is ``ann gets ...`` and its draws name
their cards (``ann draws 2 7h 9c``), the penalties too."""

from __future__ import annotations

from typing import Any

#: Every wording, for tests that try them all.
WORDINGS = [{"draws": "count", "call": "line", "ups": "line"},
            {"draws": "each", "call": "next", "ups": "each"},
            {"draws": "then", "call": "next", "ups": "together"}]


def _card(name: str) -> str:
    return name.lower()


def _seen(line: dict[str, Any]) -> bool:
    return any(card != "??" for card in line["cards"])


def _draw_entry(who: str, count: int, seen: list[str]) -> str:
    return " ".join([f"{who} draws", *([str(count)] if count != 1 else []), *seen])


def _calls(body: list[dict[str, Any]]) -> dict[int, str]:
    """Matching: the call each called play says, by its index in ``body``:
    Stop with the last card in hand, Page One with the second-to-last."""
    held: list[int] = []
    said = {}
    for index, data in enumerate(body):
        if data.get("chance") == "deal":
            held = [hand if isinstance(hand, int) else len(hand) for hand in data["hands"]]
        elif data.get("chance") == "draw":
            held[data["seat"]] += len(data["cards"])
        elif data.get("move") == "play":
            if data.get("call"):
                said[index] = "stop" if held[data["seat"]] == 1 else "page one"
            held[data["seat"]] -= 1
    return said


def referee_words(lines: list[dict[str, Any]], draws: str = "count", call: str = "line",
                  ups: str = "line") -> list[str]:
    """The entries for ``lines`` (a record of a real table: header first)."""
    names = [player["name"] for player in lines[0]["players"]]
    # One draw a line is trick's drawing to follow, a card at a time; a
    # penalty is said with its number (bob draws 2), in every wording.
    each = draws == "each" and lines[0]["variant"] == "trick"
    view = lines[0]["view"]
    viewer = None if view == "public" else int(view.split()[1])
    body = lines[1:]
    out: list[str] = []
    kinds: list[str] = []  # per entry: "draw", "up", "play" or ""
    calls = _calls(body) if lines[0]["variant"] == "matching" else {}

    def add(entry: str, kind: str = "") -> None:
        out.append(entry)
        kinds.append(kind)

    def draw(who: str, events: list[list[str]]) -> None:
        """A run of draws: each event's cards (``"??"`` for those not seen)."""
        if not events:
            return
        if each:
            for cards in events:
                add(_draw_entry(who, len(cards), [_card(c) for c in cards if c != "??"]), "draw")
            return
        count = sum(len(cards) for cards in events)
        add(_draw_entry(who, count, [_card(c) for cards in events for c in cards if c != "??"]), "draw")

    index = 0
    while index < len(body):
        data = body[index]
        index += 1
        if "move" in data:
            who = names[data["seat"]]
            move = data["move"]
            if move == "draw":  # the draws that follow it, up to the next move, are this entry
                events: list[list[str]] = []
                while index < len(body) and "chance" in body[index] and body[index]["chance"] in (
                        "draw", "reshuffle") and body[index].get("seat", data["seat"]) == data["seat"]:
                    cards = body[index].get("cards")
                    if body[index]["chance"] == "draw" and isinstance(cards, list):
                        events.append(cards)
                    index += 1
                if each and events:
                    draw(who, events)
                else:
                    count = sum(len(cards) for cards in events)
                    seen = [_card(c) for cards in events for c in cards if c != "??"]
                    add(_draw_entry(who, count if events else 1, seen), "draw")
            elif move == "play":
                suit = f" {data['suit'].lower()}" if data.get("suit") else ""
                said = calls.get(index - 1, "page one")
                later = bool(data.get("call")) and call == "next"  # the call as the next entry
                called = f" {said}" if data.get("call") and not later else ""
                played = f"{_card(data['card'])}{suit}{called}"
                if draws == "then" and kinds and kinds[-1] == "draw" and out[-1].startswith(f"{who} draws"):
                    out[-1] += f" then {played}"
                    kinds[-1] = "play"
                else:
                    add(f"{who} {played}", "play")
                if later:
                    add(said)
            elif move in ("take", "keep"):
                add(f"{who} {move}s")
            elif move == "discard":
                add(f"{who} discards {_card(data['card'])}")
            elif move == "meld":
                add(f"{who} melds " + " ".join(_card(c) for c in data["cards"]))
            elif move == "layoff":
                card = _card(data["card"]) + (f"={data['as'].lower()}" if data.get("as") else "")
                add(f"{who} lays off {card} on {data['meld']}")
            elif move == "pickup":
                add(f"{who} pickup {_card(data['card'])} " + " ".join(_card(c) for c in data["meld"]))
            else:
                raise AssertionError(f"no words for {data}")
        elif "chance" in data:
            if data["chance"] == "deal" and index >= 2 and body[index - 2].get("chance") == "draw" \
                    and body[index - 2]["cards"][-1] == "??":
                add("called off")  # a deal of a match ended by a card nobody saw not following
            cards = data.get("cards")
            own = data["hands"][viewer] if viewer is not None and "hands" in data else (
                cards if viewer is not None and data.get("seat") == viewer else None)
            if data["chance"] == "deal" and isinstance(own, list):
                add(f"{names[viewer]} gets " + " ".join(_card(c) for c in own))
                continue
            seen = [c for c in cards if c != "??"] if isinstance(cards, list) else []
            if data.get("card") not in (None, "??"):
                seen.append(data["card"])
            back = index - 2
            while back >= 0 and (body[back].get("chance") == "reshuffle" or (
                    body[back].get("chance") == "draw" and body[back].get("seat") == data.get("seat"))):
                back -= 1
            after_play = back >= 0 and body[back].get("move") == "play"
            if data["chance"] == "draw" and data.get("seat") is not None:
                # A run of draws (a reshuffle between): the referee writes the
                # part nobody sees that the rules give; from the first card
                # the typist sees on, it is one entry.
                run = [data]
                while index < len(body) and (body[index].get("chance") == "reshuffle" or (
                        body[index].get("chance") == "draw" and body[index].get("seat") == data["seat"])):
                    run.append(body[index])
                    index += 1
                events = [line["cards"] for line in run if line["chance"] == "draw"]
                if after_play:  # a penalty the rules give
                    events = events[next((n for n, cards in enumerate(events)
                                          if any(c != "??" for c in cards)), len(events)):]
                draw(names[data["seat"]], events)
            elif seen:
                turned = [_card(c) for c in seen]
                if ups == "each":
                    for card in turned:
                        add(f"up {card}", "up")
                elif ups == "together" and kinds and kinds[-1] == "up":
                    out[-1] += " " + " ".join(turned)
                else:
                    add("up " + " ".join(turned), "up")
        elif "result" in data and body[index - 2].get("chance") == "draw" \
                and body[index - 2]["cards"][-1] == "??":
            add("called off")  # the last card drawn did not follow: only the table can say so
        elif "shown" in data:
            for seat, hand in enumerate(data["shown"]):
                if hand and seat != viewer:  # the viewer's cards left are known
                    add(f"{names[seat]} shows " + " ".join(_card(c) for c in hand))
    return out
