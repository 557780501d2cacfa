/**
 * The insights script of published sites: sends "Was this page helpful?" in place (the
 * form works without it), and reports searches typed, results opened and links followed
 * to the site's own `~insights` endpoint. No cookie, no storage, nothing sent to any other
 * host; the server decides what is kept (and keeps nothing under GPC or DNT).
 */
export const INSIGHTS_JS = String.raw`(() => {
  const d = document;
  const root = (d.querySelector('meta[name="quire-site-root"]') || {}).content || '';
  const page = location.pathname.slice(root.length) || '/';
  const send = (events) => {
    const body = JSON.stringify({ page, events });
    try { if (navigator.sendBeacon(root + '/~insights', new Blob([body], { type: 'application/json' }))) return; } catch {}
    fetch(root + '/~insights', { method: 'POST', headers: { 'content-type': 'application/json' }, body, keepalive: true }).catch(() => {});
  };

  const form = d.querySelector('form.feedback');
  if (form) {
    const comment = form.querySelector('textarea');
    const submit = d.createElement('button');
    submit.type = 'submit';
    submit.className = 'feedback-send';
    submit.textContent = 'Send';
    comment.parentNode.after(submit);
    form.classList.add('enhanced');
    let rating = '';
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const b = e.submitter;
      if (b && b.name === 'rating') {
        rating = b.value;
        for (const x of form.querySelectorAll('[name=rating]')) x.setAttribute('aria-pressed', String(x === b));
        send([{ type: 'page_post_feedback', rating }]);
        form.classList.add('rated');
        comment.focus();
      } else if (rating) {
        const text = comment.value.trim().slice(0, 512);
        if (text) send([{ type: 'page_post_feedback_comment', rating, comment: text }]);
        form.classList.add('sent');
      }
    });
  }

  // A search is reported once typing pauses, or when a result is opened before that.
  let query = (d.querySelector('.search-page input[name=q]') || {}).value || '';
  let found = 0;
  let timer = 0;
  // The search page's own query was counted by the server as it answered.
  let reported = query;
  const typed = () => {
    clearTimeout(timer);
    if (!query || query === reported) return [];
    reported = query;
    return [{ type: 'search_type_query', query: query.slice(0, 512), results: Math.min(found, 1000) }];
  };
  d.addEventListener('quire:search', (e) => {
    query = e.detail.query;
    found = e.detail.results;
    clearTimeout(timer);
    timer = setTimeout(() => { const events = typed(); if (events.length) send(events); }, 1000);
  });

  const AREAS = [['.announcement', 'announcement'], ['.site-header', 'header'], ['.site-footer', 'footer'], ['.sidebar', 'sidebar'], ['.content', 'content']];
  d.addEventListener('click', (e) => {
    const a = e.target.closest && e.target.closest('a[href]');
    if (!a) return;
    const href = a.getAttribute('href');
    if (a.classList.contains('result')) return send([...typed(), { type: 'search_open_result', query: query.slice(0, 512), url: new URL(href, location.href).pathname }]);
    if (!href || href[0] === '#') return;
    const area = AREAS.find(([sel]) => a.closest(sel));
    if (area) send([{ type: 'link_click', href: a.href.slice(0, 2048), position: area[1] }]);
  }, true);
})();
`;
