// Pax Hispanica game page: one WebSocket; the server sends this seat's board
// as HTML (rendered from this seat's view only); we send actions as JSON.
//
// An update is morphed into the page (idiomorph, static/idiomorph.min.js), not
// swapped in: the elements that stay keep their state, so a bid being typed keeps
// its value and focus, an open <details> stays open, and the log keeps its scroll.
// From a click until the server's answer (ack or error) every button is disabled,
// so a double click sends one action.
(function () {
  "use strict";
  // the page's settings: a JSON data block, not inline script (the CSP allows none)
  const P = JSON.parse(document.getElementById("paxh-config").textContent);
  const board = document.getElementById("board");
  const connEl = document.getElementById("conn");
  const errEl = document.getElementById("error");
  const dialog = document.getElementById("confirm-leave");
  // a page played without a socket (Learn to play, static/learn.js) brings its own transport,
  // window.PaxTransport = {open(receive, status), send(msg)}: the same messages both ways
  // (act, refresh; update, ack, error), so this file drives its board exactly as a game's
  const T = window.PaxTransport || null;
  let ws = null, version = P.version, nextId = 1, backoff = 250;
  let pending = null;                 // the id of the message whose answer we wait for
  let actedAt = null, needFocus = false, parked = null;   // focus after an action (focusNext)
  let pendingTimer = null;
  const disabledByUs = new Set();     // buttons we disabled (the server's own stay as they are)
  const edited = new WeakSet();       // inputs the player typed into: an update never resets them
  const title = document.title;
  function markTurn() {  // a tab in the background shows when a decision waits
    document.title = (board.querySelector("#decision, #pass-device") ? "▶ " : "") + title;
  }

  function url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return proto + "//" + location.host + "/ws/" + encodeURIComponent(P.token) + "?lang=" + encodeURIComponent(P.lang);
  }
  // a refusal in plain words in the page's language, never a bare code
  function sentence(e) {
    const known = P.text.errors[e.code];
    if (known) return known;
    // the engine's refusals: its own codes, a rule, and an English message
    let s = P.text.errors.not_legal;
    if (P.lang === "en" && e.message) s += " " + e.message.replace(/\.?$/, ".");
    return s;
  }
  function showError(e) {
    errEl.textContent = sentence(e) + (e.rule ? " (" + P.text.rule + " " + e.rule + ")" : "");
    errEl.dataset.code = e.code || "";
    errEl.hidden = false;
  }
  function hideError() { errEl.hidden = true; errEl.textContent = ""; errEl.dataset.code = ""; }

  function setBusy(on) {
    board.setAttribute("aria-busy", on ? "true" : "false");
    if (on) {
      board.querySelectorAll("button:not([disabled])").forEach(function (b) { b.disabled = true; disabledByUs.add(b); });
    } else {
      disabledByUs.forEach(function (b) { b.disabled = false; });
      disabledByUs.clear();
    }
  }
  function settle() {
    pending = null;
    if (pendingTimer) { clearTimeout(pendingTimer); pendingTimer = null; }
    setBusy(false);
    if (needFocus) focusNext();
  }

  // ---- focus after an action (issue 38): on the next thing to decide, never on <body>. The
  // first control of the action bar (a bid's amount, a card to pick, the places on the map when
  // the decision is only places, else its first button or list); with nothing to decide, the
  // status line (a decision that comes later takes the focus from there).
  function visible(el) { return !!el && !el.disabled && el.getClientRects().length > 0; }
  function nextTarget() {
    const d = board.querySelector("#decision");
    if (d) {
      const coarse = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
      const range = d.querySelector(".range-form input[name=value]");
      if (range && !coarse) return range;
      if (range) return d.querySelector(".range-form button[type=submit]");
      const picks = d.querySelectorAll("button.pick");
      if (picks.length > 1 && !d.querySelector('button.pick[aria-pressed="true"]')) {
        const list = d.querySelector("select.pick-select");
        return visible(list) ? list : picks[0];
      }
      // places to choose: the first of them on the map (the arrow keys go on from there)
      const place = board.querySelector("svg.map [data-place]");
      if (place) return place;
      const plain = Array.prototype.filter.call(d.querySelectorAll(".options button.act, select.opt-select, select.place-select"), visible);
      return plain.length ? plain[0] : d;
    }
    return board.querySelector("#reveal") || board.querySelector("#outcomes input.dismiss") || board.querySelector("#part-status");
  }
  function focusNext() {
    needFocus = false;
    const el = nextTarget();
    if (!el) return;
    if (el.disabled) { needFocus = true; return; }    // the buttons wait for the answer: after it
    el.focus({preventScroll: window.innerWidth <= 600 || !!(el.closest && el.closest("svg"))});
    parked = board.querySelector("#decision") ? null : el;   // a decision that comes later takes the focus from there
  }
  // whether the focus was last in the board (an update that takes its element away puts it on
  // the next decision; a page never moves a focus it did not have)
  let boardFocus = false;
  document.addEventListener("focusin", function (ev) { boardFocus = board.contains(ev.target); });
  function focusLost() {
    const a = document.activeElement;
    return !a || a === document.body || !document.contains(a) || (a.disabled && board.contains(a) && pending === null);
  }

  // answered: a message that gets an ack or an error back (act, leave, takeover, reveal)
  function send(msg, answered) {
    if (!T && (!ws || ws.readyState !== 1)) { showError({code: "offline"}); return; }
    if (answered && pending !== null) return;   // one action at a time
    msg.id = nextId++;
    if (answered) {
      pending = msg.id;
      setBusy(true);
      // no answer at all (a server that died mid-request): the socket's close settles it too
      pendingTimer = setTimeout(settle, 15000);
    }
    if (T) T.send(msg); else ws.send(JSON.stringify(msg));
  }
  function act(action) {
    hideError();
    actedAt = version;
    send({type: "act", version: version, action: action}, true);
  }

  const morphOptions = {
    morphStyle: "innerHTML",
    ignoreActiveValue: true,
    callbacks: {
      beforeAttributeUpdated: function (name, el, how) {
        if (name === "value" && edited.has(el)) return false;                              // what the player typed
        if (name === "open" && how === "remove" && el.tagName === "DETAILS") return false;  // what they opened
        if (name === "checked" && el.checked && el.classList.contains("dismiss")) return false;  // an OK they pressed
        return true;
      }
    }
  };
  // a players part or row names a fleet's legality only (<details class="legality-tip"
  // data-legality="X"></details>): its whole tip comes from the page's #legality-tips, sent once
  // with the board (present/updates.py, LEGALITY_REF)
  function withTips(html) {
    if (typeof html !== "string" || html.indexOf('class="legality-tip"') < 0) return html;
    const el = document.getElementById("legality-tips");
    let tips = {};
    try { tips = el ? JSON.parse(el.textContent) : {}; } catch (e) { tips = {}; }
    return html.replace(/<details class="legality-tip" data-legality="([A-Z_]+)"><\/details>/g,
                        function (ref, code) { return tips[code] || ref; });
  }
  // pieces of a part (a map zone's <g>, a players row <tr>) morphed by their element id; an SVG
  // piece is parsed inside an <svg> so that it gets the SVG namespace
  function morphChunks(chunks) {
    for (const id in chunks) {
      const el = document.getElementById(id);
      if (!el) return false;
      const t = document.createElement("template");
      const svg = el instanceof SVGElement;
      t.innerHTML = svg ? "<svg>" + chunks[id] + "</svg>" : withTips(chunks[id]);
      const fresh = svg ? t.content.firstElementChild.firstElementChild : t.content.firstElementChild;
      if (!fresh) return false;
      Idiomorph.morph(el, fresh, Object.assign({}, morphOptions, {morphStyle: "outerHTML"}));
    }
    return true;
  }
  // an update is the whole board (the first on a connection, or after a refresh), or only the
  // parts that changed since the last one and the new log lines (docs/web.md "Pages")
  function apply(msg) {
    version = msg.version;
    if (msg.html !== undefined) {
      Idiomorph.morph(board, msg.html, morphOptions);
    } else {
      const parts = msg.parts || {};
      for (const name in parts) {
        const el = document.getElementById("part-" + name);
        if (!el) { send({type: "refresh"}, false); return; }
        Idiomorph.morph(el, withTips(parts[name]), morphOptions);
      }
      if (msg.chunks && !morphChunks(msg.chunks)) { send({type: "refresh"}, false); return; }
      const log = document.getElementById("log");
      if (msg.log && log) {
        if (msg.log.html !== undefined) {
          Idiomorph.morph(log, msg.log.html, morphOptions);
        } else {
          log.insertAdjacentHTML("afterbegin", msg.log.add);
          while (log.children.length > msg.log.keep) log.lastElementChild.remove();
        }
      }
      const game = document.getElementById("game");
      if (game) {
        game.dataset.version = msg.version;
        game.dataset.seat = msg.seat === null || msg.seat === undefined ? "" : msg.seat;
        game.classList.toggle("over", !!msg.over);
      }
    }
    board.dataset.version = msg.version;
    const chatEnd = document.getElementById("chat-end");   // outside #board: the game ended under it
    if (chatEnd && msg.over) chatEnd.closest("p").remove();
    if (pending !== null) setBusy(true);   // new buttons wait for the answer too
    markTurn();
    if (window.PaxBoard) window.PaxBoard.afterUpdate();   // static/board.js: choices, last moves, banners, zoom
    if (window.paxhPlay && window.paxhPlay.afterUpdate) window.paxhPlay.afterUpdate();   // the log/chat tabs
    revealPlaces();
    const me = P.role === "seat" || P.role === "table";
    if (actedAt !== null && msg.version > actedAt) { actedAt = null; focusNext(); }
    else if (me && ((focusLost() && boardFocus) || (parked && document.activeElement === parked && board.querySelector("#decision")))) focusNext();
  }

  function connect() {
    ws = new WebSocket(url());
    ws.onopen = function () {
      backoff = 250; connEl.textContent = P.text.connected; connEl.className = "conn on";
      // clocks and chat (play.js) have their own messages on this socket, with string ids
      if (window.paxhPlay) window.paxhPlay.open(function (m) { if (ws.readyState === 1) ws.send(JSON.stringify(m)); });
    };
    ws.onclose = function () {
      connEl.textContent = P.text.disconnected; connEl.className = "conn off";
      if (pending !== null) settle();   // its answer will never come
      setTimeout(connect, backoff); backoff = Math.min(backoff * 2, 4000);
    };
    ws.onmessage = function (ev) { receive(JSON.parse(ev.data)); };
  }
  function receive(msg) {
    if (window.paxhPlay && (msg.type === "clock" || msg.type === "chat" || typeof msg.id === "string")) {
      window.paxhPlay.receive(msg);
    } else if (msg.type === "update") {
      apply(msg);
    } else if (msg.type === "error") {
      if (msg.id === pending) { actedAt = null; settle(); }
      showError(msg);
      if (msg.code === "stale_version") send({type: "refresh"}, false);   // and here is the new position
    } else if (msg.type === "ack") {
      if (msg.id === pending) settle();
      hideError();
    } else if (msg.type === "rematch") {   // static/rematch.js shows it
      document.dispatchEvent(new CustomEvent("paxh:rematch", {detail: msg}));
    }
  }

  board.addEventListener("input", function (ev) {
    if (ev.target.matches("input")) edited.add(ev.target);
  });
  board.addEventListener("click", function (ev) {
    const el = ev.target.closest("[data-action], [data-msg]");
    if (!el || el.tagName === "OPTION" || el.tagName === "SELECT") return;   // a place list's entry: its form's button takes it
    ev.preventDefault();
    if (pending !== null || el.disabled) return;
    if (el.dataset.confirm === "leave" && dialog && dialog.showModal) { dialog.showModal(); return; }
    if (el.dataset.msg) { hideError(); send(JSON.parse(el.dataset.msg), true); return; }
    act(JSON.parse(el.dataset.action));
  });
  // a map zone (or anything else that is not a button) carrying an action: Enter and Space
  // take it, as a click does (buttons do this by themselves)
  board.addEventListener("keydown", function (ev) {
    if (ev.key !== "Enter" && ev.key !== " ") return;
    const el = ev.target.closest("[data-action]");
    if (!el || el.tagName === "BUTTON") return;
    ev.preventDefault();
    if (pending !== null) return;
    act(JSON.parse(el.dataset.action));
  });
  board.addEventListener("submit", function (ev) {
    // the action bar's lists: a place (the map's, for the keyboard) or one of many options (a phone)
    const list = ev.target.closest("form.place-list, form.opt-list");
    if (list) {
      ev.preventDefault();
      const sel = list.querySelector("select"), chosen = sel && sel.selectedOptions[0];
      // a place's option carries its action; one of many options names its button (data-for)
      const o = !chosen ? null : chosen.dataset.action ? chosen : document.getElementById(chosen.dataset.for || "");
      if (!o || !o.dataset.action || pending !== null) { if (sel) sel.focus(); return; }
      act(JSON.parse(o.dataset.action));
      return;
    }
    const form = ev.target.closest("form.range-form");
    if (!form) return;
    ev.preventDefault();
    if (pending !== null) return;
    const action = JSON.parse(form.dataset.template);
    const v = form.querySelector("input[name=value]").value;
    action[form.dataset.field] = /^-?\d+$/.test(v) ? parseInt(v, 10) : v;
    act(action);
  });
  if (dialog) {   // "Leave" asks first: a real dialog, its buttons wired here (no inline handlers)
    document.getElementById("leave-no").addEventListener("click", function () { dialog.close(); });
    document.getElementById("leave-yes").addEventListener("click", function () {
      dialog.close();
      hideError();
      send({type: "leave"}, true);
    });
  }
  // ---- a board you click (issue 14): every place a decision names is a button on the map
  // (static/board.js applies #map-choices: data-place, data-options = the ids of its options'
  // buttons in the decision list). One option: clicking takes it. Several (a colony to load 1 or 2 Chests from, a colony
  // to staff from two sites): a small menu under the map lists them, copies of those buttons.
  function placeMenu() { return document.getElementById("place-menu"); }
  function hidePlaceMenu() {
    const menu = placeMenu();
    if (menu) { menu.hidden = true; menu.textContent = ""; }
    board.querySelectorAll("#map .picked").forEach(function (e) { e.classList.remove("picked"); });
  }
  function choosePlace(el) {
    if (pending !== null) return;
    const opts = (el.dataset.options || "").split(" ").map(function (id) { return document.getElementById(id); })
      .filter(function (b) { return b && b.dataset.action; })
      .map(function (b) { return {action: b.dataset.action, label: b.textContent}; });
    if (!opts.length) return;
    if (opts.length === 1) { hidePlaceMenu(); act(JSON.parse(opts[0].action)); return; }
    const menu = placeMenu();
    if (!menu) return;
    hidePlaceMenu();
    el.classList.add("picked");
    const head = document.createElement("p");
    head.className = "place-menu-title";
    head.textContent = P.text.place_menu_title.replace("{place}", el.getAttribute("aria-label") || "");
    menu.appendChild(head);
    opts.forEach(function (o) {
      const b = document.createElement("button");
      b.className = "act";
      b.dataset.action = o.action;
      b.textContent = o.label;
      menu.appendChild(b);
    });
    const close = document.createElement("button");
    close.className = "place-menu-close";
    close.textContent = P.text.place_menu_close;
    close.addEventListener("click", function (ev) { ev.stopPropagation(); hidePlaceMenu(); el.focus(); });
    menu.appendChild(close);
    menu.hidden = false;
    menu.querySelector("button.act").focus();
  }
  board.addEventListener("click", function (ev) {
    if (!ev.target.closest) return;
    // a click anywhere in a zone that is itself the place to choose (a card naming a land zone)
    // chooses it, even on a colony or site drawn in it that is not a choice of its own
    const group = ev.target.closest("svg.map .zone-group");
    const el = ev.target.closest("[data-place]") || (group && group.querySelector(".zone[data-place]"));
    if (!el) return;
    ev.preventDefault();
    choosePlace(el);
  });
  board.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape") { if (placeMenu() && !placeMenu().hidden) hidePlaceMenu(); return; }
    if (ev.key !== "Enter" && ev.key !== " ") return;
    const el = ev.target.closest && ev.target.closest("[data-place]");
    if (!el) return;
    ev.preventDefault();
    choosePlace(el);
  });
  // on a phone the map pans inside its panel: when the places to choose change, bring the
  // first of them into view (never on other updates, so a player's own panning is kept)
  let shownPlaces = "";
  function revealPlaces() {
    const scroller = board.querySelector(".map-scroll");
    const first = board.querySelector("svg.map [data-place]");
    const keys = Array.prototype.map.call(board.querySelectorAll("svg.map [data-place]"),
                                          function (e) { return e.dataset.place; }).join(" ");
    if (keys === shownPlaces) return;
    shownPlaces = keys;
    if (!scroller || !first || scroller.scrollWidth <= scroller.clientWidth + 1) return;
    const box = scroller.getBoundingClientRect(), r = first.getBoundingClientRect();
    if (r.left >= box.left && r.right <= box.right && r.top >= box.top && r.bottom <= box.bottom) return;
    scroller.scrollLeft += (r.left + r.width / 2) - (box.left + box.width / 2);
    scroller.scrollTop += (r.top + r.height / 2) - (box.top + box.height / 2);
  }
  if (window.MutationObserver) new MutationObserver(revealPlaces).observe(board, {childList: true, subtree: true});
  revealPlaces();

  markTurn();
  if (T) T.open(receive, function (on) { connEl.textContent = on ? P.text.connected : P.text.disconnected;
                                         connEl.className = "conn " + (on ? "on" : "off"); });
  else connect();
})();
