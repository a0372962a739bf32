// Cards and texts as the pages draw them: the table page (table.js) and the
// read-only board (board.js) share these.  No build step, no library.
"use strict";

const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };

// The page's words in the host's language: the server puts them in the page
// (<script id="words" type="application/json">, from the catalog of domain
// "page"); without them every text is the English written here.
const WORDS = (() => {
  const node = document.getElementById("words");
  try { return node ? JSON.parse(node.textContent) : {}; } catch (e) { return {}; }
})();
// A message in the page's language, its {fields} filled in.
function t(message, fields) {
  let text = WORDS[message] || message;
  for (const key in fields || {}) text = text.split(`{${key}}`).join(String(fields[key]));
  return text;
}
// The form of a message for a count, {count} filled in: English has two forms,
// the languages the page speaks one (kept under the singular's words).
function tn(one, many, count, fields) {
  const message = WORDS[one] ? one : (count === 1 ? one : many);
  return t(message, { count, ...(fields || {}) });
}
// The page's own static texts (data-t) and labels (data-t-label), once, at load.
function translatePage() {
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.textContent.trim());
  for (const node of document.querySelectorAll("[data-t-label]")) {
    node.setAttribute("aria-label", t(node.getAttribute("aria-label")));
  }
}
// A card name standing alone in a text: 7H, 10S, JK (as cardcli's terminal styles them).
const CARD = /(^|[^A-Za-z0-9])((10|[2-9JQKA])([SHDC])|JK)(?![A-Za-z0-9])/g;

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

// A terminal's text (a round's end, the final table) for a phone: a line per
// line, in a fixed-width font; a line too long for the screen wraps, indented,
// instead of scrolling sideways.
function textBlock(text) {
  const box = el("div", "textblock");
  for (const line of text.split("\n")) {
    const indent = line.length - line.trimStart().length;
    const row = rich("div", "line", line.trimStart() || "\u00a0");
    row.style.setProperty("--indent", indent + "ch");
    box.append(row);
  }
  return box;
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
