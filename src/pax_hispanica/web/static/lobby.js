// Lobby: show the seat rows for the chosen number of players (static file: the CSP allows no inline script).
(function(){
  const sel = document.getElementById('players');
  function show(){
    document.querySelectorAll('.seat-row').forEach(r => {
      const on = +r.dataset.seat < +sel.value, bot = r.querySelector('select[name^=kind]').value === 'bot';
      const kind = r.querySelector('select[name^=bot]').selectedOptions[0];
      const search = bot && kind !== undefined && 'search' in kind.dataset;  // strength is the search's size
      r.hidden = !on;
      r.querySelectorAll('select,input').forEach(e => e.disabled = !on || (!bot && /^(bot|strength)/.test(e.name))
                                                  || (!search && /^strength/.test(e.name)));
    });
  }
  sel.addEventListener('change', show);
  document.querySelectorAll('select[name^=kind], select[name^=bot]').forEach(k => k.addEventListener('change', show));
  show();
})();
// The time control: the clock's fields only for a clocked live game, the hours only for a turn-based one,
// the days only for days per Year.
(function(){
  const pace = document.getElementById('pace');
  if (!pace) return;
  function show(){
    document.getElementById('clock-minutes').disabled = pace.value !== 'clock';
    document.getElementById('clock-increment').disabled = pace.value !== 'clock';
    document.getElementById('turn-hours').disabled = pace.value !== 'turn';
    const days = document.getElementById('year-days');
    if (days) days.disabled = pace.value !== 'year';
  }
  pace.addEventListener('change', show);
  show();
})();
// The new table's house rules: the numbers a variant may change are in the page once, in the new
// game's form (issue 38: the lobby was twice its size); the new table's form gets a copy of
// them, empty and closed, its ids and names' labels moved to its own prefix (p-… becomes tp-…).
(function(){
  const from = document.querySelector('#new-game .param-groups:not([data-copy])');
  if (!from) return;
  const ATTRS = ['id', 'for', 'aria-describedby'];
  document.querySelectorAll('.param-groups[data-copy]').forEach(function (to) {
    const src = to.dataset.copy, dst = to.dataset.prefix, copy = from.cloneNode(true);
    copy.querySelectorAll('[id], [for], [aria-describedby]').forEach(function (e) {
      ATTRS.forEach(function (a) {
        const v = e.getAttribute(a);
        if (v && v.indexOf(src) === 0) e.setAttribute(a, dst + v.slice(src.length));
      });
    });
    copy.querySelectorAll('input').forEach(function (i) { i.removeAttribute('value'); i.value = ''; });
    copy.querySelectorAll('select').forEach(function (s) {
      s.querySelectorAll('option').forEach(function (o) { o.removeAttribute('selected'); });
      s.selectedIndex = 0;
    });
    copy.querySelectorAll('details').forEach(function (d) { d.open = false; });
    copy.querySelectorAll('.param-count').forEach(function (c) { c.remove(); });
    to.replaceWith(copy);
  });
})();
