// A read-only board at a watch link (docs/protocol.md, "Boards"): whatever its
// publisher shows (a score sheet, a public table), drawn large enough to read
// across a table, redrawn at every "board" message.  It sends nothing but hello
// and pings.  cards.js (loaded first) draws the cards and the texts.
"use strict";

const PROTOCOL = 2;
const PING_EVERY = 10, SILENT_FOR = 25;
// The top cards of a pile a board shows.
const PILE_SHOWN = 5;
const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const $ = (id) => document.getElementById(id);

let socket = null;
let board = null;
let heard = 0;
let retry = 500;
let retryTimer = null;
let gone = "";

function status(text, kind) {
  $("link").textContent = text;
  $("link").className = "status " + kind;
}

function connect() {
  clearTimeout(retryTimer);
  if (gone || (socket && socket.readyState <= WebSocket.OPEN)) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const here = new WebSocket(`${scheme}://${location.host}/ws`);
  socket = here;
  status(board ? t("reconnecting…") : t("connecting…"), board ? "bad" : "");
  here.onopen = () => {
    retry = 500;
    heard = Date.now();
    here.send(JSON.stringify({ type: "hello", protocol: PROTOCOL, token }));
  };
  here.onmessage = (event) => {
    heard = Date.now();
    if (here !== socket) return;
    const message = JSON.parse(event.data);
    if (message.type === "board") {
      board = message;
      status(t("live"), "ok");
      draw();
    } else if (message.type === "error" && (message.code === "bad-token" || message.code === "protocol")) {
      gone = message.message;
    }
  };
  here.onclose = (event) => {
    if (here !== socket) return;
    socket = null;
    if (gone || event.code === 1008 || event.reason === "bad-token") {
      gone = gone || t("This link does not open a board here (any more).");
      status(t("closed"), "bad");
      draw();
      return;
    }
    status(event.reason === "the page was closed" ? t("closed: reconnecting…") : t("offline: reconnecting…"), "bad");
    document.body.classList.add("offline");
    retryTimer = setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  };
}

// --------------------------------------------------------------------- drawing
function draw() {
  document.body.classList.toggle("offline", !socket || socket.readyState !== WebSocket.OPEN);
  if (gone && !board) { $("headline").textContent = gone; return; }
  if (!board) return;
  $("title").textContent = board.title;
  document.title = board.title;
  $("headline").replaceChildren(rich("span", "", board.headline || ""));
  $("headline").classList.toggle("over", !!board.over);
  $("standing").replaceChildren(rich("span", "", board.status || ""));
  $("scoresheet").replaceChildren(...(board.sheet ? drawSheet(board.sheet) : []));
  $("table").hidden = !board.table;
  if (board.table) drawTable(board.table);
  $("log").replaceChildren(...board.lines.map((line, i) =>
    rich("p", i === board.lines.length - 1 ? "new" : "", line)));
  $("log").hidden = !board.lines.length;
  $("text").replaceChildren(textBlock(board.text || ""));
}

// The sheet: a row per round, the totals, the leaders' columns in gold.
function drawSheet(sheet) {
  const lead = new Set(sheet.leaders);
  const grid = el("table", "sheet");
  const head = el("tr");
  for (const name of sheet.columns) head.append(el("th", "info", name));
  sheet.players.forEach((name, seat) => head.append(el("th", "score" + (lead.has(seat) ? " lead" : ""), name)));
  grid.append(el("thead"));
  grid.firstChild.append(head);
  const body = el("tbody");
  for (const row of sheet.rows) {
    const open = row.scores.some((score) => score === null);
    const tr = el("tr", open ? "open" : "");
    row.cells.forEach((cell) => tr.append(rich("td", "info", String(cell))));
    row.scores.forEach((score, seat) => {
      const mark = (row.marks && row.marks[seat]) || "";
      const td = el("td", "score" + (lead.has(seat) ? " lead" : ""), score === null ? "\u00b7" : String(score));
      if (mark) td.append(el("span", "mark", mark));
      tr.append(td);
    });
    if (row.note) tr.title = row.note;
    body.append(tr);
  }
  grid.append(body);
  const foot = el("tfoot");
  const total = el("tr", "total");
  const label = el("th", "info", t("total"));
  label.colSpan = Math.max(1, sheet.columns.length);
  total.append(label);
  sheet.totals.forEach((value, seat) => total.append(el("th", "score" + (lead.has(seat) ? " lead" : ""), String(value))));
  foot.append(total);
  grid.append(foot);
  const out = [grid];
  for (const line of sheet.legend) out.push(el("p", "legend", line));
  return out;
}

// A public table (a referee's board): who is to play, the piles, the melds, the notes.
function drawTable(table) {
  const players = $("players");
  players.replaceChildren();
  table.players.forEach((p, seat) => {
    const box = el("div", "player" + (table.turn === seat ? " turn" : ""));
    box.append(el("span", "name", p.name));
    if (p.cards !== null) box.append(el("span", "count", tn("{count} card", "{count} cards", p.cards)));
    if (p.notes.length) box.append(el("span", "notes", p.notes.join(", ")));
    if (p.score) box.append(el("span", "score", p.score));
    players.append(box);
  });
  const piles = $("piles");
  piles.replaceChildren();
  for (const pile of table.piles) {
    const box = el("div", "pile");
    box.append(el("span", "label", pile.name));
    const cards = el("div", "cards");
    if (pile.cards.length) {
      for (const name of pile.cards.slice(-PILE_SHOWN)) cards.append(cardNode(name, { small: pile.cards.length > 1 }));
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
    const label = meld.owner === null ? t("{number}. {meld}", { number: i + 1, meld: meld.label })
      : t("{number}. {name}: {meld}", { number: i + 1, name: table.players[meld.owner].name, meld: meld.label });
    row.append(el("span", "label", label));
    for (const name of meld.cards) row.append(cardNode(name, { small: true }));
    melds.append(row);
  });
  $("notes").replaceChildren(...table.notes.map((n) => rich("li", "", n)));
}

setInterval(() => {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  if (Date.now() - heard > SILENT_FOR * 1000) { socket.close(); return; }
  socket.send(JSON.stringify({ type: "ping" }));
}, PING_EVERY * 1000);
window.addEventListener("online", () => { retry = 500; connect(); });
translatePage();
connect();
