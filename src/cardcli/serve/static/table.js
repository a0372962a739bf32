// The phone page of a cardcli table: draws what the server sends (docs/protocol.md)
// and sends back the index of the move the player picks.  No build step, no library.
"use strict";

const PROTOCOL = 1;
const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
// A card name standing alone in a text: 7H, 10S, JK (as cardcli's terminal styles them).
const CARD = /(^|[^A-Za-z0-9])((10|[2-9JQKA])([SHDC])|JK)(?![A-Za-z0-9])/g;
const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const $ = (id) => document.getElementById(id);

let socket = null;
let welcome = null;
let update = null;
let selected = [];        // indexes into the hand
let declared = false;     // the "Page One!" (or other) button pressed
let showAll = false;
let sent = false;         // a move is on its way: wait for the next update
let over = null;          // the "over" message, once the game has ended
let retry = 500;
const log = [];

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

// Text with its card names as suit symbols, hearts and diamonds in red.
function rich(tag, cls, text) {
  const node = el(tag, cls);
  let last = 0;
  for (const match of text.matchAll(CARD)) {
    const start = match.index + match[1].length;
    node.append(text.slice(last, start));
    const name = match[2];
    if (name === "JK") {
      node.append(el("span", "joker", "JK"));
    } else {
      node.append(el("span", "H D".includes(match[4]) ? "red" : "", match[3] + SUITS[match[4]]));
    }
    last = start + name.length;
  }
  node.append(text.slice(last));
  return node;
}

