// A finished game's page hears of a rematch (issue 38): app.js passes the WebSocket's
// {"type": "rematch", "url", "text", "link"} as a "paxh:rematch" event; the banner (a status
// live region) says so with a link to the new table, and the Rematch button becomes that link.
(function () {
  "use strict";
  document.addEventListener("paxh:rematch", function (ev) {
    const msg = ev.detail || {};
    if (typeof msg.url !== "string" || msg.url.indexOf("/tables/") !== 0) return;
    const box = document.getElementById("rematch-live");
    if (box) {
      box.textContent = (msg.text || "") + " ";
      const a = document.createElement("a");
      a.href = msg.url; a.id = "rematch-live-link"; a.textContent = msg.link || msg.url;
      box.appendChild(a);
      box.hidden = false;
    }
    const button = document.getElementById("rematch");
    if (button && button.form) {
      const a = document.createElement("a");
      a.href = msg.url; a.id = "rematch-link"; a.textContent = msg.link || msg.url;
      button.form.replaceWith(a);
    }
  });
})();
