// Cards you can read: a card button is described (aria-describedby) by its text in the page's
// hidden #card-texts; this shows that text in one floating tip beside the button on hover and
// focus, and keeps it open on a tap or click (aria-expanded) until Escape, a tap elsewhere or
// another card. On a narrow screen the tip is a sheet along the bottom. Delegated, so cards
// morphed in by a live update work too.
(function () {
  var tip = null, owner = null, pinned = false, touched = 0;

  function ensureTip() {
    if (!tip) {
      tip = document.createElement("div");
      tip.id = "card-tip";
      tip.className = "card-tip";
      tip.setAttribute("role", "tooltip");
      tip.hidden = true;
      document.body.appendChild(tip);
    }
    return tip;
  }

  function place(b) {
    var t = ensureTip();
    if (window.innerWidth <= 600) {
      t.classList.add("sheet");
      // the sheet takes the half of the screen away from the card, never the finger's place
      t.classList.toggle("top", b.getBoundingClientRect().top > window.innerHeight / 2);
      t.style.left = ""; t.style.top = "";
      return;
    }
    t.classList.remove("sheet");
    var r = b.getBoundingClientRect();
    var w = t.offsetWidth, h = t.offsetHeight;
    var left = Math.max(8, Math.min(r.left, window.innerWidth - w - 8));
    var top = r.bottom + 4;
    if (top + h > window.innerHeight - 8 && r.top - h - 4 > 8) top = r.top - h - 4;
    t.style.left = (left + window.scrollX) + "px";
    t.style.top = (top + window.scrollY) + "px";
  }

  function show(b, pin) {
    var src = document.getElementById(b.getAttribute("aria-describedby") || "");
    if (!src) return;
    var t = ensureTip();
    if (owner && owner !== b) owner.setAttribute("aria-expanded", "false");
    owner = b; pinned = !!pin;
    t.innerHTML = src.innerHTML;
    t.hidden = false;
    b.setAttribute("aria-expanded", pinned ? "true" : "false");
    b.classList.toggle("open", pinned);
    place(b);
  }

  function hide() {
    if (tip) tip.hidden = true;
    if (owner) { owner.setAttribute("aria-expanded", "false"); owner.classList.remove("open"); }
    owner = null; pinned = false;
  }

  function card(ev) { return ev.target && ev.target.closest ? ev.target.closest(".card-ref") : null; }

  // a touch's emulated mouseover and focus do not open the tip: its click does (a tap)
  function touching() { return Date.now() - touched < 1000; }
  document.addEventListener("touchstart", function () { touched = Date.now(); }, {passive: true, capture: true});
  document.addEventListener("mouseover", function (ev) { var b = card(ev); if (b && !pinned && !touching()) show(b, false); });
  document.addEventListener("mouseout", function (ev) {
    var b = card(ev);
    if (b && b === owner && !pinned && !b.contains(ev.relatedTarget) && document.activeElement !== b) hide();
  });
  document.addEventListener("focusin", function (ev) {
    var b = card(ev);
    if (b && !touching() && (!pinned || owner !== b)) show(b, false);
  });
  document.addEventListener("focusout", function (ev) { var b = card(ev); if (b && b === owner && !pinned) hide(); });
  document.addEventListener("click", function (ev) {
    var b = card(ev);
    if (!b) { if (!(tip && tip.contains(ev.target))) hide(); return; }
    if (pinned && owner === b) hide(); else show(b, true);
  });
  document.addEventListener("keydown", function (ev) { if (ev.key === "Escape") hide(); });
  window.addEventListener("resize", function () { if (owner && tip && !tip.hidden) place(owner); });
})();
