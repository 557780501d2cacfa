/**
 * The one script of published sites; pages work without it. It adds the search dialog
 * (`/` or Ctrl/⌘-K), switches the theme in place, turns tab blocks into real tabs, copies
 * code and follows the outline. Results are built with textContent: nothing from the
 * server is ever parsed as HTML here.
 */
export const SITE_JS = String.raw`(() => {
  const doc = document;
  const root = (doc.querySelector('meta[name="quire-site-root"]') || {}).content || '';
  const html = doc.documentElement;

  // Theme: remembered in a cookie so the server renders the same theme next time.
  for (const toggle of doc.querySelectorAll('[data-theme-toggle]')) {
    toggle.addEventListener('click', (e) => {
      e.preventDefault();
      const next = html.dataset.theme === 'dark' ? 'light' : 'dark';
      html.dataset.theme = next;
      doc.cookie = 'quire_theme=' + next + '; path=/; max-age=31536000; samesite=lax';
      toggle.setAttribute('href', '?theme=' + (next === 'dark' ? 'light' : 'dark'));
    });
  }

  // Tabs blocks.
  for (const tabs of doc.querySelectorAll('.content .tabs')) {
    const panels = [...tabs.children].filter((c) => c.classList.contains('tab'));
    if (panels.length < 2) continue;
    const strip = doc.createElement('div');
    strip.className = 'tab-strip';
    strip.setAttribute('role', 'tablist');
    panels.forEach((panel, i) => {
      const b = doc.createElement('button');
      b.type = 'button';
      b.setAttribute('role', 'tab');
      b.textContent = (panel.querySelector('.tab-title') || {}).textContent || 'Tab ' + (i + 1);
      b.addEventListener('click', () => select(i));
      strip.appendChild(b);
    });
    const select = (i) => panels.forEach((p, j) => { p.hidden = i !== j; strip.children[j].setAttribute('aria-selected', String(i === j)); });
    tabs.prepend(strip);
    tabs.classList.add('enhanced');
    select(0);
  }

  // Copy buttons.
  for (const button of doc.querySelectorAll('.code-block .copy')) {
    button.addEventListener('click', async () => {
      const code = button.closest('.code-block').querySelector('code');
      try { await navigator.clipboard.writeText(code.textContent); button.textContent = 'Copied'; setTimeout(() => (button.textContent = 'Copy'), 1500); } catch {}
    });
  }

  // Outline: highlight the heading in view.
  const links = [...doc.querySelectorAll('.outline a')];
  if (links.length && 'IntersectionObserver' in window) {
    const byId = new Map(links.map((a) => [decodeURIComponent(a.hash.slice(1)), a]));
    const seen = new Set();
    const io = new IntersectionObserver((entries) => {
      for (const e of entries) (e.isIntersecting ? seen.add : seen.delete).call(seen, e.target.id);
      const first = [...byId.keys()].find((id) => seen.has(id));
      if (first) links.forEach((a) => a.classList.toggle('active', a === byId.get(first)));
    }, { rootMargin: '-100px 0px -60% 0px' });
    for (const id of byId.keys()) { const h = doc.getElementById(id); if (h) io.observe(h); }
  }

  // Sidebar: the current page in view; on phones the menu is a drawer that closes on a tap outside.
  const sidebar = doc.querySelector('.sidebar');
  const current = doc.querySelector('.tree a[aria-current="page"]');
  if (sidebar && current && sidebar.scrollHeight > sidebar.clientHeight) {
    const top = current.getBoundingClientRect().top - sidebar.getBoundingClientRect().top + sidebar.scrollTop;
    sidebar.scrollTop = Math.max(0, top - sidebar.clientHeight / 3);
  }
  const drawer = doc.querySelector('.menu-toggle');
  if (drawer) {
    const shut = () => drawer.removeAttribute('open');
    (drawer.querySelector('.drawer-backdrop') || doc.createElement('i')).addEventListener('click', (e) => { e.preventDefault(); shut(); });
    for (const a of doc.querySelectorAll('.sidebar-body a')) a.addEventListener('click', shut);
    doc.addEventListener('keydown', (e) => { if (e.key === 'Escape') shut(); });
  }

  // Embeds of video hosts: the card becomes the player when asked.
  for (const embed of doc.querySelectorAll('.content .embed[data-player]')) {
    const card = embed.querySelector('a');
    if (!card) continue;
    card.addEventListener('click', (e) => {
      e.preventDefault();
      const frame = doc.createElement('iframe');
      frame.src = embed.dataset.player + '?autoplay=1';
      frame.title = (embed.querySelector('.embed-title') || {}).textContent || 'Video';
      frame.allow = 'autoplay; encrypted-media; picture-in-picture; fullscreen';
      frame.setAttribute('allowfullscreen', '');
      embed.replaceChildren(frame);
    });
  }

  // API reference: a "try it" console per operation, built from its parameters.
  for (const box of doc.querySelectorAll('.content .try-it[data-method]')) {
    const op = box.closest('.api-operation');
    if (!op || !box.dataset.server) continue;
    const details = doc.createElement('details');
    const summary = doc.createElement('summary');
    summary.textContent = 'Try it';
    details.append(summary);
    const fields = [];
    const params = [...op.querySelectorAll('li.api-prop[data-in]')].filter((li) => li.dataset.in !== 'cookie');
    for (const li of params) {
      const label = doc.createElement('label');
      label.textContent = li.dataset.name + ' (' + li.dataset.in + ')';
      const input = doc.createElement('input');
      input.type = 'text';
      label.append(input);
      details.append(label);
      fields.push([li.dataset.in, li.dataset.name, input]);
    }
    let body = null;
    if (box.dataset.body !== undefined) {
      const label = doc.createElement('label');
      label.textContent = 'Body (' + (box.dataset.type || 'application/json') + ')';
      body = doc.createElement('textarea');
      body.rows = 6;
      body.value = box.dataset.body;
      label.append(body);
      details.append(label);
    }
    // Credentials the operation's security names. Kept for this tab only (sessionStorage),
    // shared by the operations of the same scheme; never stored anywhere else.
    const creds = [];
    let security = [];
    try { security = JSON.parse(box.dataset.security || '[]'); } catch {}
    if (security.length) {
      const group = doc.createElement('div');
      group.className = 'creds';
      for (const c of security) {
        const key = 'quire-try-it:' + box.dataset.server + ':' + c.scheme;
        const label = doc.createElement('label');
        label.textContent = c.kind === 'bearer' ? 'Bearer token (' + c.scheme + ')' : c.kind === 'basic' ? 'Username:password (' + c.scheme + ')' : c.name + ' (' + c.scheme + ', API key in ' + c.in + ')';
        const input = doc.createElement('input');
        input.type = 'password';
        input.autocomplete = 'off';
        input.dataset.credential = c.scheme;
        try { input.value = sessionStorage.getItem(key) || ''; } catch {}
        input.addEventListener('input', () => { try { sessionStorage.setItem(key, input.value); } catch {} });
        label.append(input);
        group.append(label);
        creds.push([c, input]);
      }
      details.insertBefore(group, summary.nextSibling);
      // Filled in another operation meanwhile: take it up when this one opens.
      details.addEventListener('toggle', () => {
        if (!details.open) return;
        for (const [c, input] of creds) try { input.value = sessionStorage.getItem('quire-try-it:' + box.dataset.server + ':' + c.scheme) || input.value; } catch {}
      });
    }
    let proxy = null;
    if (box.dataset.proxy) {
      const label = doc.createElement('label');
      label.className = 'proxy';
      proxy = doc.createElement('input');
      proxy.type = 'checkbox';
      label.append(proxy, doc.createTextNode('Send through this site (for APIs that do not allow calls from browsers)'));
      details.append(label);
    }
    const send = doc.createElement('button');
    send.type = 'button';
    send.className = 'send';
    send.textContent = 'Send ' + box.dataset.method;
    const out = doc.createElement('pre');
    out.hidden = true;
    const note = doc.createElement('p');
    note.className = 'cors';
    note.hidden = true;
    details.append(send, out, note);
    send.addEventListener('click', async () => {
      let path = box.dataset.path;
      const url = new URL(box.dataset.server.replace(/\/$/, '') + '/');
      const headers = {};
      for (const [where, name, input] of fields) {
        if (!input.value) continue;
        if (where === 'path') path = path.replace('{' + name + '}', encodeURIComponent(input.value));
        else if (where === 'query') url.searchParams.append(name, input.value);
        else if (where === 'header') headers[name] = input.value;
      }
      for (const [c, input] of creds) {
        if (!input.value) continue;
        if (c.kind === 'bearer') headers['Authorization'] = 'Bearer ' + input.value;
        else if (c.kind === 'basic') headers['Authorization'] = 'Basic ' + btoa(unescape(encodeURIComponent(input.value)));
        else if (c.in === 'header') headers[c.name] = input.value;
        else url.searchParams.append(c.name, input.value);
      }
      const target = new URL(url.pathname.replace(/\/$/, '') + path + url.search, url.origin);
      for (const [k, v] of url.searchParams) target.searchParams.append(k, v);
      if (body) headers['content-type'] = box.dataset.type || 'application/json';
      out.hidden = false;
      note.hidden = true;
      out.textContent = 'Sending…';
      const init = { method: box.dataset.method, headers, body: body && box.dataset.method !== 'GET' ? body.value : undefined };
      try {
        const res = proxy && proxy.checked
          ? await fetch(root + '/~api-proxy', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: target.href, ...init }) })
          : await fetch(target, init);
        out.textContent = res.status + ' ' + res.statusText + '\n\n' + (await res.text()).slice(0, 20000);
      } catch (err) {
        // A browser says nothing more of a refused cross-origin call than a failed fetch.
        out.textContent = 'The request failed: ' + err.message;
        note.hidden = false;
        note.textContent = 'This API does not allow calls from this site (CORS)' + (proxy ? ': send it through this site (above), or use the curl sample.' : ': use the curl sample instead.');
      }
    });
    box.append(details);
    box.classList.add('ready');
  }

  // Search dialog.
  const dialog = doc.createElement('div');
  dialog.className = 'search-dialog';
  dialog.setAttribute('role', 'dialog');
  dialog.setAttribute('aria-modal', 'true');
  dialog.setAttribute('aria-label', 'Search');
  const panel = doc.createElement('div');
  panel.className = 'search-panel';
  const input = doc.createElement('input');
  input.type = 'search';
  input.placeholder = 'Search the docs…';
  input.setAttribute('aria-label', 'Search');
  const list = doc.createElement('ul');
  list.className = 'results';
  const closeButton = doc.createElement('button');
  closeButton.type = 'button';
  closeButton.className = 'search-close';
  closeButton.setAttribute('aria-label', 'Close search');
  closeButton.textContent = '×';
  closeButton.addEventListener('click', () => close());
  panel.append(input, closeButton, list);
  dialog.append(panel);
  doc.body.append(dialog);
  let items = [];
  let active = -1;
  let timer = 0;
  let last = '';
  const open = (q) => { dialog.classList.add('open'); if (typeof q === 'string') input.value = q; input.focus(); input.select(); if (input.value) run(); };
  const close = () => { dialog.classList.remove('open'); };
  const mark = (el, text, terms) => {
    const re = terms.length ? new RegExp('(' + terms.map((t) => t.replace(/[.*+?^$()|[\]{}\\]/g, '\\$&')).join('|') + ')', 'ig') : null;
    for (const part of re ? text.split(re) : [text]) {
      if (re && terms.some((t) => t.toLowerCase() === part.toLowerCase())) { const m = doc.createElement('mark'); m.textContent = part; el.append(m); }
      else el.append(doc.createTextNode(part));
    }
  };
  const render = (results, q) => {
    // The insights script hears what was searched and how much was found.
    if (q) doc.dispatchEvent(new CustomEvent('quire:search', { detail: { query: q, results: results.length } }));
    list.textContent = '';
    items = [];
    active = -1;
    if (!results.length) {
      const li = doc.createElement('li');
      li.className = 'empty';
      li.textContent = q ? 'No results for “' + q + '”' : 'Type to search';
      list.append(li);
      return;
    }
    const terms = q.split(/\s+/).filter(Boolean);
    for (const r of results) {
      const li = doc.createElement('li');
      const a = doc.createElement('a');
      a.className = 'result';
      a.href = r.url;
      const where = doc.createElement('span');
      where.className = 'where';
      where.textContent = r.section;
      const title = doc.createElement('span');
      title.className = 'title';
      title.textContent = r.heading ? r.title + ' › ' + r.heading : r.title;
      const snippet = doc.createElement('span');
      snippet.className = 'snippet';
      mark(snippet, r.snippet || '', terms);
      a.append(where, title, snippet);
      li.append(a);
      list.append(li);
      items.push(a);
    }
    move(0);
  };
  const move = (i) => {
    if (!items.length) return;
    active = (i + items.length) % items.length;
    items.forEach((a, j) => a.setAttribute('aria-selected', String(j === active)));
    items[active].scrollIntoView({ block: 'nearest' });
  };
  const run = async () => {
    const q = input.value.trim();
    if (q === last) return;
    last = q;
    if (!q) return render([], '');
    try {
      const res = await fetch(root + '/~search?q=' + encodeURIComponent(q), { headers: { accept: 'application/json' }, credentials: 'same-origin' });
      if (!res.ok || input.value.trim() !== q) return;
      render((await res.json()).results || [], q);
    } catch {}
  };
  input.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(run, 120); });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown') { e.preventDefault(); move(active + 1); }
    else if (e.key === 'ArrowUp') { e.preventDefault(); move(active - 1); }
    else if (e.key === 'Enter' && items[active]) { e.preventDefault(); items[active].click(); }
    else if (e.key === 'Escape') close();
  });
  dialog.addEventListener('click', (e) => { if (e.target === dialog) close(); });
  const headerSearch = doc.querySelector('.search input');
  if (headerSearch) {
    headerSearch.addEventListener('focus', () => { open(headerSearch.value); headerSearch.blur(); });
    headerSearch.closest('form').addEventListener('submit', (e) => { e.preventDefault(); open(headerSearch.value); });
  }
  doc.addEventListener('keydown', (e) => {
    const typing = /^(INPUT|TEXTAREA|SELECT)$/.test((e.target && e.target.tagName) || '') || (e.target && e.target.isContentEditable);
    if ((e.key === 'k' && (e.metaKey || e.ctrlKey)) || (e.key === '/' && !typing)) { e.preventDefault(); open(); }
    else if (e.key === 'Escape' && dialog.classList.contains('open')) close();
  });
})();
`;
