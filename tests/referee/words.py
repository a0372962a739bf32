"""A record of a real table written back as the words a person types at
``cardcli referee``: each move as its player's typed move, the cards the
table saw turned up as ``up``, the hands shown at a round's end as
``shows``.  The draws the rules make follow a move are not typed (the
referee writes them), and a run of draws is one entry, ``bob draws 3``.
From a seat's view (``--seat``), that seat's deal is ``ann gets ...`` and
its draws name their cards (``ann draws 2 7h 9c``), the penalties too."""

from __future__ import annotations

from typing import Any


def _card(name: str) -> str:
    return name.lower()


def _seen(line: dict[str, Any]) -> bool:
    return any(card != "??" for card in line["cards"])


def referee_words(lines: list[dict[str, Any]]) -> list[str]:
    """The entries for ``lines`` (a record of a real table: header first)."""
    names = [player["name"] for player in lines[0]["players"]]
    view = lines[0]["view"]
    viewer = None if view == "public" else int(view.split()[1])
    body = lines[1:]
    out: list[str] = []
    index = 0
    while index < len(body):
        data = body[index]
        index += 1
        if "move" in data:
            who = names[data["seat"]]
            move = data["move"]
            if move == "draw":  # the draws that follow it, up to the next move, are this entry
                count, seen = 0, []
                while index < len(body) and "chance" in body[index] and body[index]["chance"] in (
                        "draw", "reshuffle") and body[index].get("seat", data["seat"]) == data["seat"]:
                    cards = body[index].get("cards")
                    if body[index]["chance"] == "draw" and isinstance(cards, list):
                        count += len(cards)
                        seen += [_card(c) for c in cards if c != "??"]
                    index += 1
                out.append(" ".join([f"{who} draws", *([str(count)] if count != 1 else []), *seen]))
            elif move == "play":
                suit = f" {data['suit'].lower()}" if data.get("suit") else ""
                out.append(f"{who} {_card(data['card'])}{suit}" + (" page one" if data.get("call") else ""))
            elif move in ("take", "keep"):
                out.append(f"{who} {move}s")
            elif move == "discard":
                out.append(f"{who} discards {_card(data['card'])}")
            elif move == "meld":
                out.append(f"{who} melds " + " ".join(_card(c) for c in data["cards"]))
            elif move == "layoff":
                card = _card(data["card"]) + (f"={data['as'].lower()}" if data.get("as") else "")
                out.append(f"{who} lays off {card} on {data['meld']}")
            elif move == "pickup":
                out.append(f"{who} pickup {_card(data['card'])} " + " ".join(_card(c) for c in data["meld"]))
            else:
                raise AssertionError(f"no words for {data}")
        elif "chance" in data:
            cards = data.get("cards")
            own = data["hands"][viewer] if viewer is not None and "hands" in data else (
                cards if viewer is not None and data.get("seat") == viewer else None)
            if data["chance"] == "deal" and isinstance(own, list):
                out.append(f"{names[viewer]} gets " + " ".join(_card(c) for c in own))
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
                draws = [line for line in run if line["chance"] == "draw"]
                if after_play:  # a penalty the rules give
                    draws = draws[next((n for n, line in enumerate(draws) if _seen(line)), len(draws)):]
                if not draws:
                    continue
                count = sum(len(line["cards"]) for line in draws)
                seen = [_card(c) for line in draws for c in line["cards"] if c != "??"]
                out.append(" ".join([f"{names[data['seat']]} draws", *([str(count)] if count != 1 else []),
                                     *seen]))
            elif seen:
                out.append("up " + " ".join(_card(c) for c in seen))
        elif "result" in data and "called off" in data["result"].get("reason", "") \
                and body[index - 2].get("cards", [None])[-1] == "??":
            out.append("called off")  # the last card drawn did not follow: only the table can say so
        elif "shown" in data:
            for seat, hand in enumerate(data["shown"]):
                if hand and seat != viewer:  # the viewer's cards left are known
                    out.append(f"{names[seat]} shows " + " ".join(_card(c) for c in hand))
    return out
