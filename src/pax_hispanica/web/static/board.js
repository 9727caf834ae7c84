// The board's "what happened" and map handling, shared by the game and replay pages (issue 14):
// - marks the others' last moves on the board from the hidden #recent element (happened.py);
// - a banner when the year changes or a decision becomes this player's;
// - log entries' place names (button.spot) and card names point at the board on hover, focus
//   and click;
// - map zoom and pan: +/- buttons, the wheel, pinch with two fingers, drag when zoomed (the
//   SVG's viewBox; no library).
// The game page's app.js calls PaxBoard.afterUpdate() after each update it morphs in.
(function () {
  "use strict";

  // --- the others' last moves -------------------------------------------------------------
  const MARKS = ["recent", "recent-sacked", "recent-chests", "recent-changed", "recent-loaded"];
  function list(el, name) { return (el.dataset[name] || "").split(" ").filter(Boolean); }
  function markRecent() {
    document.querySelectorAll("." + MARKS.join(", .")).forEach(function (el) {
      el.classList.remove.apply(el.classList, MARKS);
    });
    const r = document.getElementById("recent");
    if (!r) return;
    list(r, "fleets").forEach(function (s) {
      document.querySelectorAll('#map g.fleet[data-seat="' + CSS.escape(s) + '"]').forEach(function (el) { el.classList.add("recent"); });
    });
    list(r, "zones").forEach(function (z) {
      const el = document.getElementById("zone-" + z);
      if (el) el.classList.add("recent");
    });
    list(r, "colonies").forEach(function (c) {
      const i = c.lastIndexOf(":");
      const el = document.querySelector('#map g.colony[data-colony="' + CSS.escape(c.slice(0, i)) + '"]');
      if (el) el.classList.add("recent", "recent-" + c.slice(i + 1));
    });
    list(r, "players").forEach(function (s) {
      const el = document.getElementById("player-" + s);
      if (el) el.classList.add("recent");
    });
    list(r, "cards").forEach(function (k) {
      document.querySelectorAll('#part-side .card-ref[aria-describedby="' + CSS.escape(k) + '"]').forEach(function (el) {
        el.classList.add("recent");
      });
    });
  }

  // --- banners: a new year, or a decision that is now this player's -----------------------
  let lastYear = null, lastMine = null, bannerTimer = null;
  function banner(text) {
    let b = document.getElementById("banner");
    if (!b) {
      b = document.createElement("div");
      b.id = "banner"; b.className = "banner"; b.setAttribute("role", "status");
      document.body.appendChild(b);
    }
    b.textContent = text;
    b.hidden = false;
    // over the map, below the status line (issue 38: it used to cover the line it repeats)
    const m = document.querySelector(".map-scroll"), who = document.getElementById("part-status");
    const mr = m ? m.getBoundingClientRect() : null, wr = who ? who.getBoundingClientRect() : null;
    let top = Math.max(mr ? mr.top : 0, wr ? wr.bottom : 0, 0) + 10;
    if (top > window.innerHeight - 80) top = 10;
    b.style.top = top + "px";
    b.style.left = (mr && mr.width ? mr.left + mr.width / 2 : window.innerWidth / 2) + "px";
    b.classList.remove("show"); void b.offsetWidth; b.classList.add("show");
    if (bannerTimer) clearTimeout(bannerTimer);
    bannerTimer = setTimeout(function () { b.hidden = true; b.classList.remove("show"); }, 2600);
  }
  function banners() {
    const who = document.querySelector("#part-status .who");
    if (!who) return;
    const year = who.dataset.year || "", mine = who.dataset.mine || "";
    if (lastYear !== null && year && year !== lastYear) {
      const title = document.querySelector('#happened li[data-year="' + CSS.escape(year) + '"] strong');
      const yearEl = document.getElementById("year");
      banner(title ? title.textContent : (yearEl ? yearEl.textContent : year));
    } else if (lastMine !== null && mine && !lastMine) {
      const must = document.getElementById("must");
      if (must) banner(must.textContent);
    }
    lastYear = year; lastMine = mine;
  }

  // --- log entries point at the board --------------------------------------------------------
  function spotTargets(id) {
    const out = [];
    const z = document.getElementById("zone-" + id);
    if (z) out.push(z);
    document.querySelectorAll('#map [data-colony="' + CSS.escape(id) + '"], #map [data-site="' + CSS.escape(id) + '"]')
      .forEach(function (el) { out.push(el); });
    return out;
  }
  function cardTargets(ref) {
    const key = ref.getAttribute("aria-describedby");
    if (!key) return [];
    return Array.prototype.filter.call(
      document.querySelectorAll('#part-side .card-ref[aria-describedby="' + CSS.escape(key) + '"], #board-replay .side .card-ref[aria-describedby="' + CSS.escape(key) + '"]'),
      function (el) { return el !== ref; });
  }
  let spotted = [];
  function unspot() { spotted.forEach(function (el) { el.classList.remove("spot"); }); spotted = []; }
  function spot(ev, scroll) {
    const t = ev.target && ev.target.closest ? ev.target.closest("ol.log button.spot, ol.log .card-ref") : null;
    if (!t) return;
    unspot();
    spotted = t.classList.contains("spot") ? spotTargets(t.dataset.spot) : cardTargets(t);
    spotted.forEach(function (el) { el.classList.add("spot"); });
    if (scroll && spotted.length) {
      const el = spotted[0];
      (el.closest(".map-panel") || el).scrollIntoView({block: "nearest", behavior: "smooth"});
    }
  }
  document.addEventListener("mouseover", function (ev) { spot(ev, false); });
  document.addEventListener("focusin", function (ev) { spot(ev, false); });
  document.addEventListener("mouseout", function (ev) {
    const t = ev.target && ev.target.closest ? ev.target.closest("ol.log button.spot") : null;
    if (t && !t.contains(ev.relatedTarget) && document.activeElement !== t) unspot();
  });
  document.addEventListener("click", function (ev) {
    if (ev.target && ev.target.closest && ev.target.closest("ol.log button.spot")) spot(ev, true);
  });

  // --- map zoom and pan --------------------------------------------------------------------
  let vb = null;          // the zoomed viewBox [x, y, w, h], or null for the whole map
  function mapSvg() { return document.getElementById("map"); }
  function base(svg) {
    const b = (svg.dataset.base || svg.getAttribute("viewBox") || "0 0 1000 660").split(/[\s,]+/).map(Number);
    if (!svg.dataset.base) svg.dataset.base = b.join(" ");
    return b;
  }
  function applyZoom() {
    const svg = mapSvg();
    if (!svg) return;
    const b = base(svg);
    if (vb === null) {
      svg.setAttribute("viewBox", b.join(" "));
      svg.classList.remove("zoomed");
    } else {
      svg.setAttribute("viewBox", vb.map(function (v) { return v.toFixed(1); }).join(" "));
      svg.classList.add("zoomed");
    }
    const out = document.querySelector(".zoom-out"), reset = document.querySelector(".zoom-reset");
    // at the whole map there is nothing to zoom out of (a class, not aria-disabled: the buttons stay usable)
    if (out) out.classList.toggle("at-limit", vb === null);
    if (reset) reset.classList.toggle("at-limit", vb === null);
  }
  function svgPoint(svg, clientX, clientY) {
    const r = svg.getBoundingClientRect(), cur = vb || base(svg);
    return [cur[0] + (clientX - r.left) / r.width * cur[2], cur[1] + (clientY - r.top) / r.height * cur[3]];
  }
  // zoom by `factor` (>1: closer) around the map point (cx, cy); false when it cannot go further
  function zoomAt(factor, cx, cy) {
    const svg = mapSvg();
    if (!svg) return false;
    const b = base(svg), cur = vb || b;
    const w = Math.max(b[2] / 6, Math.min(b[2], cur[2] / factor));
    if (Math.abs(w - cur[2]) < 0.01) return false;
    const h = w * b[3] / b[2], k = w / cur[2];
    let x = cx - (cx - cur[0]) * k, y = cy - (cy - cur[1]) * k;
    x = Math.max(b[0], Math.min(b[0] + b[2] - w, x));
    y = Math.max(b[1], Math.min(b[1] + b[3] - h, y));
    vb = w >= b[2] - 0.01 ? null : [x, y, w, h];
    applyZoom();
    return true;
  }
  function panBy(dx, dy) {        // in map units
    const svg = mapSvg();
    if (!svg || vb === null) return;
    const b = base(svg);
    vb[0] = Math.max(b[0], Math.min(b[0] + b[2] - vb[2], vb[0] + dx));
    vb[1] = Math.max(b[1], Math.min(b[1] + b[3] - vb[3], vb[1] + dy));
    applyZoom();
  }
  // where + and - zoom around: the middle of what is in view (on a phone the map pans inside its
  // panel, and the middle of the whole map may be out of sight), else the middle of the map
  function centre() {
    const svg = mapSvg(), scroller = svg && svg.closest(".map-scroll");
    if (scroller && (scroller.scrollWidth > scroller.clientWidth + 1 || scroller.scrollHeight > scroller.clientHeight + 1)) {
      const r = scroller.getBoundingClientRect(), s = svg.getBoundingClientRect();
      const x = (Math.max(r.left, s.left) + Math.min(r.right, s.right)) / 2;
      const y = (Math.max(r.top, s.top) + Math.min(r.bottom, s.bottom)) / 2;
      return svgPoint(svg, x, y);
    }
    const c = vb || base(svg);
    return [c[0] + c[2] / 2, c[1] + c[3] / 2];
  }
  document.addEventListener("click", function (ev) {
    const btn = ev.target && ev.target.closest ? ev.target.closest(".zoom button") : null;
    if (!btn || !mapSvg()) return;
    ev.preventDefault();
    const c = centre();
    if (btn.classList.contains("zoom-in")) zoomAt(1.5, c[0], c[1]);
    else if (btn.classList.contains("zoom-out")) zoomAt(1 / 1.5, c[0], c[1]);
    else { vb = null; applyZoom(); }
  });
  document.addEventListener("wheel", function (ev) {
    const svg = ev.target && ev.target.closest ? ev.target.closest("svg.map") : null;
    if (!svg) return;
    const p = svgPoint(svg, ev.clientX, ev.clientY);
    // zooming out of the whole map lets the page scroll on
    if (zoomAt(ev.deltaY < 0 ? 1.2 : 1 / 1.2, p[0], p[1])) ev.preventDefault();
  }, {passive: false});
  // two fingers pinch (touch events, so that the page does not scroll meanwhile); a mouse or
  // one finger drags the zoomed map (a click without moving still clicks)
  let pinch = null, drag = null;
  function touchDist(t) { return Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY) || 1; }
  document.addEventListener("touchstart", function (ev) {
    const svg = ev.target && ev.target.closest ? ev.target.closest("svg.map") : null;
    if (svg && ev.touches.length === 2) { pinch = {d: touchDist(ev.touches)}; drag = null; }
  }, {passive: true});
  document.addEventListener("touchmove", function (ev) {
    const svg = mapSvg();
    if (!pinch || ev.touches.length !== 2 || !svg) return;
    ev.preventDefault();
    const d = touchDist(ev.touches);
    const mid = svgPoint(svg, (ev.touches[0].clientX + ev.touches[1].clientX) / 2,
                         (ev.touches[0].clientY + ev.touches[1].clientY) / 2);
    zoomAt(d / pinch.d, mid[0], mid[1]);
    pinch.d = d;
  }, {passive: false});
  document.addEventListener("touchend", function (ev) { if (ev.touches.length < 2) pinch = null; });
  document.addEventListener("touchcancel", function () { pinch = null; });
  document.addEventListener("pointerdown", function (ev) {
    const svg = ev.target && ev.target.closest ? ev.target.closest("svg.map") : null;
    if (svg && vb !== null && ev.isPrimary) drag = {x: ev.clientX, y: ev.clientY, px: ev.clientX, py: ev.clientY, moved: false};
  });
  document.addEventListener("pointermove", function (ev) {
    const svg = mapSvg();
    if (!drag || pinch || !svg || vb === null || !ev.isPrimary) return;
    const r = svg.getBoundingClientRect();
    const dx = ev.clientX - drag.px, dy = ev.clientY - drag.py;
    drag.px = ev.clientX; drag.py = ev.clientY;
    if (Math.abs(ev.clientX - drag.x) + Math.abs(ev.clientY - drag.y) > 4) drag.moved = true;
    if (drag.moved) panBy(-dx / r.width * vb[2], -dy / r.height * vb[3]);
  });
  function up() {
    if (drag && drag.moved) {     // a drag is not a click on the zone it ends on
      const stop = function (e) { e.stopPropagation(); e.preventDefault(); };
      document.addEventListener("click", stop, {capture: true, once: true});
      setTimeout(function () { document.removeEventListener("click", stop, {capture: true}); }, 0);
    }
    drag = null;
  }
  document.addEventListener("pointerup", up);
  document.addEventListener("pointercancel", function () { drag = null; });
  // keyboard: + and - on the focused map panel
  document.addEventListener("keydown", function (ev) {
    const panel = ev.target && ev.target.closest ? ev.target.closest(".map-scroll") : null;
    if (!panel || ev.target !== panel) return;
    const c = centre();
    if (ev.key === "+" || ev.key === "=") { zoomAt(1.5, c[0], c[1]); ev.preventDefault(); }
    else if (ev.key === "-") { zoomAt(1 / 1.5, c[0], c[1]); ev.preventDefault(); }
  });

  // --- the places to choose (issue 14, "A board you click") ------------------------------------
  // The map's markup never carries the choices: #map-choices (svgmap.Places.choices) lists each
  // place to choose ({k: key, o: the ids of its options' buttons in the decision list, l: its
  // name, "name: the option's words" when it has one, b: the box a colony or site is highlighted
  // on}) and the places with why-not lines for their tooltip ({k, w}). They are applied to the map on the page after every update, so a
  // decision that starts or ends resends that list and not the zones it touches.
  const CHOICE_ATTRS = ["data-place", "data-options", "tabindex", "role", "aria-label", "aria-disabled", "data-why"];
  const SVGNS = "http://www.w3.org/2000/svg";
  const WORDS = (function () {
    const el = document.getElementById("paxh-board-words");
    try { return el ? JSON.parse(el.textContent) : {}; } catch (e) { return {}; }
  })();
  function placeEl(map, key) {
    if (key.indexOf("rebels@") === 0) return map.querySelector('[data-rebels="' + CSS.escape(key.slice(7)) + '"]');
    const zone = document.getElementById("zone-" + key);
    if (zone && map.contains(zone)) return zone.querySelector(".zone");
    return map.querySelector('[data-colony="' + CSS.escape(key) + '"], [data-site="' + CSS.escape(key) + '"]');
  }
  function readChoices() {
    const src = document.getElementById("map-choices");
    if (!src) return [];
    try { return JSON.parse(src.textContent || "[]") || []; } catch (e) { return []; }
  }
  // a card with targets is picked first (issue 38): its button (button.pick, or the phone's
  // select.pick-select when there are many), then its place; the map and the place list offer
  // only the picked card's places. The pick is this page's, kept across updates while the card
  // is still offered.
  let picked = null;
  function pickButtons() { return Array.prototype.slice.call(document.querySelectorAll("#decision button.pick")); }
  // the card a place option plays (its action's), when that card is one to pick first
  function cardOf(o) {
    if (!o || !o.dataset.action || !document.querySelector("#decision button.pick")) return null;
    let a = null;
    try { a = JSON.parse(o.dataset.action); } catch (e) { return null; }
    return a && a.type === "play" && a.target && a.card ? a.card : null;
  }
  function applyPick() {
    const picks = pickButtons();
    const cards = picks.map(function (b) { return b.dataset.card; });
    if (picks.length === 1) picked = cards[0];
    else if (picked !== null && cards.indexOf(picked) < 0) picked = null;
    picks.forEach(function (b) { b.setAttribute("aria-pressed", b.dataset.card === picked ? "true" : "false"); });
    document.querySelectorAll("#decision select.pick-select").forEach(function (s) { s.value = picked || ""; });
    document.querySelectorAll("#decision select.place-select option[data-action]").forEach(function (o) {
      const card = cardOf(o), off = card !== null && picked !== null && card !== picked;
      o.hidden = off; o.disabled = off;
    });
    document.querySelectorAll("#decision select.place-select").forEach(function (s) {
      const o = s.selectedOptions[0];
      if (o && o.disabled) s.value = "";
    });
    document.querySelectorAll("#part-hand li.card").forEach(function (li) {
      const b = li.querySelector("[data-card]");
      li.classList.toggle("picked", !!b && b.dataset.card === picked);
    });
  }
  // the ids of a place's options this page offers now (a card's place: only the picked card's)
  function offered(ids) {
    const picks = pickButtons().length > 0;
    return ids.filter(function (id) {
      const o = document.getElementById(id);
      if (!o || !o.dataset.action) return false;
      const card = picks ? cardOf(o) : null;
      if (card !== null) return card === picked;
      return true;
    });
  }
  function applyChoices() {
    const map = mapSvg();
    applyPick();
    if (!map) return;
    const list = readChoices(), want = new Map(), why = new Map();
    list.forEach(function (c) {
      const el = placeEl(map, c.k);
      if (!el) return;
      const ids = c.o ? offered(c.o.split(" ")) : [];
      if (ids.length) want.set(el, Object.assign({}, c, {o: ids.join(" ")}));
      else if (c.w && c.w.length) why.set(el, c);
    });
    // what the last list marked and this one does not (a morph may already have put an element
    // back as the server draws it); an element that stays a choice keeps its attributes, so the
    // keyboard focus stays on it
    map.querySelectorAll("[data-place], [data-why]").forEach(function (el) {
      const c = want.get(el);
      if (c && el.getAttribute("data-place") === c.k && el.getAttribute("data-options") === c.o) return;
      if (!c && why.has(el) && el.hasAttribute("data-why")) return;
      CHOICE_ATTRS.forEach(function (a) { el.removeAttribute(a); });
      el.classList.remove("choice", "clickable", "forbidden");
    });
    map.querySelectorAll("rect.hit").forEach(function (r) {
      if (!want.has(r.parentNode) && !why.has(r.parentNode)) r.remove();
    });
    map.querySelectorAll(".has-choice").forEach(function (g) { g.classList.remove("has-choice"); });
    map.querySelectorAll("[data-title0]").forEach(function (el) {
      const t = el.querySelector(":scope > title");
      if (t) t.textContent = el.dataset.title0;
      delete el.dataset.title0;
    });
    list.forEach(function (c) {
      if (!c.w || !c.w.length) return;
      const el = placeEl(map, c.k), t = el && el.querySelector(":scope > title");
      if (!t) return;
      el.dataset.title0 = t.textContent;
      t.textContent = [t.textContent].concat(c.w).join("\n");
    });
    want.forEach(function (c, el) {
      el.setAttribute("data-place", c.k);
      el.setAttribute("data-options", c.o);
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      const ids = c.o.split(" "), only = ids.length === 1 ? document.getElementById(ids[0]) : null;
      el.setAttribute("aria-label", (c.l || c.k) + (only ? ": " + only.textContent : ""));
      if (el.classList.contains("zone")) {
        el.classList.add("clickable");
      } else {
        el.classList.add("choice");
        hitBox(el, c.b);      // the highlighted box
      }
      const g = el.closest(".zone-group");
      if (g) g.classList.add("has-choice");
    });
    // a place the rules forbid now says why on hover, focus and tap (placeTip), and is reached by
    // the keyboard like the others; it takes no action
    why.forEach(function (c, el) {
      if (want.has(el)) return;
      const name = c.l || nameOf(el) || c.k;
      el.setAttribute("data-why", c.k);
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      el.setAttribute("aria-disabled", "true");
      el.setAttribute("aria-label", name + ". " + (WORDS.forbidden || "") + " " + c.w.join(" "));
      el.classList.add("forbidden");
      if (!el.classList.contains("zone")) hitBox(el, c.b);   // a site drawn in words only: a box to tap

    });
  }
  // a box under a colony's or site's drawing that takes the pointer (the map's words take none)
  function hitBox(el, b) {
    if (!b || el.querySelector(":scope > rect.hit")) return;
    const r = document.createElementNS(SVGNS, "rect");
    r.setAttribute("class", "hit");
    r.setAttribute("x", b[0]); r.setAttribute("y", b[1]);
    r.setAttribute("width", b[2]); r.setAttribute("height", b[3]); r.setAttribute("rx", "3");
    const t = el.querySelector(":scope > title");
    el.insertBefore(r, t ? t.nextSibling : el.firstChild);
  }
  function nameOf(el) {
    const t = el && el.querySelector(":scope > title");
    return t ? (el.dataset.title0 || t.textContent).split("\n")[0] : "";
  }
  function choiceOf(el) {
    const key = el.getAttribute("data-place") || el.getAttribute("data-why");
    return readChoices().find(function (c) { return c.k === key; }) || null;
  }

  // --- a place's tip: its name, what choosing it does, and why not (hover, focus, tap) ----------
  let tipFor = null;
  function placeTip(el) {
    let tip = document.getElementById("place-tip");
    if (!el) { if (tip) tip.hidden = true; tipFor = null; return; }
    const c = choiceOf(el);
    const opts = (el.getAttribute("data-options") || "").split(" ").filter(Boolean)
      .map(function (id) { const o = document.getElementById(id); return o ? o.textContent.trim() : ""; }).filter(Boolean);
    const why = c && c.w ? c.w : [];
    if (!opts.length && !why.length) { placeTip(null); return; }
    if (!tip) {
      tip = document.createElement("div");
      tip.id = "place-tip"; tip.setAttribute("role", "tooltip");
      document.body.appendChild(tip);
    }
    tip.textContent = "";
    const head = document.createElement("span");
    head.className = "tip-head"; head.textContent = (c && c.l) || nameOf(el);
    tip.appendChild(head);
    opts.forEach(function (t) { const s = document.createElement("span"); s.className = "tip-line"; s.textContent = "▸ " + t; tip.appendChild(s); });
    if (why.length && !opts.length && WORDS.forbidden) {
      const s = document.createElement("span"); s.className = "tip-line"; s.textContent = WORDS.forbidden; tip.appendChild(s);
    }
    why.forEach(function (t) { const s = document.createElement("span"); s.className = "tip-line"; s.textContent = "⊘ " + t; tip.appendChild(s); });
    tip.classList.toggle("forbidden", !opts.length);
    tip.hidden = false;
    tipFor = el;
    const r = el.getBoundingClientRect(), w = tip.offsetWidth, h = tip.offsetHeight;
    let left = Math.max(6, Math.min(r.left + r.width / 2 - w / 2, window.innerWidth - w - 6));
    let top = r.bottom + 6;
    if (top + h > window.innerHeight - 6) top = Math.max(6, r.top - h - 6);
    tip.style.left = left + "px"; tip.style.top = top + "px";
  }
  function placeAt(target) {
    return target && target.closest ? target.closest("svg.map [data-place], svg.map [data-why]") : null;
  }
  document.addEventListener("mouseover", function (ev) {
    const el = placeAt(ev.target);
    if (el && el !== tipFor) placeTip(el);
    else if (!el && tipFor && document.activeElement !== tipFor) placeTip(null);
  });
  document.addEventListener("focusin", function (ev) {
    // the keyboard's focus (not the one the page moves to the next decision after a click)
    const el = placeAt(ev.target);
    if (el && el.matches(":focus-visible")) placeTip(el); else if (tipFor && tipFor !== el) placeTip(null);
  });
  document.addEventListener("click", function (ev) {    // a tap on a forbidden place: why not
    const el = ev.target && ev.target.closest ? ev.target.closest("svg.map [data-why]") : null;
    if (el && !(ev.target.closest("[data-place]"))) placeTip(el);
  });
  document.addEventListener("keydown", function (ev) { if (ev.key === "Escape") placeTip(null); });
  window.addEventListener("scroll", function () { if (tipFor) placeTip(null); }, {passive: true});

  // --- arrow keys move between the map's places (the nearest one that way) ------------------
  document.addEventListener("keydown", function (ev) {
    const dirs = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]};
    const d = dirs[ev.key], from = placeAt(ev.target);
    if (!d || !from || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const centre = function (el) { const r = el.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
    const a = centre(from);
    // the nearest place within 45 degrees of the arrow's way; only when there is none, the
    // nearest anywhere that way (else a place beside the way, but nearer, would always win, and
    // two places could send the focus to and fro between them)
    let best = null, score = Infinity;
    document.querySelectorAll("svg.map [data-place], svg.map [data-why]").forEach(function (el) {
      if (el === from) return;
      const b = centre(el), dx = b[0] - a[0], dy = b[1] - a[1];
      const along = dx * d[0] + dy * d[1], across = Math.abs(dx * d[1] - dy * d[0]);
      if (along <= 1) return;
      const s = along + 2 * across + (across > along ? 1e6 : 0);
      if (s < score) { score = s; best = el; }
    });
    ev.preventDefault();
    if (best) best.focus();
  });

  // --- picking a card, and the log's "all / mine" ---------------------------------------------
  document.addEventListener("click", function (ev) {
    const b = ev.target && ev.target.closest ? ev.target.closest("#decision button.pick") : null;
    if (b) {
      picked = picked === b.dataset.card && pickButtons().length > 1 ? null : b.dataset.card;
      applyChoices();
      const first = document.querySelector("svg.map [data-place]");
      if (first && picked) first.focus({preventScroll: window.innerWidth <= 600});
      return;
    }
    const show = ev.target && ev.target.closest ? ev.target.closest(".log-show") : null;
    if (show) { logMine = show.dataset.show === "mine"; applyLogFilter(); }
  });
  document.addEventListener("change", function (ev) {
    if (ev.target && ev.target.matches && ev.target.matches("#decision select.pick-select")) {
      picked = ev.target.value || null;
      applyChoices();
    }
  });
  let logMine = false;
  function applyLogFilter() {
    const board = document.getElementById("board"), log = document.getElementById("log");
    if (!board || !log) return;
    // a line is mine when the event names my seat (its data-s, present/log.py), never by my name
    // in its words: another player's name may hold mine ("Ana" in "Anabel")
    const game = document.getElementById("game");
    const seat = game ? game.dataset.seat || "" : "";
    board.classList.toggle("log-mine", logMine && seat !== "");
    if (seat !== "") log.querySelectorAll(":scope > li").forEach(function (li) { li.classList.toggle("mine", (li.dataset.s || "").indexOf(seat) >= 0); });
    document.querySelectorAll(".log-show").forEach(function (b) {
      b.setAttribute("aria-pressed", (b.dataset.show === "mine") === logMine ? "true" : "false");
    });
  }

  // --- the phone's docked action bar: the page keeps room for it below, and the map above it ----
  function barHeight() {
    const bar = document.getElementById("part-top");
    if (!bar) return;
    const h = getComputedStyle(bar).position === "fixed" ? bar.offsetHeight : 0;
    const root = document.documentElement.style;
    root.setProperty("--bar-h", (h + 8) + "px");
    // the map ends at the bar's top edge (at the top of the page, where a player starts) and its
    // legend starts right under the bar: hidden whole behind it, never a line of it peeking above
    // the bar; scrolling down shows it whole (the page keeps --bar-h of room below)
    const ms = document.querySelector("#part-map .map-scroll");
    if (!ms || !h) return;
    const legend = document.querySelector("#part-map .legend");
    const gap = legend ? legend.getBoundingClientRect().top - ms.getBoundingClientRect().bottom : 0;
    const top = ms.getBoundingClientRect().top + window.scrollY;
    const barTop = window.innerHeight - bar.getBoundingClientRect().height;   // offsetHeight is rounded
    root.setProperty("--map-h", Math.max(240, Math.ceil(barTop - top - gap)) + "px");
  }
  if (window.ResizeObserver) {
    // the bar's height, and what stands above the map (the status line, "since your last move"
    // until it is dismissed), move the map's end
    const ro = new ResizeObserver(barHeight);
    ["part-top", "part-status", "part-happened"].forEach(function (id) {
      const el = document.getElementById(id);
      if (el) ro.observe(el);
    });
  }
  window.addEventListener("resize", barHeight);
  // the reasons an option is not offered and the battle previews: open beside the board on a wide
  // screen, closed in a phone's bar. A player who closes one keeps that kind closed (for this
  // decision and the later ones of its name); any other is opened after every update, so a page
  // kept up to date by updates shows what a fresh load of it shows.
  const WHY = "#decision details.unavailable, #decision details.previews-box";
  const closedByPlayer = new Set();
  function whyKey(d) {
    const w = d.closest(".widget");
    return (w ? w.dataset.decision : "") + "|" + d.className;
  }
  document.addEventListener("toggle", function (e) {   // toggle does not bubble: caught going down
    const d = e.target;
    if (d instanceof HTMLDetailsElement && !d.open && d.matches(WHY)) closedByPlayer.add(whyKey(d));
  }, true);
  function openWhyNot() {
    if (window.innerWidth <= 600) return;
    document.querySelectorAll(WHY).forEach(function (d) {
      if (!d.open && !closedByPlayer.has(whyKey(d))) d.open = true;
    });
  }

  function afterUpdate() {
    applyChoices();
    applyLogFilter();
    openWhyNot();
    barHeight();
    if (tipFor && !document.contains(tipFor)) placeTip(null);
    markRecent();
    banners();
    const svg = mapSvg();
    // a morph that touched the map's <svg> put back the server's viewBox (the whole map) and
    // dropped data-base, so base() reads it again; the zoom is then applied again
    if (svg) base(svg);
    applyZoom();
  }
  applyChoices();   // at once (the board is on the page before this script): app.js reads them
  window.PaxBoard = {afterUpdate: afterUpdate, zoomAt: zoomAt, banner: banner, applyChoices: applyChoices,
                     picked: function () { return picked; },
                     zoomed: function () { return vb !== null; }};
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", afterUpdate);
  else afterUpdate();
})();
