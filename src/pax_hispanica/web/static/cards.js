// Cards you can read: a card's text shows on hover and focus (CSS), and on tap or Enter
// (this toggles .open); Escape or a tap elsewhere closes it. Delegated, so cards morphed in
// by a live update work too.
(function () {
  function closeAll(except) {
    document.querySelectorAll(".card-ref.open").forEach(function (b) {
      if (b !== except) { b.classList.remove("open"); b.setAttribute("aria-expanded", "false"); }
    });
  }
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest(".card-ref");
    closeAll(b);
    if (!b) return;
    var open = !b.classList.contains("open");
    b.classList.toggle("open", open);
    b.setAttribute("aria-expanded", open ? "true" : "false");
  });
  document.addEventListener("keydown", function (ev) { if (ev.key === "Escape") closeAll(null); });
})();
