// The Hint of unrated games (issue 38; web/analysis_jobs/hint.py): the action bar's button
// (#hint, only rendered where the server gives hints) asks POST /api/hint/<the page's link> and
// shows what the strongest bot would play and why, in #hint-answer (a polite live region). The
// action bar is morphed on every update: an answer for the same position is put back, an answer
// for an older one is dropped.
(function () {
  "use strict";
  const cfg = JSON.parse((document.getElementById("paxh-config") || {}).textContent || "{}");
  const words = JSON.parse((document.getElementById("paxh-hint-words") || {}).textContent || "{}");
  let last = null;     // {version, node}: the last answer, for the position it was asked at

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  function answerNode(data) {
    const box = el("div", "", "hint-answer");
    box.appendChild(el("p", words.says || ""));
    const move = el("p");
    move.appendChild(el("strong", data.move || ""));
    box.appendChild(move);
    if (data.how) box.appendChild(el("p", data.how));
    if (data.heuristic) box.appendChild(el("p", data.heuristic));
    if (data.alternatives && data.alternatives.length) {
      box.appendChild(el("p", words.others || ""));
      const ul = el("ul");
      data.alternatives.forEach(function (t) { ul.appendChild(el("li", t)); });
      box.appendChild(ul);
    }
    return box;
  }

  function show(node) {
    const out = document.getElementById("hint-answer");
    if (!out) return;
    out.replaceChildren(node);
  }

  document.addEventListener("click", function (ev) {
    const button = ev.target.closest && ev.target.closest("#hint");
    if (!button || button.disabled) return;
    ev.preventDefault();
    const version = button.dataset.version;
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    show(el("p", words.busy || "…"));
    fetch("/api/hint/" + encodeURIComponent(cfg.token || ""), {method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json"}, body: "{}"})
      .then(function (r) { return r.json().then(function (data) { return {ok: r.ok, data: data}; }); })
      .then(function (res) {
        if (!res.ok) {
          last = {version: version, node: el("p", words.failed || "")};
        } else {
          last = {version: version, node: answerNode(res.data)};
        }
        show(last.node);
      })
      .catch(function () { show(el("p", words.failed || "")); })
      .finally(function () {
        const b = document.getElementById("hint");
        if (b) { b.disabled = false; b.removeAttribute("aria-busy"); }
      });
  });

  // after a morph: the same position keeps its answer, a new one starts without
  new MutationObserver(function () {
    const out = document.getElementById("hint-answer");
    const button = document.getElementById("hint");
    if (!out || !button || !last) return;
    if (button.dataset.version !== last.version) { last = null; return; }
    if (!out.contains(last.node)) out.replaceChildren(last.node);
  }).observe(document.body, {childList: true, subtree: true});
})();
