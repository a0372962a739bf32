// The phone page of a cardcli table: draws what the server sends (docs/protocol.md)
// and sends back the index of the move the player picks.  No build step, no library;
// cards.js (loaded first) draws the cards and the texts.
"use strict";

const PROTOCOL = 2;
// The top cards of a pile shown before "show all" (the whole pile is one tap away).
const PILE_SHOWN = 6;
// Seconds without a word from the server (a ping is answered at once) before
// the page counts itself offline and reconnects: a phone that lost Wi-Fi may
// never see its connection close.
const PING_EVERY = 10, SILENT_FOR = 25;
// Close reasons after which the link no longer opens the seat (docs/protocol.md):
// the reason (a protocol key) and what the page says of it.
const FINAL = {
  "bad-token": t("This link does not open a seat at this table (any more). Ask the host for a new one."),
  "protocol": t("This page is older than the table: reload it."),
  "this seat was opened on another device": t("This seat is open on another device. Reload to take it back."),
  "this link was replaced by a new one from the host":
    t("The host gave this seat a new link: this one no longer opens it. Ask the host for the new one."),
  "you left the table": t("You left the table. Thanks for playing!"),
  "the host took this seat away": t("The host took this seat away. Thanks for playing!"),
  "the host gave this seat to a CPU": t("The host gave this seat to a CPU. Thanks for playing!"),
  "the host closed the table": t("The host closed the table. Thanks for playing!"),
};
const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const $ = (id) => document.getElementById(id);

let socket = null;
let welcome = null;
let update = null;
let evening = null;       // the last "evening" message (between games)
let selected = [];        // indexes into the hand
let declared = false;     // the "Page One!" (or other) button pressed
let showAll = false;
let wholePile = false;    // the whole discard pile shown, not only its top cards
let sent = false;         // a move is on its way: wait for the next update
let over = null;          // the "over" message, once the game has ended
let online = false;       // connected and welcomed: moves can be sent
let gone = "";            // why the link no longer opens the seat (no reconnecting)
let goneAs = "";          // ... as the table said it (a FINAL key): "you left the table", ...
let said = false;         // said "play again"
let heard = 0;            // when the server last said anything (ms)
let retry = 500;
let retryTimer = null;
const log = [];
// What the hand and the buttons were last drawn from: an update that changes
// nothing there (a name, who is connected) leaves them as they are, so a tap
// under way is never lost to a redraw.
const drawn = { hand: "", actions: "" };

// ------------------------------------------------------------ the connection
function connect() {
  clearTimeout(retryTimer);
  if (gone || (socket && socket.readyState <= WebSocket.OPEN)) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const here = new WebSocket(`${scheme}://${location.host}/ws`);
  socket = here;
  status(welcome ? t("reconnecting…") : t("connecting…"), welcome ? "bad" : "");
  here.onopen = () => {
    retry = 500;
    heard = Date.now();
    here.send(JSON.stringify({ type: "hello", protocol: PROTOCOL, token }));
  };
  here.onmessage = (event) => {
    heard = Date.now();
    if (here === socket) receive(JSON.parse(event.data));
  };
  here.onclose = (event) => {
    if (here !== socket) return;
    socket = null;
    offline();
    if (FINAL[event.reason] || event.code === 1008) {
      gone = FINAL[event.reason] || t("The table refused this page: {reason}", { reason: event.reason });
      goneAs = event.reason;
      status(t("not at the table"), "bad");
      // Between games the sheet is over the table: the reason goes at its top, not under it.
      if (!$("sheet").hidden && ["over", "door"].includes($("sheet").dataset.kind)) showOver();
      draw();
      return;
    }
    retryTimer = setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  };
}

// No connection (yet, or any more): the page says so and offers no move
// (nor "Play again": a button that cannot be sent is never offered as if it could).
function offline() {
  online = false;
  sent = false;
  if (gone) status(t("not at the table"), "bad"); else status(t("offline"), "bad");
  refreshLobby();
  draw();
}

// The sheet's evening part again (who is ready, the buttons), as the connection now allows.
function refreshLobby() {
  const spot = $("lobby");
  if (spot && !$("sheet").hidden) spot.replaceChildren(...lobby());
}

