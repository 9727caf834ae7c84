// Learn to play (issue 38): a lesson's board is the game page's own (app.js, board.js), played
// over HTTP instead of a WebSocket. The game lives in the page, not on the server: the lesson's
// scenario (on the server) plus the actions taken so far (here, and in sessionStorage so a
// reload goes on where it was). Each move is posted with those actions; the server replays
// them, applies the move, lets the bots play until the learner must decide or the lesson ends,
// and answers with the board (an "update", as the socket sends), the coach's note and the
// actions now taken. This file must load before app.js, which picks up window.PaxTransport.
(function () {
  "use strict";
  const L = JSON.parse(document.getElementById("paxh-learn").textContent);
  const key = "paxh-learn:" + L.lesson;
  let actions = L.actions, free = L.free, receive = null;

  function save() {
    try { sessionStorage.setItem(key, JSON.stringify({actions: actions, free: free})); } catch (e) { /* private mode */ }
  }
  function saved() {
    try { return JSON.parse(sessionStorage.getItem(key) || "null"); } catch (e) { return null; }
  }
  // the coach's note, morphed in; a new note is brought into view (on a phone the action bar is
  // docked at the bottom, and the note above the map would otherwise change out of sight)
  function coach(html) {
    const el = document.getElementById("learn-coach");
    if (!el || html === undefined) return;
    const before = el.textContent;
    if (window.Idiomorph) Idiomorph.morph(el, html, {morphStyle: "innerHTML", callbacks: {
      // a <details> the learner opened (the setting, the legalities) stays open
      beforeAttributeUpdated: function (name, node, how) { return !(name === "open" && how === "remove" && node.tagName === "DETAILS"); }
    }});
    else el.innerHTML = html;
    const r = el.getBoundingClientRect();
    if (el.textContent !== before && (r.top < 0 || r.top > window.innerHeight * 0.5)) el.scrollIntoView({block: "start"});
  }
  // a finished lesson: its Year's board stays in sight, the next Year's decision is put away
  // (until "Play this game to the end") and the way on takes the focus
  function finished(done) {
    document.body.dataset.lessonDone = done ? "yes" : "";
    if (!done) return;
    setTimeout(function () {
      const next = document.querySelector("#learn-next, #learn-real-game");
      if (next) next.focus({preventScroll: true});
      document.getElementById("learn-coach").scrollIntoView({block: "start"});
    }, 60);
  }
  // one round trip: the actions so far, and the new one (null: only show where we are)
  function post(action, id, playOn) {
    const body = {actions: actions, action: action, free: free || !!playOn, lang: L.lang};
    return fetch(L.url, {method: "POST", headers: {"Content-Type": "application/json"}, credentials: "same-origin",
                         body: JSON.stringify(body)})
      .then(function (r) { return r.json().then(function (data) { return {status: r.status, data: data}; }); })
      .then(function (res) {
        const d = res.data;
        if (res.status !== 200 || d.error) {        // the API's refusal envelope
          const e = d.error || {};
          if (e.code === "lesson_lost") { restart(true); return; }
          receive({type: "error", id: id, code: e.code || "error", message: e.message || "", rule: e.rule || null});
          return;
        }
        actions = d.actions; free = d.free; save();
        coach(d.coach);
        receive(d.update);
        if (id !== null) receive({type: "ack", id: id});
        finished(d.done);
      })
      .catch(function () { receive({type: "error", id: id, code: "offline"}); });
  }
  function restart(lost) {
    try {
      sessionStorage.removeItem(key);
      if (lost) sessionStorage.setItem(key + ":lost", "1");
    } catch (e) { /* private mode */ }
    location.replace(location.pathname + location.search);
  }
  // after a lesson that could not go on (its moves were not this lesson's game): say so once
  try {
    if (sessionStorage.getItem(key + ":lost")) {
      sessionStorage.removeItem(key + ":lost");
      const p = document.createElement("p");
      p.className = "learn-lost"; p.setAttribute("role", "status"); p.textContent = L.lost;
      document.getElementById("learn-coach").prepend(p);
    }
  } catch (e) { /* private mode */ }

  window.PaxTransport = {
    open: function (recv, status) {
      receive = recv;
      status(true);
      finished(L.done);
      // a reload: go on from the actions this tab took (the page itself starts the lesson afresh)
      const s = saved();
      if (s && Array.isArray(s.actions) && s.actions.length) { actions = s.actions; free = !!s.free; post(null, null); }
    },
    send: function (msg) {
      if (msg.type === "act") post(msg.action, msg.id);
      else if (msg.type === "refresh") post(null, null);
      else receive({type: "error", id: msg.id, code: "not_in_lesson"});
    }
  };

  // the coach's own buttons: play on with the real rules, start again
  document.addEventListener("click", function (ev) {
    const b = ev.target.closest && ev.target.closest("#learn-coach [data-learn]");
    if (!b) return;
    ev.preventDefault();
    if (b.dataset.learn === "play-on") { b.disabled = true; free = true; post(null, null, true); }
    else if (b.dataset.learn === "restart") restart();
  });
})();
