// The phone page of a cardcli table: draws what the server sends (docs/protocol.md)
// and sends back the index of the move the player picks.  No build step, no library.
"use strict";

const PROTOCOL = 1;
const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const $ = (id) => document.getElementById(id);

let socket = null;
let welcome = null;
let update = null;
let selected = [];        // indexes into the hand
let declared = false;     // the "Page One!" (or other) button pressed
let showAll = false;
let sent = false;         // a move is on its way: wait for the next update
let over = false;
let retry = 500;
const log = [];

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
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
      $("who").textContent = message.seat === null ? "watching" : "you are " + message.players[message.seat].name;
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
      break;
    case "seats":
      if (update) update.seats = message.seats;
      break;
    case "over":
      over = true;
      $("overtext").textContent = message.text;
      $("over").hidden = false;
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

function draw() {
  if (!update || !welcome) return;
  const table = update.table;
  const me = welcome.seat;
  // Players: counts, notes, score, whose turn, who is away.
  const players = $("players");
  players.replaceChildren();
  table.players.forEach((p, seat) => {
    const box = el("div", "player" + (table.turn === seat ? " turn" : "") + (seat === me ? " me" : ""));
    box.append(el("span", "name", p.name + (seat === me ? " (you)" : "")));
    if (p.cards !== null) box.append(el("span", "count", `${p.cards} card${p.cards === 1 ? "" : "s"}`));
    if (p.notes.length) box.append(el("span", "notes", p.notes.join(", ")));
    if (p.score) box.append(el("span", "score", p.score));
    const presence = update.seats[seat];
    if (presence && presence.kind === "friend" && !presence.connected) {
      box.append(el("span", "notes away", presence.stand_in ? "away (a CPU plays)" : "away"));
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
      shown.forEach((name, i) => {
        const labels = pile.labels.length ? pile.labels.slice(-shown.length) : [];
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
    if (pile.note) box.append(el("span", "note", pile.note));
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
  $("notes").replaceChildren(...table.notes.map((n) => el("li", "", n)));
  // What just happened.
  const logBox = $("log");
  logBox.replaceChildren(...log.slice(-12).map((item) => el("p", item.fresh ? "new" : "", item.text)));
  logBox.scrollTop = logBox.scrollHeight;
  drawScores(table);
  $("text").textContent = table.text;
  drawHand(table);
  drawActions(table);
}

function drawScores(table) {
  const box = $("scores");
  box.replaceChildren();
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
    if (table.marks[name]) node.classList.add(table.marks[name]);
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

const same = (a, b) => a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);
const twinKey = (m) => [m.kind, [...m.cards].sort().join(" "), m.choice, m.target].join("|");

// The moves to offer: those using exactly the selected cards (or no card),
// each with or without the declaration as the declare button says.
function offered() {
  const hand = update.table.hand;
  const picked = selected.map((i) => hand[i]);
  const declaredKeys = new Set(update.moves.filter((m) => m.declare).map(twinKey));
  const out = [];
  update.moves.forEach((move, index) => {
    if (!same(move.cards, picked) && move.cards.length) return;
    if (move.cards.length === 0 && picked.length) return;
    if (declared) {
      if (!move.declare && declaredKeys.has(twinKey(move))) return;
    } else if (move.declare) {
      return;
    }
    out.push([move, index]);
  });
  return out;
}

function moveButton(move, index, cls) {
  const button = el("button", cls, move.label);
  button.type = "button";
  button.disabled = sent;
  button.addEventListener("click", () => {
    sent = true;
    send({ type: "move", turn: update.turn, move: index });
    draw();
  });
  return button;
}

function drawActions(table) {
  const box = $("actions");
  box.replaceChildren();
  if (over) return;
  if (!update.moves.length) {
    const who = table.turn === null ? "" : table.players[table.turn].name;
    const text = welcome.seat === null ? (who ? `${who} to play` : "") : (who ? `Waiting for ${who}…` : "Waiting…");
    box.append(el("div", "wait", text));
    return;
  }
  const declares = [...new Set(update.moves.filter((m) => m.declare).map((m) => m.declare))];
  for (const word of declares) {
    const button = el("button", "declare" + (declared ? " on" : ""), declared ? `${word} \u2714` : word);
    button.type = "button";
    button.addEventListener("click", () => { declared = !declared; draw(); });
    box.append(button);
  }
  const moves = offered();
  for (const [move, index] of moves) box.append(moveButton(move, index, move.cards.length ? "primary" : ""));
  if (selected.length && !moves.some(([m]) => m.cards.length)) {
    box.append(el("div", "wait", "No move uses exactly these cards: tap cards to change the choice."));
  } else if (!selected.length && update.moves.some((m) => m.cards.length)) {
    box.append(el("div", "wait", "Your turn: tap a card to play it."));
  }
  const toggle = el("button", "quiet", showAll ? "Hide the list of moves" : `All ${update.moves.length} moves`);
  toggle.type = "button";
  toggle.addEventListener("click", () => { showAll = !showAll; draw(); });
  box.append(toggle);
  if (showAll) {
    const list = el("div", "all");
    update.moves.forEach((move, index) => list.append(moveButton(move, index, "")));
    box.append(list);
  }
}

$("closeover").addEventListener("click", () => { $("over").hidden = true; });
connect();
