// Host page: "hand to a bot" buttons (static file: the CSP allows no inline script).
(function () {
  "use strict";
  const token = document.getElementById("links").dataset.hostToken;
  document.querySelectorAll(".to-bot").forEach(b => b.addEventListener("click", async () => {
    const r = await fetch("/api/seat/" + encodeURIComponent(token) + "/bot", {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({seat: +b.dataset.seat})});
    if (r.ok) location.reload(); else alert((await r.json()).error.message);
  }));
})();
