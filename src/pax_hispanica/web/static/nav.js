// The header's "Your games" says how many games wait for the player's move (issue 38):
// /account/waiting answers {"count": n}; nothing is shown for none.
(function () {
  "use strict";
  const link = document.getElementById("nav-games"), badge = document.getElementById("nav-waiting");
  if (!link || !badge || !window.fetch) return;
  fetch("/account/waiting", {credentials: "same-origin", headers: {"Accept": "application/json"}})
    .then(function (r) { return r.ok ? r.json() : null; })
    .then(function (data) {
      const n = data && typeof data.count === "number" ? data.count : 0;
      if (n <= 0) return;
      badge.textContent = String(n) + (data.more ? "+" : "");
      badge.hidden = false;
      const label = link.dataset.waitingLabel;
      if (label) link.setAttribute("aria-label", label.replace("{n}", badge.textContent));
    })
    .catch(function () {});
})();
