// The replay without a page load per step (issue 14): the scrubber (a range input), ← and →, the
// first/previous/next/last links and the jumps to each year fetch the step's part of the page
// (?step=N&fragment=1) and morph it in with idiomorph, as the game page does with its updates;
// the address follows (history.replaceState), so a reload or a shared link opens the same step.
(function () {
  "use strict";
  const root = document.getElementById("replay");
  if (!root) return;
  const total = parseInt(root.dataset.total, 10) || 0;
  let asked = 0, timer = null, target = null;   // target: the step asked for last (shown or on its way)
  function current() {
    if (target !== null) return target;
    const el = document.getElementById("step");
    return el ? parseInt(el.textContent, 10) || 0 : 0;
  }
  function go(step) {
    step = Math.max(0, Math.min(total, step));
    target = step;
    const n = ++asked;
    const seat = new URLSearchParams(location.search).get("seat");   // the point of view (issue 38), kept
    const url = location.pathname + "?step=" + step + (seat ? "&seat=" + encodeURIComponent(seat) : "");
    fetch(url + "&fragment=1", {credentials: "same-origin", headers: {"Accept": "text/html"}})
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
        if (n !== asked) return;      // a later step was asked for meanwhile
        Idiomorph.morph(root, html, {morphStyle: "innerHTML", ignoreActiveValue: true});
        const scrub = document.getElementById("scrub");
        if (scrub && document.activeElement !== scrub) scrub.value = step;
        history.replaceState(null, "", url);
        root.dataset.step = step;
        if (window.PaxBoard) window.PaxBoard.afterUpdate();
      })
      .catch(function () { location.href = url; });   // no fetch: the plain link still works
  }
  root.addEventListener("click", function (ev) {
    const a = ev.target.closest("a[data-step]");
    if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
    ev.preventDefault();
    go(parseInt(a.dataset.step, 10));
  });
  root.addEventListener("input", function (ev) {
    if (ev.target.id !== "scrub") return;
    const v = parseInt(ev.target.value, 10);
    if (timer) clearTimeout(timer);
    timer = setTimeout(function () { go(v); }, 60);
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "ArrowLeft" && ev.key !== "ArrowRight") return;
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const t = ev.target;
    if (t && (t.id === "scrub" || t.matches("input, textarea, select, .map-scroll"))) return;  // the scrubber steps by itself
    ev.preventDefault();
    go(current() + (ev.key === "ArrowRight" ? 1 : -1));
  });
})();
