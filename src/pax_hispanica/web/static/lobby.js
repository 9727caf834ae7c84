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
