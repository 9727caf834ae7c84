// Pax Hispanica game page: one WebSocket; the server sends this seat's board
// as HTML (rendered from this seat's view only); we send actions as JSON.
(function () {
  "use strict";
  // the page's settings: a JSON data block, not inline script (the CSP allows none)
  const P = JSON.parse(document.getElementById("paxh-config").textContent);
  const board = document.getElementById("board");
  const connEl = document.getElementById("conn");
  const errEl = document.getElementById("error");
  let ws = null, version = P.version, nextId = 1, backoff = 250;
  const title = document.title;
  function markTurn() {  // a tab in the background shows when a decision waits
    document.title = (board.querySelector("#decision, #pass-device") ? "▶ " : "") + title;
  }

  function url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return proto + "//" + location.host + "/ws/" + encodeURIComponent(P.token) + "?lang=" + encodeURIComponent(P.lang);
  }
  function showError(e) {
    errEl.textContent = P.text.error + ": " + e.message + (e.rule ? " (" + e.rule + ")" : "") + " [" + e.code + "]";
    errEl.hidden = false;
  }
  function send(msg) {
    if (!ws || ws.readyState !== 1) { showError({code: "offline", message: P.text.disconnected}); return; }
    msg.id = nextId++;
    ws.send(JSON.stringify(msg));
  }
  function act(action) { errEl.hidden = true; send({type: "act", version: version, action: action}); }

  function connect() {
    ws = new WebSocket(url());
    ws.onopen = function () { backoff = 250; connEl.textContent = P.text.connected; connEl.className = "conn on"; };
    ws.onclose = function () {
      connEl.textContent = P.text.disconnected; connEl.className = "conn off";
      setTimeout(connect, backoff); backoff = Math.min(backoff * 2, 4000);
    };
    ws.onmessage = function (ev) {
      const msg = JSON.parse(ev.data);
      if (msg.type === "update") {
        version = msg.version;
        const open = Array.from(board.querySelectorAll("details[open]")).map(d => d.querySelector("summary").textContent);
        board.innerHTML = msg.html;
        board.dataset.version = msg.version;
        board.querySelectorAll("details").forEach(d => { if (open.includes(d.querySelector("summary").textContent)) d.open = true; });
        markTurn();
      } else if (msg.type === "error") {
        showError(msg);
        if (msg.code === "stale_version") send({type: "refresh"});
      } else if (msg.type === "ack") {
        errEl.hidden = true;
      }
    };
  }

  board.addEventListener("click", function (ev) {
    const el = ev.target.closest("[data-action], [data-msg]");
    if (!el) return;
    ev.preventDefault();
    if (el.dataset.msg) { send(JSON.parse(el.dataset.msg)); return; }
    act(JSON.parse(el.dataset.action));
  });
  board.addEventListener("submit", function (ev) {
    const form = ev.target.closest("form.range-form");
    if (!form) return;
    ev.preventDefault();
    const action = JSON.parse(form.dataset.template);
    const v = form.querySelector("input[name=value]").value;
    action[form.dataset.field] = /^-?\d+$/.test(v) ? parseInt(v, 10) : v;
    act(action);
  });
  markTurn();
  connect();
})();
