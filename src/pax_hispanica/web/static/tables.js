// Table page: reload when the table changes (someone joined, the game started or ended, a rematch).
(function(){
  const el = document.getElementById('table');
  if (!el) return;
  // the state the page was drawn from: a change before the first poll reloads it too
  // (keys sorted: the page's copy and the poll's answer are written by different serialisers)
  const canon = (o) => JSON.stringify(o, Object.keys(o).sort());
  let last = el.dataset.state ? canon(JSON.parse(el.dataset.state)) : null;
  async function poll(){
    try {
      const r = await fetch('/tables/' + el.dataset.table + '/state', {cache: 'no-store'});
      if (r.ok) {
        const now = canon(await r.json());
        if (last !== null && now !== last) { location.reload(); return; }
        last = now;
      }
    } catch (e) { /* offline: try again */ }
    setTimeout(poll, 2000);
  }
  poll();
})();
