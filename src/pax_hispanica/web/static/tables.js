// Table page: reload when the table changes (someone joined, the game started or ended, a rematch).
(function(){
  const el = document.getElementById('table');
  if (!el) return;
  let last = null;
  async function poll(){
    try {
      const r = await fetch('/tables/' + el.dataset.table + '/state', {cache: 'no-store'});
      if (r.ok) {
        const now = JSON.stringify(await r.json());
        if (last !== null && now !== last) { location.reload(); return; }
        last = now;
      }
    } catch (e) { /* offline: try again */ }
    setTimeout(poll, 2000);
  }
  poll();
})();
