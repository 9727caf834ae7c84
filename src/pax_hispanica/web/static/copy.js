// Copy buttons on links (issue 38): <button data-copy="#id"> copies that element's address
// (an <a>'s full href, else its text) with navigator.clipboard, and says "Copied" in the
// page's one status line (#copy-status, aria-live) and on the button for two seconds.
(function () {
  "use strict";
  const status = document.getElementById("copy-status");
  function say(btn, text) {
    if (status) { status.textContent = ""; status.textContent = text; }
    const was = btn.dataset.label || btn.textContent;
    btn.dataset.label = was;
    btn.textContent = text;
    clearTimeout(btn._copyTimer);
    btn._copyTimer = setTimeout(function () { btn.textContent = btn.dataset.label; }, 2000);
  }
  function fallback(text) {   // no clipboard API (an http:// page on another host): select and copy
    const area = document.createElement("textarea");
    area.value = text; area.setAttribute("readonly", ""); area.style.position = "fixed"; area.style.opacity = "0";
    document.body.appendChild(area); area.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    area.remove();
    return ok;
  }
  document.addEventListener("click", function (ev) {
    const btn = ev.target.closest("button[data-copy]");
    if (!btn) return;
    ev.preventDefault();
    const el = document.querySelector(btn.dataset.copy);
    if (!el) return;
    const text = el.tagName === "A" ? el.href : el.textContent.trim();
    const done = btn.dataset.copied || "Copied", failed = btn.dataset.copyFailed || "";
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { say(btn, done); },
        function () { say(btn, fallback(text) ? done : failed); });
    } else {
      say(btn, fallback(text) ? done : failed);
    }
  });
})();
