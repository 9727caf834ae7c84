// Clocks, chat and notifications on the game page (play.py). The socket is app.js's: it calls
// paxhPlay.open(send) when it connects and hands us "clock" and "chat" messages and the
// answers to ours (string ids). Chat text is always put on the page as text (textContent),
// never as HTML. The clocks count down here from the deadlines the server gives; the server
// keeps the time and applies the timeout (PRJ-34).
(function () {
  "use strict";
  const C = JSON.parse(document.getElementById("paxh-play").textContent);
  const T = C.text;
  const $ = function (id) { return document.getElementById(id); };
  let send = null, nextId = 1, offset = 0, clock = null, ticker = null, muted = [];

  function fmt(s) {
    s = Math.max(0, Math.floor(s));
    const d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600), m = Math.floor(s % 3600 / 60), x = s % 60;
    const two = function (n) { return (n < 10 ? "0" : "") + n; };
    if (d) return d + "d " + two(h) + ":" + two(m);
    if (h) return h + ":" + two(m) + ":" + two(x);
    return m + ":" + two(x);
  }
  function now() { return Date.now() / 1000 + offset; }
  // ------------------------------------------------------------ clocks
  function drawClocks() {
    const list = $("clock-list");
    if (!clock || !list) return;
    let running = false;
    clock.seats.forEach(function (c) {
      let li = document.getElementById("clock-" + c.seat);
      if (!li) {
        li = document.createElement("li");
        li.id = "clock-" + c.seat;
        const name = document.createElement("span"); name.className = "clock-name";
        const time = document.createElement("span"); time.className = "clock-time";
        li.append(name, time);
        list.append(li);
      }
      li.querySelector(".clock-name").textContent = (C.names[c.seat] || String(c.seat + 1)) +
        (c.seat === C.seat ? " (" + T.you + ")" : "");
      let left = null, text;
      if (c.deadline !== null) {
        running = true;
        left = c.deadline - now();
        text = left > 0 ? fmt(left) : T.clock_out;
      } else if (clock.pace === "live") {
        text = fmt(c.remaining);
      } else if (clock.pace === "year") {       // PRJ-39: what is left of this Year's time
        text = fmt(c.remaining) + " " + T.clock_left_this_year;
      } else {                                  // turn-based: their move's time starts when they are asked
        text = T.clock_waiting;
      }
      li.querySelector(".clock-time").textContent = text;
      li.dataset.running = c.deadline !== null ? "1" : "0";
      li.classList.toggle("running", c.deadline !== null);
      li.classList.toggle("low", left !== null && left < 10);
      li.classList.toggle("mine", c.seat === C.seat);
    });
    if (running && !ticker) ticker = setInterval(drawClocks, 250);
    if (!running && ticker) { clearInterval(ticker); ticker = null; }
  }
  function onClock(msg) {
    offset = msg.now - Date.now() / 1000;   // the server's clock, not this device's
    clock = msg;
    $("clocks").hidden = false;
    drawClocks();
  }

  // ------------------------------------------------------------ chat
  function chatItem(m) {
    const li = document.createElement("li");
    li.id = "chat-" + m.id;
    li.className = "chat-" + m.kind;
    li.dataset.seat = m.seat === null ? "" : m.seat;
    if (m.author) {
      const b = document.createElement("b"); b.className = "chat-author"; b.textContent = m.author;
      li.append(b, document.createTextNode(" "));
    }
    const text = document.createElement("span"); text.className = "chat-text"; text.textContent = m.text;
    li.append(text);
    if (m.rule) {
      const a = document.createElement("a"); a.href = "/rules?rule=" + encodeURIComponent(m.rule);
      a.className = "rule"; a.textContent = m.rule;
      li.append(document.createTextNode(" "), a);
    }
    if (m.kind === "player" && C.role === "seat" && m.seat !== C.seat) {
      const mute = document.createElement("button");
      mute.type = "button"; mute.className = "chat-small"; mute.textContent = T.chat_mute;
      mute.dataset.mute = m.seat;
      const rep = document.createElement("button");
      rep.type = "button"; rep.className = "chat-small"; rep.textContent = T.chat_report;
      rep.dataset.report = m.id;
      li.append(document.createTextNode(" "), mute, rep);
    }
    return li;
  }
  // ---- the log and the chat: one panel beside the board, two tabs (issue 38). The chat's tab
  // counts the others' messages that came while it was not shown; the tabs are in the board
  // (an update may redraw them), their state is kept here and drawn again after each update.
  let tab = "log", unread = 0;
  const W = (function () {
    const el = $("paxh-board-words");
    try { return el ? JSON.parse(el.textContent) : {}; } catch (e) { return {}; }
  })();
  function drawTabs() {
    const page = $("game-page"), chat = $("chat");
    if (!page) return;
    const chatOn = !!chat && !chat.hidden;
    if (!chatOn) tab = "log";
    page.classList.toggle("tab-chat", tab === "chat");
    document.querySelectorAll(".side-tab").forEach(function (b) {
      if (b.dataset.tab === "chat") b.hidden = !chatOn;
      b.setAttribute("aria-pressed", b.dataset.tab === tab ? "true" : "false");
    });
    const u = $("chat-unread");
    if (u && u.dataset.n !== String(unread)) {
      u.dataset.n = String(unread);
      u.textContent = String(unread);
      const sr = document.createElement("span"); sr.className = "sr-only"; sr.textContent = " " + (W.chat_unread || "");
      u.append(sr);
    }
    if (u) u.hidden = unread === 0;
  }
  document.addEventListener("click", function (ev) {
    const b = ev.target.closest && ev.target.closest(".side-tab");
    if (!b) return;
    tab = b.dataset.tab === "chat" ? "chat" : "log";
    if (tab === "chat") unread = 0;
    drawTabs();
  });
  function addItems(items, counted) {
    const log = $("chat-log");
    if (counted && tab !== "chat") {
      items.forEach(function (m) {
        if (m.kind === "player" && m.seat !== C.seat && !document.getElementById("chat-" + m.id)) unread += 1;
      });
    }
    items.forEach(function (m) { if (!document.getElementById("chat-" + m.id)) log.append(chatItem(m)); });
    $("chat-empty").hidden = log.children.length > 0;
    log.scrollTop = log.scrollHeight;
  }
  function drawMuted() {
    const el = $("chat-muted");
    if (!el) return;
    el.textContent = "";
    el.hidden = muted.length === 0;
    if (!muted.length) return;
    el.append(document.createTextNode(T.chat_muted + " "));
    muted.forEach(function (s) {
      const b = document.createElement("button");
      b.type = "button"; b.className = "chat-small"; b.dataset.unmute = s;
      b.textContent = T.chat_unmute + " " + (C.names[s] || s);
      el.append(b, document.createTextNode(" "));
    });
  }
  function onChat(msg) {
    $("chat").hidden = false;
    if (msg.full) {
      $("chat-log").textContent = "";
      muted = msg.muted || [];
      const note = $("chat-note");
      note.hidden = !(msg.hidden || !msg.enabled);
      note.textContent = msg.hidden ? T.chat_hidden : (!msg.enabled ? T.chat_closed : "");
      const form = $("chat-form");
      if (form) form.hidden = !msg.may_write;
      const end = $("chat-end");
      if (end) end.hidden = !msg.may_end;      // closed already, or the game is over
      drawMuted();
    }
    addItems(msg.items || msg.add || [], !msg.full);
    drawTabs();
  }
  function chatError(e) {
    const el = $("chat-error");
    if (!el) return;
    el.textContent = e.code === "too_long" ? T.chat_too_long : e.code === "rate_limited" ? T.chat_too_fast
      : e.code === "chat_off" ? T.chat_closed : (e.message || e.code);
    el.dataset.code = e.code || "";
    el.hidden = false;
  }
  function message(m) {
    if (!send) return;
    m.id = "p" + nextId++;
    send(m);
  }

  document.addEventListener("click", function (ev) {
    const el = ev.target.closest("[data-mute], [data-unmute], [data-report], #chat-end");
    if (!el) return;
    if (el.id === "chat-end") { message({type: "chat_end"}); return; }
    if (el.dataset.report !== undefined) {
      message({type: "chat_report", message: parseInt(el.dataset.report, 10)});
      el.textContent = T.chat_reported; el.disabled = true;
      return;
    }
    const on = el.dataset.mute !== undefined;
    message({type: "chat_mute", seat: parseInt(on ? el.dataset.mute : el.dataset.unmute, 10), on: on});
  });
  const form = $("chat-form");
  if (form) form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    const input = $("chat-input");
    if (!input.value.trim()) return;
    $("chat-error").hidden = true;
    message({type: "chat", text: input.value});
    input.value = "";
  });
  // "Tell me when it is my move": what is saved (also after a reload), and a refusal's sentence
  const nform = $("notify-form");
  function showSaved(s) {
    const parts = [];
    if (s.email) parts.push(T.notify_email_is.replace("{email}", s.email));
    if (s.webhook) parts.push(T.notify_webhook_is.replace("{webhook}", s.webhook));
    $("notify-now").textContent = parts.length ? T.notify_saved_now.replace("{where}", parts.join(", "))
                                               : T.notify_saved_none;
  }
  function loadSaved() {
    fetch("/api/notify/" + encodeURIComponent(C.token)).then(function (r) { return r.ok ? r.json() : null; })
      .then(function (s) {
        if (!s) return;
        if ($("notify-email") && s.source === "seat") $("notify-email").value = s.email || "";
        if (s.source === "seat") $("notify-webhook").value = s.webhook || "";
        showSaved(s);
      }).catch(function () {});
  }
  if (nform) {
    loadSaved();
    nform.addEventListener("submit", function (ev) {
      ev.preventDefault();
      $("notify-done").hidden = true;
      $("notify-error").hidden = true;
      fetch("/api/notify/" + encodeURIComponent(C.token), {
        method: "POST", headers: {"Content-Type": "application/json"},
        body: JSON.stringify({email: ($("notify-email") && $("notify-email").value) || null,
                              webhook: $("notify-webhook").value || null, lang: C.lang})
      }).then(function (r) {
        if (r.ok) { $("notify-done").hidden = false; loadSaved(); return; }
        return r.json().then(function (body) {
          const e = (body && body.error) || {};
          $("notify-error").textContent = T["err_" + e.code] || (T.notify_failed + (e.message ? " (" + e.message + ")" : ""));
          $("notify-error").hidden = false;
        });
      }).catch(function () { $("notify-error").textContent = T.notify_failed; $("notify-error").hidden = false; });
    });
  }

  window.paxhPlay = {
    afterUpdate: drawTabs,
    open: function (s) { send = s; message({type: "hello"}); },
    receive: function (msg) {
      if (msg.type === "clock") onClock(msg);
      else if (msg.type === "chat") onChat(msg);
      else if (msg.type === "error") chatError(msg);
    }
  };
})();