// "10H" -> a card; "JK" -> the joker; "7D=4S" -> 7D standing for 4S.
function cardNode(name, opts = {}) {
  const [own, means] = name.split("=");
  const node = el(opts.button ? "button" : "span", "card" + (opts.small ? " small" : ""));
  if (opts.button) node.type = "button";
  if (own === "JK") {
    node.append(el("span", "rank", "JK"), el("span", "suit", "\u2605"));
  } else {
    const suit = own.slice(-1);
    node.append(el("span", "rank", own.slice(0, -1)), el("span", "suit", SUITS[suit] || suit));
    if (suit === "H" || suit === "D") node.classList.add("red");
  }
  if (means) node.append(el("span", "means", "=" + means.replace(/[SHDC]$/, (s) => SUITS[s])));
  node.setAttribute("aria-label", name);
  return node;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws`);
  status("connecting…", "");
  socket.onopen = () => {
    retry = 500;
    socket.send(JSON.stringify({ type: "hello", protocol: PROTOCOL, token }));
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    if (over) { status("game over", ""); return; }
    if (event.reason === "bad-token" || event.reason === "protocol") { status("link not valid", "bad"); return; }
    if (event.reason === "this seat was opened on another device") {
      status("opened elsewhere", "bad");
      $("actions").replaceChildren(el("div", "wait", "This seat is open on another device. Reload to take it back."));
      return;
    }
    status("reconnecting…", "bad");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  };
}

function status(text, kind) {
  const node = $("link");
  node.textContent = text;
  node.className = "status " + kind;
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function receive(message) {
  switch (message.type) {
    case "welcome":
      welcome = message;
      status("connected", "ok");
      $("title").textContent = message.title;
      document.title = message.title;
      $("who").textContent = message.seat === null ? "watching" : "as " + message.players[message.seat].name;
      $("description").replaceChildren(rich("span", "", message.description || ""));
      $("rules").replaceChildren(rich("span", "", message.header || ""));
      log.length = 0;
      for (const line of message.log) log.push({ text: line, fresh: false });
      break;
    case "update":
      if (!update || message.turn !== update.turn) { selected = []; declared = false; showAll = false; }
      update = message;
      sent = false;
      for (const item of log) item.fresh = false;
      for (const line of message.events) log.push({ text: line, fresh: true });
      while (log.length > 60) log.shift();
      if (message.round_end) sheet("The round is over", [rich("pre", "", message.round_end)], "Next round");
      break;
    case "seats":
      if (update) update.seats = message.seats;
      break;
    case "over":
      over = message;
      sheet("Game over", ending(message), "See the table");
      break;
    case "error":
      sent = false;
      log.push({ text: "\u26a0 " + message.message, fresh: true });
      break;
    default:
      return;
  }
  draw();
}

// A sheet over the table (a round's end, the game's end) until it is closed.
function sheet(title, content, button) {
  $("sheettitle").textContent = title;
  $("sheetbody").replaceChildren(...content);
  $("closesheet").textContent = button;
  $("sheet").hidden = false;
}

// The end of the game: the ranking first, then the whole table as cardcli play shows it.
function ending(message) {
  const result = message.result;
  const names = update ? update.table.players.map((p) => p.name) : [];
  const out = [el("p", "headline", message.headline || "")];
  if (result.places) {
    const list = el("ol", "ranking");
    const order = result.places.map((place, seat) => [place, seat]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (const [place, seat] of order) {
      const row = el("li", seat === welcome.seat ? "me" : "");
      row.append(el("span", "place", place + "."), el("span", "name", names[seat] || `seat ${seat}`));
      if (result.scores) row.append(el("span", "score", `${result.scores[seat]} ${welcome.score_label}`));
      if (result.winner === seat) row.append(el("span", "won", "wins"));
      list.append(row);
    }
    out.push(list);
  }
  const details = el("details", "");
  details.append(el("summary", "", "Every hand and the final table"), rich("pre", "", message.text));
  out.push(details);
  return out;
}

function draw() {
  if (!update || !welcome) return;
  const table = update.table;
  const me = welcome.seat;
  // Players: counts, notes, score, whose turn, who is away.
  const players = $("players");
  players.replaceChildren();
  table.players.forEach((p, seat) => {
    const box = el("div", "player" + (table.turn === seat ? " turn" : "") + (seat === me ? " me" : ""));
    const name = el("span", "name", p.name);
    if (seat === me) name.append(el("span", "you", "you"));
    box.append(name);
    if (p.cards !== null) box.append(el("span", "count", `${p.cards} card${p.cards === 1 ? "" : "s"}`));
    if (p.notes.length) box.append(el("span", "notes", p.notes.join(", ")));
    if (p.score) box.append(el("span", "score", p.score));
    const presence = update.seats[seat];
    if (presence && presence.kind === "friend" && !presence.connected) {
      const absent = presence.joined === false ? "not here yet" : "away";
      box.append(el("span", "notes away", presence.stand_in ? `${absent} (a CPU plays)` : absent));
    }
    players.append(box);
  });
  // Piles: face-up cards (with who played them), or a face-down count.
  const piles = $("piles");
  piles.replaceChildren();
  for (const pile of table.piles) {
    const box = el("div", "pile");
    box.append(el("span", "label", pile.name));
    const cards = el("div", "cards");
    if (pile.cards.length) {
      const shown = pile.name === "discard pile" ? pile.cards.slice(-6) : pile.cards;
      const labels = pile.labels.length ? pile.labels.slice(-shown.length) : [];
      shown.forEach((name, i) => {
        if (labels.length) {
          const played = el("div", "played");
          played.append(cardNode(name, { small: true }), el("span", "", labels[i]));
          cards.append(played);
        } else {
          cards.append(cardNode(name, { small: pile.cards.length > 1 }));
        }
      });
    } else {
      cards.append(el("span", "back", String(pile.count)));
    }
    box.append(cards);
    if (pile.note) box.append(rich("span", "note", pile.note));
    piles.append(box);
  }
  const melds = $("melds");
  melds.replaceChildren();
  table.melds.forEach((meld, i) => {
    const row = el("div", "meld");
    const owner = meld.owner === null ? "" : table.players[meld.owner].name + ": ";
    row.append(el("span", "label", `${i + 1}. ${owner}${meld.label}`));
    for (const name of meld.cards) row.append(cardNode(name, { small: true }));
    melds.append(row);
  });
  $("notes").replaceChildren(...table.notes.map((n) => rich("li", "", n)));
  // What just happened: the last few events, the new ones bright.
  $("log").replaceChildren(...log.slice(-6).map((item) => rich("p", item.fresh ? "new" : "", item.text)));
  $("earlier").replaceChildren(...log.slice(0, -6).map((item) => rich("p", "", item.text)));
  $("earlierbox").hidden = log.length <= 6;
  drawScores(table);
  $("text").replaceChildren(rich("pre", "", table.text));
  drawHand(table);
  drawActions(table);
}

function drawScores(table) {
  const box = $("scores");
  box.replaceChildren();
  $("scoresbox").hidden = !table.scores;
  if (!table.scores) return;
  const grid = el("table", "scores");
  const head = el("tr");
  head.append(el("th", "", ""), ...table.players.map((p) => el("th", "", p.name)));
  grid.append(head);
  for (const row of table.scores.rows) {
    const tr = el("tr");
    row.forEach((cell) => tr.append(el("td", "", String(cell))));
    grid.append(tr);
  }
  const total = el("tr");
  total.append(el("th", "", "total"), ...table.scores.totals.map((t) => el("th", "", String(t))));
  grid.append(total);
  box.append(grid);
}

function usable() {
  const names = new Set();
  for (const move of update.moves) for (const name of move.cards) names.add(name);
  return names;
}

function drawHand(table) {
  const hand = $("hand");
  hand.replaceChildren();
  const playable = usable();
  table.hand.forEach((name, index) => {
    const node = cardNode(name, { button: true });
    if (table.marks[name]) {
      node.classList.add(table.marks[name]);
      node.append(el("span", "mark", table.marks[name]));
    }
    const can = playable.has(name) && !sent;
    node.disabled = !can;
    if (can) node.classList.add("playable");
    if (selected.includes(index)) node.classList.add("selected");
    node.addEventListener("click", () => {
      selected = selected.includes(index) ? selected.filter((i) => i !== index) : [...selected, index];
      draw();
    });
    hand.append(node);
  });
}

const sortedKey = (cards) => [...cards].sort().join(" ");
const twinKey = (m) => [m.kind, sortedKey(m.cards), m.choice, m.target].join("|");

// Whether a move fits the declare button (a move said with a call is offered
// only with the button on; the same move without it, only with it off).
function declareFits(move, declaredKeys) {
  if (declared) return move.declare || !declaredKeys.has(twinKey(move));
  return !move.declare;
}

// The moves to offer: those using exactly the selected cards (or, with none
// selected, no card); and, as suggestions, those using the selected cards and more.
function offered() {
  const hand = update.table.hand;
  const picked = selected.map((i) => hand[i]);
  const declaredKeys = new Set(update.moves.filter((m) => m.declare).map(twinKey));
  const exact = [];
  const more = [];
  update.moves.forEach((move, index) => {
    if (!declareFits(move, declaredKeys)) return;
    if (sortedKey(move.cards) === sortedKey(picked)) {
      exact.push([move, index]);
    } else if (picked.length && contains(move.cards, picked)) {
      more.push([move, index]);
    }
  });
  return [exact, more];
}

function contains(cards, picked) {
  const left = [...cards];
  for (const name of picked) {
    const at = left.indexOf(name);
    if (at < 0) return false;
    left.splice(at, 1);
  }
  return true;
}

function moveButton(move, index, cls) {
  const button = rich("button", cls, move.label);
  button.type = "button";
  button.disabled = sent;
  button.addEventListener("click", () => {
    sent = true;
    send({ type: "move", turn: update.turn, move: index });
    draw();
  });
  return button;
}

// "Tap a card to play it", "tap cards to meld, lay off or discard": from the moves on offer.
function instruction(moves) {
  const verbs = [];
  for (const move of moves) {
    if (!move.cards.length) continue;
    const verb = move.kind === "layoff" ? "lay off" : move.kind;
    if (!verbs.includes(verb)) verbs.push(verb);
  }
  if (!verbs.length) return "";
  const many = moves.some((m) => m.cards.length > 1);
  const said = verbs.length === 1 ? verbs[0] : verbs.slice(0, -1).join(", ") + " or " + verbs[verbs.length - 1];
  return many ? `Tap cards to ${said}.` : `Tap a bright card to ${said} it.`;
}

function drawActions(table) {
  const box = $("actions");
  box.replaceChildren();
  document.body.classList.toggle("myturn", update.moves.length > 0 && !over);
  if (over) return;
  if (!update.moves.length) {
    const who = table.turn === null ? "" : table.players[table.turn].name;
    const text = welcome.seat === null ? (who ? `${who} to play` : "") : (who ? `Waiting for ${who}…` : "Waiting…");
    box.append(el("div", "wait", text));
    return;
  }
  const [exact, more] = offered();
  const help = el("div", "yourturn");
  help.append(el("strong", "", "Your turn. "));
  if (!selected.length) {
    help.append(instruction(update.moves) || "Pick a move below.");
  } else if (exact.length > 1) {
    help.append("Pick one:");
  } else if (!exact.length) {
    help.append(more.length ? "These cards go with others:" : "No move uses these cards: tap them again to put them back.");
  }
  box.append(help);
  const declares = [...new Set(update.moves.filter((m) => m.declare).map((m) => m.declare))];
  for (const word of declares) {
    const button = el("button", "declare" + (declared ? " on" : ""), declared ? `${word} \u2714` : `Say "${word}"`);
    button.type = "button";
    button.addEventListener("click", () => { declared = !declared; draw(); });
    box.append(button);
  }
  for (const [move, index] of exact) box.append(moveButton(move, index, move.cards.length ? "primary" : ""));
  for (const [move, index] of more.slice(0, 6)) box.append(moveButton(move, index, "suggest"));
  if (update.moves.length > 1) {
    const toggle = el("button", "quiet", showAll ? "Hide the list of moves" : `List all ${update.moves.length} moves`);
    toggle.type = "button";
    toggle.addEventListener("click", () => { showAll = !showAll; draw(); });
    box.append(toggle);
  }
  if (showAll) {
    const list = el("div", "all");
    update.moves.forEach((move, index) => list.append(moveButton(move, index, "")));
    box.append(list);
  }
}

$("closesheet").addEventListener("click", () => { $("sheet").hidden = true; });
connect();