function status(text, kind) {
  const node = $("link");
  node.textContent = text;
  node.className = "status " + kind;
}

// Only while online: a tap offline is never silently lost, it is never offered.
function send(message) {
  if (!online || !socket || socket.readyState !== WebSocket.OPEN) { offline(); return false; }
  socket.send(JSON.stringify(message));
  return true;
}

function receive(message) {
  switch (message.type) {
    case "welcome":
      welcome = message;
      online = true;
      status(t("connected"), "ok");
      refreshLobby();
      $("title").textContent = message.title;
      document.title = message.title;
      whoAmI();
      $("description").replaceChildren(rich("span", "", message.description || ""));
      $("rules").replaceChildren(rich("span", "", message.header || ""));
      said = false;  // what the table says of this seat ("ready") is the truth, not a tap made offline
      if (!message.between) { over = null; evening = null; closeSheet(); }
      log.length = 0;
      for (const line of message.log) log.push({ text: line, fresh: false });
      if (message.ask_name) door();
      break;
    case "players":
      if (welcome) { welcome.players = message.players; whoAmI(); }
      break;
    case "update":
      if (!update || message.turn !== update.turn) { selected = []; declared = false; showAll = false; }
      update = message;
      sent = false;
      for (const item of log) item.fresh = false;
      for (const line of message.events) log.push({ text: line, fresh: true });
      while (log.length > 60) log.shift();
      if (message.round_end) sheet(t("The round is over"), [textBlock(message.round_end)], t("Next round"));
      break;
    case "seats":
      if (update) update.seats = message.seats;
      break;
    case "over":
      over = message;
      said = false;
      showOver();
      break;
    case "evening":
      evening = message;
      if (!$("sheet").hidden && $("sheet").dataset.kind === "over") {
        $("lobby").replaceChildren(...lobby());
      } else if (!$("sheet").hidden && $("sheet").dataset.kind === "door") {
        // the name first: the evening is shown once the friend has sat down
      } else if (!over) {
        over = { between: true };  // joined between games: the last game's end comes with the evening
        showOver();
      }
      break;
    case "pong":
      return;
    case "error":
      sent = false;
      if (message.code === "bad-name") { door(message.message); return; }
      log.push({ text: "\u26a0 " + message.message, fresh: true });
      break;
    default:
      return;
  }
  draw();
}

function whoAmI() {
  $("who").textContent = welcome.seat === null ? t("watching")
    : t("as {name}", { name: welcome.players[welcome.seat].name });
}

// ------------------------------------------------------------------ sheets
// A sheet over the table (a round's end, the game's end, the door) until it is closed.
function sheet(title, content, button, kind = "round") {
  $("sheettitle").textContent = title;
  $("sheetbody").replaceChildren(...content);
  $("closesheet").textContent = button;
  $("closesheet").hidden = !button;
  $("sheet").dataset.kind = kind;
  $("sheet").hidden = false;
  $("sheet").querySelector(".sheet").scrollTop = 0;
}

// A game's end and, between games, the evening: the tally and "Play again".
function showOver() {
  const spot = el("div", "");
  spot.id = "lobby";
  const game = over ? over.game || (evening && evening.last && evening.last.game) : null;
  const content = over && over.result ? ending(over) : [];
  // Why this page no longer holds the seat comes first, where it is read.
  const why = gone ? [el("p", "gone", gone)] : [];
  if (why.length) why[0].setAttribute("role", "alert");
  const title = game ? t("Game {game} over", { game }) : t("Between games");
  sheet(title, [...why, ...content, spot], t("See the table"), "over");
  spot.replaceChildren(...lobby());
}

function closeSheet() {
  $("sheet").hidden = true;
}

// The door: a friend's name, asked once (prefilled with the host's name for the seat).
function door(problem) {
  const mine = welcome.players[welcome.seat].name;
  const input = el("input", "");
  input.id = "name";
  input.type = "text";
  input.maxLength = welcome.name_max || 20;
  input.value = mine;
  input.autocomplete = "nickname";
  input.setAttribute("aria-label", t("Your name"));
  const go = el("button", "primary", t("Sit down"));
  go.type = "button";
  go.id = "sitdown";
  const submit = () => {
    if (!send({ type: "name", name: input.value })) return;
    closeSheet();
    if (evening && evening.next && !over) { over = { between: true }; showOver(); }
  };
  go.addEventListener("click", submit);
  input.addEventListener("keydown", (event) => { if (event.key === "Enter") submit(); });
  const parts = [el("p", "", t("{title}: the others will see this name.", { title: welcome.title })), input];
  if (problem) parts.push(el("p", "problem", problem));
  parts.push(go);
  sheet(t("Your name at the table"), parts, "", "door");
  input.focus();
  input.select();
}

// The end of a game: the ranking first, then the whole table as cardcli play shows it.
function ending(message) {
  const result = message.result;
  const names = update ? update.table.players.map((p) => p.name) : [];
  const out = [el("p", "headline", message.headline || "")];
  if (result && result.places) {
    const list = el("ol", "ranking");
    const order = result.places.map((place, seat) => [place, seat]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (const [place, seat] of order) {
      const row = el("li", seat === welcome.seat ? "me" : "");
      row.append(el("span", "place", t("{place}.", { place })),
        el("span", "name", names[seat] || t("seat {seat}", { seat })));
      if (result.scores) {
        const score = t("{score} {label}", { score: result.scores[seat], label: welcome.score_label });
        row.append(el("span", "score", score));
      }
      if (result.winner === seat) row.append(el("span", "won", t("wins")));
      list.append(row);
    }
    out.push(list);
  }
  if (message.text) {
    const details = el("details", "");
    details.append(el("summary", "", t("Every hand and the final table")), textBlock(message.text));
    out.push(details);
  }
  return out;
}

// Between games: the evening's tally, who is ready, and "Play again".
function lobby() {
  if (!evening) return [];
  const out = [];
  if (evening.last && !(over && over.result)) {  // the ending was not seen here: its ranking
    out.push(el("p", "headline", evening.last.headline), textBlock(evening.last.ranking));
  }
  if (evening.tally && evening.tally.games) out.push(el("h3", "", t("Tonight")), tallyTable(evening.tally));
  const next = evening.next;
  if (!next) return out;
  out.push(el("h3", "", t("Game {game}", { game: evening.game })), rich("p", "rules", next.header));
  const seats = el("ul", "nextseats");
  next.players.forEach((p, seat) => {
    const row = el("li", seat === welcome.seat ? "me" : "", p.name);
    // This page's own seat, closed to it: the list it last had is older than that.
    const closed = gone && seat === welcome.seat;
    const state = p.kind.startsWith("cpu") ? p.kind
      : p.left || (closed && goneAs === "you left the table") ? t("left the table")
      : closed ? t("not at the table")
      : p.ready ? t("\u2714 ready") : p.connected ? t("deciding") : t("not here");
    row.append(el("span", "state" + (p.ready ? " ready" : ""), state));
    seats.append(row);
  });
  out.push(seats);
  const me = welcome.seat === null ? null : next.players[welcome.seat];
  const starts = next.starts === "host" ? t("The host starts the next game.")
    : next.waiting.length ? t("It starts when everyone is ready (waiting for {names}).", { names: next.waiting.join(", ") })
    : t("It starts when everyone is ready (everyone is ready).");
  out.push(el("p", "starts", starts));
  if (gone) return out;  // the seat is closed for this page: nothing to tap (the reason is above)
  if (!online) out.push(el("p", "offline", t("Offline: reconnecting to the table… Play again comes back when it is back.")));
  if (me && !me.left) {
    const again = el("button", "primary", me.ready || said ? t("\u2714 You are in: waiting…") : t("Play again"));
    again.type = "button";
    again.id = "again";
    again.disabled = me.ready || said || !online;
    again.addEventListener("click", () => { if (send({ type: "again" })) { said = true; $("lobby").replaceChildren(...lobby()); } });
    const leave = el("button", "quiet", t("Leave the table"));
    leave.type = "button";
    leave.id = "leave";
    leave.disabled = !online;
    leave.addEventListener("click", () => {
      if (leave.dataset.sure) { send({ type: "leave" }); return; }
      leave.dataset.sure = "1";
      leave.textContent = t("Tap again to leave for good");
    });
    out.push(again, leave);
  }
  return out;
}

function tallyTable(tally) {
  const grid = el("table", "tally");
  const head = el("tr");
  head.append(el("th", "", ""), ...tally.players.map((p) => el("th", "", p.name)));
  grid.append(head);
  for (const row of tally.rows) {
    const tr = el("tr");
    tr.append(el("td", "", t("game {game}", { game: row.game })));
    tally.players.forEach((_p, column) => {
      const place = row.places[column];
      const score = row.scores ? row.scores[column] : null;
      const text = place === null ? "-" : (score !== null && score !== undefined ? String(score) : t("{place}.", { place }));
      tr.append(el("td", place === 1 ? "won" : "", text));
    });
    grid.append(tr);
  }
  const wins = el("tr", "wins");
  wins.append(el("th", "", t("wins")), ...tally.players.map((p) => el("th", "", String(p.wins))));
  grid.append(wins);
  return grid;
}

// ------------------------------------------------------------------- table
function draw() {
  document.body.classList.toggle("offline", !online);
  if (!update || !welcome) { drawActions(null); return; }
  const table = update.table;
  const me = welcome.seat;
  // Players: counts, notes, score, whose turn, who is away.
  const players = $("players");
  players.replaceChildren();
  table.players.forEach((p, seat) => {
    const box = el("div", "player" + (table.turn === seat ? " turn" : "") + (seat === me ? " me" : ""));
    const name = el("span", "name", p.name);
    if (seat === me) name.append(el("span", "you", t("you")));
    box.append(name);
    if (p.cards !== null) box.append(el("span", "count", tn("{count} card", "{count} cards", p.cards)));
    if (p.notes.length) box.append(el("span", "notes", p.notes.join(", ")));
    if (p.score) box.append(el("span", "score", p.score));
    const presence = update.seats[seat];
    if (presence && presence.kind === "friend" && !presence.connected) {
      const absent = presence.joined === false
        ? (presence.stand_in ? t("not here yet (a CPU plays)") : t("not here yet"))
        : (presence.stand_in ? t("away (a CPU plays)") : t("away"));
      box.append(el("span", "notes away", absent));
    }
    players.append(box);
  });
  drawPiles(table);
  const melds = $("melds");
  melds.replaceChildren();
  table.melds.forEach((meld, i) => {
    const row = el("div", "meld");
    const label = meld.owner === null ? t("{number}. {meld}", { number: i + 1, meld: meld.label })
      : t("{number}. {name}: {meld}", { number: i + 1, name: table.players[meld.owner].name, meld: meld.label });
    row.append(el("span", "label", label));
    for (const name of meld.cards) row.append(cardNode(name, { small: true }));
    melds.append(row);
  });
  $("notes").replaceChildren(...table.notes.map((n) => rich("li", "", n)));
  // What just happened: the last few events, the new ones bright.
  $("log").replaceChildren(...log.slice(-6).map((item) => rich("p", item.fresh ? "new" : "", item.text)));
  $("earlier").replaceChildren(...log.slice(0, -6).map((item) => rich("p", "", item.text)));
  $("earlierbox").hidden = log.length <= 6;
  drawTally();
  drawScores(table);
  $("text").replaceChildren(textBlock(table.text));
  drawHand(table);
  drawActions(table);
  // The newest line is never hidden: after each change (the hand panel may
  // have grown) the table scrolls it into view above the hand.
  const newest = $("log").lastElementChild;
  if (newest) showNewest(newest);
}

// Scroll the table (not the page) just enough that the newest line is in view:
// below the players row, which stays at the top, and above the hand, by whole pixels.
function showNewest(line) {
  const main = document.querySelector("main");
  const view = main.getBoundingClientRect();
  const top = Math.max(view.top, $("players").getBoundingClientRect().bottom);
  const box = line.getBoundingClientRect();
  if (box.bottom > view.bottom) main.scrollTop += Math.ceil(box.bottom - view.bottom);
  else if (box.top < top) main.scrollTop -= Math.ceil(top - box.top);
}

// Piles: face-up cards (with who played them), or a face-down count.  A
// discard pile shows its top cards and, a tap away, every card in it.
function drawPiles(table) {
  const piles = $("piles");
  piles.replaceChildren();
  for (const pile of table.piles) {
    const box = el("div", "pile" + (pile.cards.length > PILE_SHOWN && wholePile ? " whole" : ""));
    box.append(el("span", "label", pile.name));
    const cards = el("div", "cards");
    if (pile.cards.length) {
      const deep = pile.cards.length > PILE_SHOWN;
      const from = deep && !wholePile ? pile.cards.length - PILE_SHOWN : 0;
      const labels = pile.labels.length === pile.cards.length ? pile.labels : [];
      pile.cards.slice(from).forEach((name, i) => {
        const at = from + i;
        const node = cardNode(name, { small: pile.cards.length > 1 });
        if (deep) node.dataset.depth = String(pile.cards.length - at);  // 1: the top card
        if (labels.length) {
          const played = el("div", "played");
          played.append(node, el("span", "", labels[at]));
          cards.append(played);
        } else {
          cards.append(node);
        }
      });
      if (deep) {
        const more = el("button", "more", wholePile ? t("top cards only")
          : t("+{below} below: show all {count}", { below: from, count: pile.cards.length }));
        more.type = "button";
        more.addEventListener("click", () => { wholePile = !wholePile; draw(); });
        box.append(cards, more);
      } else {
        box.append(cards);
      }
    } else if (pile.count) {
      cards.append(el("span", "back", String(pile.count)));
      box.append(cards);
    } else {  // an empty pile: its place, empty (never a card's back marked 0)
      cards.append(el("span", "empty", t("empty")));
      box.append(cards);
    }
    if (pile.note) box.append(rich("span", "note", pile.note));
    piles.append(box);
  }
}

function drawTally() {
  const tally = welcome && welcome.tally;
  const show = !!(tally && tally.games);
  $("tallybox").hidden = !show;
  if (show) $("tally").replaceChildren(tallyTable(tally));
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
  total.append(el("th", "", t("total")), ...table.scores.totals.map((value) => el("th", "", String(value))));
  grid.append(total);
  box.append(grid);
}

function moves() {
  return online && update && !over ? update.moves : [];
}

function usable() {
  const names = new Set();
  for (const move of moves()) for (const name of move.cards) names.add(name);
  return names;
}

function drawHand(table) {
  const playable = usable();
  const key = JSON.stringify([table.hand, table.marks, [...playable], selected, sent]);
  if (key === drawn.hand) return;
  drawn.hand = key;
  const hand = $("hand");
  hand.replaceChildren();
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
  button.dataset.move = String(index);
  button.disabled = sent || !online;
  button.addEventListener("click", () => {
    if (!send({ type: "move", turn: update.turn, move: index })) return;
    sent = true;
    draw();
  });
  return button;
}

// What tapping cards does, from the moves on offer: "Tap a bright card to play
// it", "Tap cards to meld, lay off or discard".  A whole sentence for each set
// of move kinds the games offer together (in the order their moves come): for
// several cards, and, when every move uses one card, with where "it" goes.
const TAP = {
  "play": [t("Tap cards to play."), t("Tap a bright card to play it.")],
  "discard": [t("Tap cards to discard."), t("Tap a bright card to discard it.")],
  "layoff": [t("Tap cards to lay off."), t("Tap a bright card to lay it off.")],
  "layoff discard": [t("Tap cards to lay off or discard."), t("Tap a bright card to lay it off or discard it.")],
  // A meld takes several cards: these are never said of one card.
  "meld": [t("Tap cards to meld.")],
  "meld discard": [t("Tap cards to meld or discard.")],
  "meld layoff": [t("Tap cards to meld or lay off.")],
  "meld layoff discard": [t("Tap cards to meld, lay off or discard.")],
  "pickup": [t("Tap cards to meld with a card from the pile.")],
};
// Another game's own move kinds (record words, in English): each in words, put
// together in English.
const VERBS = {
  layoff: ["lay off", "lay it off"],
  pickup: ["meld with a card from the pile", "meld it with a card from the pile"],
};

function instruction(moves) {
  const kinds = [];
  for (const move of moves) {
    if (move.cards.length && !kinds.includes(move.kind)) kinds.push(move.kind);
  }
  if (!kinds.length) return "";
  const many = moves.some((m) => m.cards.length > 1);
  const known = (TAP[kinds.join(" ")] || [])[many ? 0 : 1];
  if (known) return known;
  const words = kinds.map((kind) => (VERBS[kind] || [kind, `${kind} it`])[many ? 0 : 1]);
  const said = words.length === 1 ? words[0] : words.slice(0, -1).join(", ") + " or " + words[words.length - 1];
  return many ? `Tap cards to ${said}.` : `Tap a bright card to ${said}.`;
}

function drawActions(table) {
  const offering = table !== null && moves().length > 0;
  const key = JSON.stringify([gone, online, !!over, !!(evening && evening.next), welcome && welcome.seat,
    table && table.turn, table && table.turn !== null ? table.players[table.turn].name : null,
    offering ? [update.turn, update.moves] : null, selected, declared, showAll, sent]);
  if (key === drawn.actions) return;
  drawn.actions = key;
  const box = $("actions");
  box.replaceChildren();
  document.body.classList.toggle("myturn", offering);
  if (gone) { box.append(el("div", "wait gone", gone)); return; }
  if (!online) {
    box.append(el("div", "wait offline", t("Offline: reconnecting to the table… Your moves come back when it is back.")));
    return;
  }
  if (over) {
    const back = el("button", "primary", t("The evening: play again?"));
    back.type = "button";
    back.addEventListener("click", showOver);
    if (evening && evening.next) box.append(back);
    return;
  }
  if (table === null) return;
  if (!offering) {
    const who = table.turn === null ? "" : table.players[table.turn].name;
    const text = welcome.seat === null ? (who ? t("{name} to play", { name: who }) : "")
      : (who ? t("Waiting for {name}…", { name: who }) : t("Waiting…"));
    box.append(el("div", "wait", text));
    return;
  }
  const [exact, more] = offered();
  const help = el("div", "yourturn");
  help.append(el("strong", "", t("Your turn. ")));
  if (!selected.length) {
    help.append(instruction(update.moves) || t("Pick a move below."));
  } else if (exact.length > 1) {
    help.append(t("Pick one:"));
  } else if (!exact.length) {
    help.append(more.length ? t("These cards go with others:") : t("No move uses these cards: tap them again to put them back."));
  }
  box.append(help);
  const declares = [...new Set(update.moves.filter((m) => m.declare).map((m) => m.declare))];
  for (const word of declares) {
    const button = el("button", "declare" + (declared ? " on" : ""), declared ? `${word} \u2714` : t("Say \"{word}\"", { word }));
    button.type = "button";
    button.addEventListener("click", () => { declared = !declared; draw(); });
    box.append(button);
  }
  for (const [move, index] of exact) box.append(moveButton(move, index, move.cards.length ? "primary" : ""));
  for (const [move, index] of more.slice(0, 6)) box.append(moveButton(move, index, "suggest"));
  if (update.moves.length > 1) {
    const toggle = el("button", "quiet", showAll ? t("Hide the list of moves")
      // Translators: {count} is always 2 or more.
      : t("List all {count} moves", { count: update.moves.length }));
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

// ------------------------------------------------------------------- start
translatePage();
$("closesheet").addEventListener("click", closeSheet);
// Heartbeat: a ping now and then; a server silent too long means the
// connection is dead even if the phone has not noticed yet.
setInterval(() => {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  if (Date.now() - heard > SILENT_FOR * 1000) { socket.close(); return; }
  socket.send(JSON.stringify({ type: "ping" }));
}, PING_EVERY * 1000);
window.addEventListener("offline", () => { if (socket) socket.close(); else offline(); });
window.addEventListener("online", () => { retry = 500; connect(); });
connect();
draw();
