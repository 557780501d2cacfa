/**
 * The stylesheet of published sites. Colors come from CSS variables that each page sets
 * from its customization (primary color and the hint colors, per theme), so one cached
 * file serves every site.
 */
export const SITE_CSS = `
*,*::before,*::after{box-sizing:border-box}
:root{--primary:#346ddb;--primary-dark:#6d9cf5;--info:#787878;--success:#02a05b;--warning:#d97706;--danger:#dc2626;
--radius:10px;--font:"Inter",ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
--mono:"IBM Plex Mono",ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;--header-h:64px;--tabs-h:46px}
html[data-theme=light]{color-scheme:light;--bg:#ffffff;--bg-soft:#f7f7f8;--bg-muted:#f0f1f3;--fg:#1b1c1f;--fg-soft:#4b4f58;--fg-muted:#747a85;
--border:#e6e7ea;--accent:var(--primary);--on-accent:#fff;--accent-soft:color-mix(in srgb,var(--primary) 10%,transparent);--code-bg:#f5f6f8;--shadow:0 1px 2px rgba(16,24,40,.05),0 8px 24px rgba(16,24,40,.08)}
html[data-theme=dark]{color-scheme:dark;--bg:#0f1115;--bg-soft:#15181e;--bg-muted:#1b1f26;--fg:#e8eaed;--fg-soft:#b5bac3;--fg-muted:#8a909b;
--border:#262a33;--accent:var(--primary-dark);--on-accent:#0f1115;--accent-soft:color-mix(in srgb,var(--primary-dark) 16%,transparent);--code-bg:#171a21;--shadow:0 1px 2px rgba(0,0,0,.3),0 12px 32px rgba(0,0,0,.45)}
html{scroll-padding-top:calc(var(--header-h) + var(--tabs-h) + 16px)}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.65 var(--font);-webkit-font-smoothing:antialiased;text-rendering:optimizeLegibility}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
.skip{position:absolute;left:-999px}.skip:focus{left:12px;top:12px;z-index:100;background:var(--bg);padding:8px 12px;border-radius:8px}
.announcement{display:flex;gap:12px;justify-content:center;align-items:center;padding:8px 16px;font-size:14px;font-weight:500;background:var(--accent-soft);color:var(--fg);border-bottom:1px solid var(--border)}
.announcement.success{background:color-mix(in srgb,var(--success) 14%,var(--bg))}.announcement.warning{background:color-mix(in srgb,var(--warning) 16%,var(--bg))}.announcement.danger{background:color-mix(in srgb,var(--danger) 14%,var(--bg))}
.announcement a{font-weight:600}
.site-header{position:sticky;top:0;z-index:20;background:color-mix(in srgb,var(--bg) 88%,transparent);backdrop-filter:saturate(180%) blur(12px);border-bottom:1px solid var(--border)}
.header-row{display:flex;align-items:center;gap:20px;height:var(--header-h);max-width:1440px;margin:0 auto;padding:0 24px}
.brand{display:flex;align-items:center;gap:10px;color:var(--fg);font-weight:650;font-size:17px;letter-spacing:-.01em;white-space:nowrap}
.brand:hover{text-decoration:none}.brand img{height:28px;width:auto}.brand .logo-dark{display:none}html[data-theme=dark] .brand .logo-dark{display:block}html[data-theme=dark] .brand .logo-light.has-dark{display:none}
.brand-mark{display:grid;place-items:center;width:30px;height:30px;border-radius:8px;background:var(--accent);color:var(--on-accent);font-size:15px;font-weight:700}
.search{flex:1;max-width:420px;margin-left:auto;position:relative}
.search input{width:100%;height:38px;padding:0 64px 0 38px;border-radius:999px;border:1px solid var(--border);background:var(--bg-soft);color:var(--fg);font:inherit;font-size:14px;outline:none;transition:border-color .15s,box-shadow .15s}
.search input:focus{border-color:var(--accent);box-shadow:0 0 0 3px var(--accent-soft)}
.search svg{position:absolute;left:13px;top:11px;width:16px;height:16px;color:var(--fg-muted)}
.search kbd{position:absolute;right:10px;top:8px;font:600 11px/20px var(--font);padding:0 6px;border-radius:6px;border:1px solid var(--border);color:var(--fg-muted);background:var(--bg)}
.header-links{display:flex;align-items:center;gap:6px}
.header-links a,.header-links summary{color:var(--fg-soft);font-size:14px;font-weight:500;padding:6px 10px;border-radius:8px;cursor:pointer;list-style:none}
.header-links a:hover,.header-links summary:hover{background:var(--bg-muted);text-decoration:none;color:var(--fg)}
.header-links .button-primary,.sidebar-links .button-primary{background:var(--accent);color:var(--on-accent);padding:6px 12px;border-radius:8px}.header-links .button-primary:hover,.sidebar-links .button-primary:hover{background:var(--accent);color:var(--on-accent);text-decoration:none;filter:brightness(1.08)}
.header-links .button-secondary{border:1px solid var(--border);color:var(--fg)}
.menu{position:relative}.menu[open] .menu-items{display:flex}.menu-items{display:none;position:absolute;right:0;top:38px;flex-direction:column;min-width:200px;padding:6px;background:var(--bg);border:1px solid var(--border);border-radius:12px;box-shadow:var(--shadow)}
.theme-toggle{display:grid;place-items:center;width:36px;height:36px;border-radius:999px;border:1px solid var(--border);color:var(--fg-soft);background:var(--bg)}
.theme-toggle:hover{background:var(--bg-muted);text-decoration:none}.theme-toggle svg{width:17px;height:17px}
html[data-theme=light] .icon-sun{display:none}html[data-theme=dark] .icon-moon{display:none}
.tabs-bar{position:relative;border-top:1px solid var(--border)}.tabs-row{display:flex;gap:4px;max-width:1440px;margin:0 auto;padding:0 16px;height:var(--tabs-h);align-items:stretch;overflow-x:auto}
.tabs-row>a,.tabs-row summary{display:flex;align-items:center;gap:8px;padding:0 12px;color:var(--fg-soft);font-size:14px;font-weight:500;border-bottom:2px solid transparent;white-space:nowrap;cursor:pointer;list-style:none}
.tabs-row>a:hover,.tabs-row summary:hover{color:var(--fg);text-decoration:none}
.tabs-row>a[aria-current],.tabs-row .current>summary{color:var(--accent);border-bottom-color:var(--accent)}
.tabs-row details{position:static;display:flex;flex-direction:column}.tabs-row details>summary{flex:1}.tabs-row details>summary::after{content:"";width:6px;height:6px;border-right:1.5px solid currentColor;border-bottom:1.5px solid currentColor;transform:translateY(-2px) rotate(45deg)}.tabs-row details>summary::-webkit-details-marker{display:none}.tabs-row details .menu-items{top:calc(var(--tabs-h) + 2px);left:auto;right:auto;z-index:30}
.tabs-row details[open] .menu-items{display:flex}.menu-items a{padding:8px 10px;border-radius:8px;color:var(--fg-soft);font-size:14px}.menu-items a:hover{background:var(--bg-muted);text-decoration:none;color:var(--fg)}
.menu-items a[aria-current]{color:var(--accent);background:var(--accent-soft)}
.layout{display:grid;grid-template-columns:280px minmax(0,1fr) 240px;gap:48px;max-width:1440px;margin:0 auto;padding:0 24px}
.sidebar{position:sticky;top:calc(var(--header-h) + var(--tabs-h));align-self:start;height:calc(100vh - var(--header-h) - var(--tabs-h));overflow:auto;padding:24px 8px 40px 0}
.no-tabs .sidebar{top:var(--header-h);height:calc(100vh - var(--header-h))}
.variant{margin:0 0 18px;position:relative}
.variant summary{display:flex;justify-content:space-between;align-items:center;padding:8px 12px;border:1px solid var(--border);border-radius:10px;background:var(--bg-soft);font-size:14px;font-weight:600;cursor:pointer;list-style:none}
.variant summary::after{content:"";width:8px;height:8px;border-right:2px solid var(--fg-muted);border-bottom:2px solid var(--fg-muted);transform:rotate(45deg) translateY(-2px)}
.variant .menu-items{position:absolute;left:0;right:0;top:44px;z-index:5}.variant[open] .menu-items{display:flex}
.tree,.tree ul{list-style:none;margin:0;padding:0}.tree ul{margin-left:12px;padding-left:10px;border-left:1px solid var(--border)}
.tree a{display:flex;gap:8px;padding:6px 10px;border-radius:8px;color:var(--fg-soft);font-size:14.5px;line-height:1.45}
.tree a:hover{background:var(--bg-muted);color:var(--fg);text-decoration:none}
.tree a[aria-current=page]{background:var(--accent-soft);color:var(--accent);font-weight:600}
.tree .group-title{margin:22px 10px 6px;font-size:12px;font-weight:700;letter-spacing:.06em;text-transform:uppercase;color:var(--fg-muted)}
.tree li:first-child>.group-title{margin-top:4px}
.tree details>summary{list-style:none;cursor:pointer}.tree details>summary::-webkit-details-marker{display:none}
.tree .external::after{content:"↗";margin-left:auto;color:var(--fg-muted)}
main{min-width:0;padding:40px 0 80px}
.breadcrumb{font-size:13px;font-weight:600;color:var(--accent);margin:0 0 8px;letter-spacing:.01em}
.page-title{font-size:38px;line-height:1.2;letter-spacing:-.025em;margin:0 0 10px;font-weight:750}
.page-title .emoji{margin-right:10px}
.page-description{font-size:18px;color:var(--fg-soft);margin:0 0 20px}
.page-actions{display:flex;gap:8px;margin:0 0 28px;padding-bottom:24px;border-bottom:1px solid var(--border)}
.page-actions a{display:inline-flex;align-items:center;gap:6px;font-size:13px;font-weight:500;color:var(--fg-soft);padding:5px 10px;border:1px solid var(--border);border-radius:8px}
.page-actions a:hover{background:var(--bg-muted);text-decoration:none;color:var(--fg)}
.content{font-size:16px}.content>*:first-child{margin-top:0}
.content p,.content ul,.content ol{margin:0 0 16px}.content li{margin:4px 0}.content li>p{margin:0}
.content h2,.content h3,.content h4{position:relative;letter-spacing:-.015em;line-height:1.3;margin:36px 0 12px}
.content h2{font-size:26px}.content h3{font-size:21px}.content h4{font-size:18px}
.content .anchor{margin-left:8px;color:var(--fg-muted);opacity:0;font-weight:400}.content .heading:hover .anchor{opacity:1;text-decoration:none}
.content code{font:14px/1.5 var(--mono);background:var(--code-bg);border:1px solid var(--border);padding:1px 6px;border-radius:6px}
.code-block{margin:0 0 20px;border:1px solid var(--border);border-radius:var(--radius);background:var(--code-bg);overflow:hidden}
.code-head{display:flex;justify-content:space-between;align-items:center;padding:6px 12px;border-bottom:1px solid var(--border);font-size:12.5px;color:var(--fg-muted);font-weight:600}
.code-head .copy{font:inherit;font-size:12px;color:var(--fg-muted);background:none;border:1px solid var(--border);border-radius:6px;padding:2px 8px;cursor:pointer}
.code-block pre{margin:0;padding:16px;overflow:auto}.code-block pre.wrap{white-space:pre-wrap}.code-block pre code{background:none;border:0;padding:0;font-size:13.5px}
.hint{display:block;margin:0 0 20px;padding:14px 16px 14px 18px;border-radius:var(--radius);border:1px solid color-mix(in srgb,var(--hint) 30%,transparent);background:color-mix(in srgb,var(--hint) 9%,var(--bg));border-left:4px solid var(--hint)}
.hint>*:last-child{margin-bottom:0}.hint-info{--hint:var(--info)}.hint-success{--hint:var(--success)}.hint-warning{--hint:var(--warning)}.hint-danger{--hint:var(--danger)}
.content blockquote{margin:0 0 16px;padding:2px 18px;border-left:3px solid var(--border);color:var(--fg-soft)}
.table-wrap{overflow-x:auto;margin:0 0 20px;border:1px solid var(--border);border-radius:var(--radius)}
.content table{border-collapse:collapse;width:100%;font-size:14.5px}.content th,.content td{padding:10px 14px;border-bottom:1px solid var(--border);text-align:left;vertical-align:top}
.content tr:first-child th{background:var(--bg-soft);font-weight:600}.content tr:last-child td{border-bottom:0}
.content figure{margin:0 0 20px}.content img{max-width:100%;height:auto;border-radius:var(--radius)}.content figcaption{font-size:13px;color:var(--fg-muted);text-align:center;margin-top:6px}
.content hr{border:0;border-top:1px solid var(--border);margin:32px 0}
.tabs{margin:0 0 20px;border:1px solid var(--border);border-radius:var(--radius);overflow:hidden}
.tab-title{padding:8px 14px;font-size:14px;font-weight:600;background:var(--bg-soft);border-bottom:1px solid var(--border)}.tab-body{padding:14px 16px}.tab-body>*:last-child{margin-bottom:0}
.tabs.enhanced .tab-strip{display:flex;gap:2px;background:var(--bg-soft);border-bottom:1px solid var(--border);padding:0 6px}
.tabs.enhanced .tab-strip button{font:inherit;font-size:14px;font-weight:500;color:var(--fg-soft);background:none;border:0;border-bottom:2px solid transparent;padding:9px 12px;cursor:pointer}
.tabs.enhanced .tab-strip button[aria-selected=true]{color:var(--accent);border-bottom-color:var(--accent)}.tabs.enhanced .tab-title{display:none}.tabs.enhanced .tab[hidden]{display:none}
.content details{margin:0 0 16px;border:1px solid var(--border);border-radius:var(--radius);padding:10px 14px}.content summary{cursor:pointer;font-weight:600}
.content-ref{display:flex;justify-content:space-between;align-items:center;margin:0 0 16px;padding:14px 16px;border:1px solid var(--border);border-radius:var(--radius);color:var(--fg);font-weight:600}
.content-ref:hover{border-color:var(--accent);text-decoration:none}.content-ref-arrow{color:var(--accent)}
.embed{margin:0 0 16px;padding:14px 16px;border:1px dashed var(--border);border-radius:var(--radius)}
.stepper{list-style:none;counter-reset:step;padding:0}.stepper .step{position:relative;padding:0 0 8px 44px;counter-increment:step}
.stepper .step::before{content:counter(step);position:absolute;left:0;top:0;width:28px;height:28px;display:grid;place-items:center;border-radius:999px;background:var(--accent-soft);color:var(--accent);font-weight:700;font-size:14px}
.task-list{list-style:none;padding-left:4px}.task-item{display:flex;gap:8px;align-items:baseline}
.pager{display:grid;grid-template-columns:1fr 1fr;gap:16px;margin-top:56px}
.pager a{display:flex;flex-direction:column;gap:2px;padding:14px 18px;border:1px solid var(--border);border-radius:12px;color:var(--fg);transition:border-color .15s,box-shadow .15s}
.pager a:hover{border-color:var(--accent);box-shadow:var(--shadow);text-decoration:none}.pager small{color:var(--fg-muted);font-size:12.5px}.pager span{font-weight:600}
.pager .next{text-align:right;grid-column:2}
.outline{position:sticky;top:calc(var(--header-h) + var(--tabs-h));align-self:start;padding:40px 0;font-size:13.5px;max-height:calc(100vh - var(--header-h) - var(--tabs-h));overflow:auto}
.no-tabs .outline{top:var(--header-h)}
.outline h2{font-size:12px;text-transform:uppercase;letter-spacing:.06em;color:var(--fg-muted);margin:0 0 10px}
.outline ul{list-style:none;margin:0;padding:0;border-left:1px solid var(--border)}.outline li a{display:block;padding:4px 12px;color:var(--fg-soft);margin-left:-1px;border-left:1px solid transparent}
.outline li.l2 a{padding-left:24px}.outline a:hover{color:var(--fg);text-decoration:none}.outline a.active{color:var(--accent);border-left-color:var(--accent)}
.site-footer{border-top:1px solid var(--border);background:var(--bg-soft);margin-top:40px}
.footer-row{max-width:1440px;margin:0 auto;padding:40px 24px;display:flex;gap:48px;flex-wrap:wrap}
.footer-group h3{font-size:13px;margin:0 0 10px;color:var(--fg)}.footer-group ul{list-style:none;margin:0;padding:0}.footer-group li{margin:6px 0}.footer-group a{color:var(--fg-soft);font-size:14px}
.footer-meta{margin-left:auto;color:var(--fg-muted);font-size:13px;display:flex;flex-direction:column;gap:6px;align-items:flex-end}
.search-page{display:flex;gap:8px;max-width:none;margin:8px 0 28px}.search-page input{flex:1;height:44px;font-size:16px;padding:0 18px}.search-page button{height:44px;padding:0 20px;border:0;border-radius:999px;background:var(--accent);color:var(--on-accent);font:inherit;font-size:15px;font-weight:600;cursor:pointer}
.results{list-style:none;margin:0;padding:0}.results li{margin:0 0 12px}
.result{display:block;padding:14px 16px;border:1px solid var(--border);border-radius:12px;color:var(--fg)}.result:hover{border-color:var(--accent);text-decoration:none}
.result .where{font-size:12px;font-weight:600;color:var(--accent);text-transform:uppercase;letter-spacing:.04em}.result .title{display:block;font-weight:650;margin:2px 0}.result .snippet{display:block;color:var(--fg-soft);font-size:14px}
.result mark{background:var(--accent-soft);color:inherit;border-radius:3px;padding:0 1px}
.search-dialog{position:fixed;inset:0;z-index:50;display:none;background:rgba(10,12,16,.45);backdrop-filter:blur(2px);padding:10vh 16px}
.search-dialog.open{display:block}.search-panel{max-width:640px;margin:0 auto;background:var(--bg);border:1px solid var(--border);border-radius:16px;box-shadow:var(--shadow);overflow:hidden}
.search-panel input{width:100%;border:0;border-bottom:1px solid var(--border);padding:18px 20px;font:inherit;font-size:17px;background:var(--bg);color:var(--fg);outline:none}
.search-panel .results{max-height:60vh;overflow:auto;padding:10px}.search-panel .result{border-color:transparent}.search-panel .result[aria-selected=true]{background:var(--accent-soft);border-color:var(--accent)}
.search-panel .empty{padding:24px;text-align:center;color:var(--fg-muted)}
.feedback{margin:40px 0 8px;padding:18px 20px;border:1px solid var(--border);border-radius:var(--radius);display:flex;flex-wrap:wrap;align-items:center;gap:10px 16px}
.feedback-question{margin:0;font-weight:600}.feedback-faces{display:flex;gap:6px}.feedback-faces button{font-size:22px;line-height:1;padding:6px 8px;border:1px solid var(--border);border-radius:999px;background:var(--bg);cursor:pointer}
.feedback-faces button:hover,.feedback-faces button[aria-pressed=true]{border-color:var(--accent);background:var(--accent-soft)}
.feedback-comment{flex-basis:100%;display:flex;flex-direction:column;gap:6px;font-size:14px;color:var(--fg-soft)}.feedback-comment textarea{font:inherit;padding:8px 10px;border:1px solid var(--border);border-radius:8px;background:var(--bg);color:var(--fg)}
.feedback-send{padding:6px 16px;border:0;border-radius:999px;background:var(--accent);color:var(--on-accent);cursor:pointer}
.feedback-thanks{display:none;flex-basis:100%;margin:0;color:var(--accent);font-weight:600}.feedback-thanks:target,.feedback.sent .feedback-thanks{display:block}
.feedback.enhanced .feedback-comment,.feedback.enhanced .feedback-send{display:none}.feedback.rated .feedback-comment,.feedback.rated .feedback-send{display:flex}.feedback.sent .feedback-comment,.feedback.sent .feedback-send,.feedback.sent .feedback-faces{display:none}
.not-found{text-align:center;padding:80px 0}.not-found .code{font-size:64px;font-weight:800;color:var(--accent);letter-spacing:-.04em}
.menu-toggle{display:none}.sidebar-links{display:none}
.hint{display:flex;gap:12px;align-items:flex-start}.hint-body{min-width:0;flex:1}.hint-body>*:last-child{margin-bottom:0}
.hint-icon{flex:0 0 18px;width:18px;height:18px;margin-top:4px;background:var(--hint);-webkit-mask:var(--icon) center/contain no-repeat;mask:var(--icon) center/contain no-repeat}
.hint-info{--icon:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'%3E%3Ccircle cx='12' cy='12' r='10'/%3E%3Cpath d='M12 16v-4M12 8h.01'/%3E%3C/svg%3E")}.hint-success{--icon:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'%3E%3Ccircle cx='12' cy='12' r='10'/%3E%3Cpath d='m9 12 2 2 4-4'/%3E%3C/svg%3E")}.hint-warning{--icon:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'%3E%3Cpath d='M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z'/%3E%3Cpath d='M12 9v4M12 17h.01'/%3E%3C/svg%3E")}.hint-danger{--icon:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'%3E%3Ccircle cx='12' cy='12' r='10'/%3E%3Cpath d='m15 9-6 6M9 9l6 6'/%3E%3C/svg%3E")}
.content{overflow-wrap:break-word}.content a{overflow-wrap:anywhere}
.content td,.content th{word-break:normal}.content td a,.content th a{overflow-wrap:break-word}
.search-panel input::-webkit-search-cancel-button{-webkit-appearance:none;appearance:none;display:none}
.page-cover{margin:0 0 24px}.page-cover img{display:block;width:100%;height:240px;object-fit:cover;border-radius:var(--radius)}.page-cover-full img{height:auto;max-height:420px}
${Array.from({ length: 21 }, (_, i) => `.cover-y-${i * 5} img{object-position:50% ${i * 5}%}`).join('')}
.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.html-block{overflow-x:auto;margin:0 0 16px}.html-block>*:last-child{margin-bottom:0}
.html-block table:not(.cards){border-collapse:collapse;width:100%;font-size:14.5px;margin:0 0 16px}.html-block table:not(.cards) td,.html-block table:not(.cards) th{border:1px solid var(--border)}
.content [align=center]{text-align:center}.content [align=right]{text-align:right}.content img[align=center]{display:block;margin:0 auto}
.fa-icon{display:inline-block;height:1em;vertical-align:-.125em;fill:currentColor;overflow:visible}
.content figure img{display:inline-block}.content img[data-size=line]{display:inline;height:1.25em;width:auto;vertical-align:-0.25em;border-radius:0}
table.cards{display:block;border:0;margin:0 0 20px}table.cards thead{display:none}table.cards tbody{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:16px}
table.cards tr{display:flex;flex-direction:column;gap:4px;padding:16px;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg-soft)}
table.cards td,table.cards th{display:block;border:0;padding:0;text-align:left}table.cards td:empty{display:none}table.cards img{border-radius:8px;margin-bottom:6px}
.content mark{background:color-mix(in srgb,var(--warning) 28%,transparent);color:inherit;border-radius:3px;padding:0 2px}
.content a.html-button{display:inline-block;padding:7px 14px;border-radius:8px;border:1px solid var(--border);color:var(--fg);font-weight:600;font-size:14px;margin:2px 4px 2px 0}
.content a.html-button.primary{background:var(--accent);border-color:var(--accent);color:var(--on-accent)}.content a.html-button:hover{text-decoration:none;filter:brightness(1.05)}
.content button{font:inherit;font-size:14px;padding:6px 12px;border-radius:8px;border:1px solid var(--border);background:var(--bg-soft);color:var(--fg)}
.columns{display:flex;gap:24px;margin:0 0 16px}.column{flex:1 1 0;min-width:0}.column>*:last-child{margin-bottom:0}
.column.w-20{flex:0 0 calc(20% - 12px)}.column.w-25{flex:0 0 calc(25% - 12px)}.column.w-33{flex:0 0 calc(33.33% - 12px)}.column.w-40{flex:0 0 calc(40% - 12px)}.column.w-50{flex:0 0 calc(50% - 12px)}.column.w-60{flex:0 0 calc(60% - 12px)}.column.w-67{flex:0 0 calc(66.67% - 12px)}.column.w-75{flex:0 0 calc(75% - 12px)}.column.w-80{flex:0 0 calc(80% - 12px)}
.updates{margin:0 0 20px}.update{display:grid;grid-template-columns:140px minmax(0,1fr);gap:24px;padding:20px 0;border-top:1px solid var(--border)}
.update-date{font-size:13px;font-weight:600;color:var(--fg-muted);padding-top:4px}.update-body>*:last-child{margin-bottom:0}.update .update-title{margin-top:0}
.math-block{overflow-x:auto;margin:0 0 16px;font-size:1.15em}.math-block math{display:block}
.diagram{margin:0 0 20px;border:1px solid var(--border);border-radius:var(--radius);overflow:hidden}.diagram figcaption{padding:6px 12px;font-size:12.5px;font-weight:600;color:var(--fg-muted);border-bottom:1px solid var(--border);text-align:left;margin:0}
.diagram pre{margin:0;padding:14px 16px;overflow:auto;background:var(--code-bg)}.diagram code{border:0;background:none;padding:0}
.diagram-drawing{padding:16px;overflow-x:auto;text-align:center}.diagram-drawing img{max-width:100%;height:auto;border:0;margin:0 auto}.diagram .diagram-dark{display:none}html[data-theme=dark] .diagram .diagram-dark{display:inline-block}html[data-theme=dark] .diagram .diagram-light{display:none}
.diagram-details{border-top:1px solid var(--border)}.diagram-details summary{padding:6px 12px;font-size:12.5px;color:var(--fg-muted);cursor:pointer}
.content-ref{gap:12px}.content-ref-text{display:flex;flex-direction:column;min-width:0}.content-ref-description{font-weight:400;font-size:14px;color:var(--fg-soft)}
.embed{border-style:solid;padding:0}.embed-card{display:flex;gap:14px;align-items:center;padding:14px 16px;color:var(--fg)}.embed-card:hover{text-decoration:none;background:var(--bg-soft)}
.embed-icon{flex:0 0 36px;height:36px;border-radius:10px;background:var(--accent-soft);position:relative}.embed-icon::after{content:"";position:absolute;inset:9px;background:var(--accent);-webkit-mask:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'%3E%3Cpath d='M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.7 1.7'/%3E%3Cpath d='M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.7-1.7'/%3E%3C/svg%3E") center/contain no-repeat;mask:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'%3E%3Cpath d='M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.7 1.7'/%3E%3Cpath d='M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.7-1.7'/%3E%3C/svg%3E") center/contain no-repeat}.embed-icon.play::after{-webkit-mask-image:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'%3E%3Cpolygon points='6 4 20 12 6 20 6 4'/%3E%3C/svg%3E");mask-image:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'%3E%3Cpolygon points='6 4 20 12 6 20 6 4'/%3E%3C/svg%3E")}
.embed-text{display:flex;flex-direction:column;min-width:0}.embed-title{font-weight:600;overflow-wrap:anywhere}.embed-provider{font-size:13px;color:var(--fg-muted)}
.embed iframe{display:block;width:100%;aspect-ratio:16/9;border:0}
.file-block{display:flex;gap:14px;align-items:center;margin:0 0 16px;padding:12px 16px;border:1px solid var(--border);border-radius:var(--radius);color:var(--fg)}.file-block:hover{border-color:var(--accent);text-decoration:none}
.file-icon{flex:0 0 22px;height:22px;background:var(--accent);-webkit-mask:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'%3E%3Cpath d='M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z'/%3E%3Cpath d='M14 2v6h6M12 18v-6M9 15l3 3 3-3'/%3E%3C/svg%3E") center/contain no-repeat;mask:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'%3E%3Cpath d='M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z'/%3E%3Cpath d='M14 2v6h6M12 18v-6M9 15l3 3 3-3'/%3E%3C/svg%3E") center/contain no-repeat}
.file-text{display:flex;flex-direction:column;min-width:0;flex:1}.file-name{font-weight:600;overflow-wrap:anywhere}.file-meta{font-size:13px;color:var(--fg-muted)}.file-download{font-size:13px;font-weight:600;color:var(--accent)}
pre.numbered code{counter-reset:line}pre.numbered .line::before{counter-increment:line;content:counter(line);display:inline-block;width:2.2em;margin-right:14px;text-align:right;color:var(--fg-muted);opacity:.7;-webkit-user-select:none;user-select:none}
.hljs-keyword,.hljs-selector-tag,.hljs-built_in,.hljs-doctag{color:#cf222e}.hljs-string,.hljs-regexp,.hljs-addition{color:#0a3069}.hljs-title,.hljs-title.function_,.hljs-section{color:#8250df}
.hljs-number,.hljs-literal,.hljs-attr,.hljs-attribute,.hljs-variable,.hljs-template-variable,.hljs-meta{color:#0550ae}.hljs-comment,.hljs-quote{color:#6e7781;font-style:italic}.hljs-type,.hljs-params{color:#953800}.hljs-name,.hljs-tag,.hljs-deletion{color:#116329}
html[data-theme=dark] .hljs-keyword,html[data-theme=dark] .hljs-selector-tag,html[data-theme=dark] .hljs-built_in,html[data-theme=dark] .hljs-doctag{color:#ff7b72}html[data-theme=dark] .hljs-string,html[data-theme=dark] .hljs-regexp{color:#a5d6ff}
html[data-theme=dark] .hljs-title,html[data-theme=dark] .hljs-section{color:#d2a8ff}html[data-theme=dark] .hljs-number,html[data-theme=dark] .hljs-literal,html[data-theme=dark] .hljs-attr,html[data-theme=dark] .hljs-attribute,html[data-theme=dark] .hljs-variable,html[data-theme=dark] .hljs-meta{color:#79c0ff}
html[data-theme=dark] .hljs-comment{color:#8b949e}html[data-theme=dark] .hljs-type,html[data-theme=dark] .hljs-params{color:#ffa657}html[data-theme=dark] .hljs-name,html[data-theme=dark] .hljs-tag{color:#7ee787}
.tree .branch>details>summary{display:flex;align-items:center;border-radius:8px}.tree .branch>details>summary>a{flex:1;min-width:0}
.tree .branch>details>summary::after{content:"";flex:0 0 14px;height:14px;margin:0 8px 0 4px;background:var(--fg-muted);-webkit-mask:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'%3E%3Cpath d='m9 6 6 6-6 6'/%3E%3C/svg%3E") center/contain no-repeat;mask:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'%3E%3Cpath d='m9 6 6 6-6 6'/%3E%3C/svg%3E") center/contain no-repeat;transition:transform .15s;cursor:pointer}.tree .branch>details[open]>summary::after{transform:rotate(90deg)}
.outline li.l3 a{padding-left:36px}
.search-icon{position:absolute;left:4px;top:3px;width:32px;height:32px;border:0;background:none;padding:0;cursor:pointer;border-radius:999px;color:var(--fg-muted);display:grid;place-items:center}.search .search-icon svg{position:static;display:block;pointer-events:none}
.search-close{position:absolute;right:12px;top:12px;width:34px;height:34px;border-radius:999px;border:1px solid var(--border);background:var(--bg);color:var(--fg);font-size:18px;line-height:1;cursor:pointer}.search-panel{position:relative}.search-panel input{padding-right:56px}
.method{display:inline-block;font:700 11.5px/1 var(--mono);letter-spacing:.03em;padding:4px 7px;border-radius:6px;margin-right:10px;vertical-align:middle;color:#fff;background:#6b7280}
.method-get{background:#0f8a4f}.method-post{background:#2563eb}.method-put{background:#b45309}.method-patch{background:#7c3aed}.method-delete{background:#dc2626}.method-head,.method-options{background:#475569}
.api-reference .api-operation{padding:8px 0 24px;border-bottom:1px solid var(--border);margin-bottom:24px}
.api-path{display:flex;align-items:center;flex-wrap:wrap;gap:4px;padding:8px 12px;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg-soft);margin:0 0 16px}.api-path code{border:0;background:none;overflow-wrap:anywhere}
.api-operation>h3 .method,.api-operation>h2 .method{display:none}
.api-meta{display:flex;flex-wrap:wrap;gap:8px;margin:0 0 20px}.api-version{font-size:13px;font-weight:600;padding:3px 10px;border-radius:999px;background:var(--accent-soft);color:var(--accent)}.api-server code{font-size:13px}
.api-section{font-size:15px;margin:22px 0 8px;display:flex;gap:10px;align-items:center}.api-subsection{font-size:13px;font-weight:650;color:var(--fg-soft);margin:10px 0 6px;display:flex;gap:8px;align-items:center}
code.media{font-size:12px;font-weight:500}
.api-props{list-style:none;margin:0 0 12px;padding:0;border:1px solid var(--border);border-radius:var(--radius)}.api-props .api-props{margin:8px 0 4px}
.api-prop,.api-security{padding:10px 14px;border-top:1px solid var(--border);margin:0!important}.api-prop:first-child,.api-security:first-child{border-top:0}
.prop-head{display:flex;flex-wrap:wrap;gap:8px;align-items:baseline}.prop-name{font-weight:600}.prop-head .type{font-size:13px;color:var(--fg-muted)}
.prop-head .required{font-size:12px;font-weight:600;color:var(--danger)}.prop-head .deprecated,.prop-head .variant{font-size:12px;color:var(--fg-muted);font-style:italic}
.prop-description{font-size:14.5px;color:var(--fg-soft);margin-top:2px}.prop-meta{font-size:13px;color:var(--fg-muted);margin:2px 0 0}
.content details.api-children{border:0;padding:0;margin:6px 0 0}.content details.api-children>summary{font-size:13px;font-weight:600;color:var(--accent)}
.content details.api-response{padding:0;margin:0 0 10px}.api-response>summary{display:flex;gap:10px;align-items:center;padding:10px 14px}.api-response-body{padding:0 14px 12px}
.status{font:700 12.5px/1 var(--mono);padding:4px 7px;border-radius:6px;background:var(--bg-muted)}.status-2xx{color:#0f8a4f}.status-4xx{color:var(--warning)}.status-5xx{color:var(--danger)}.status-3xx{color:var(--accent)}
.api-deprecated{display:inline-block;font-size:12px;font-weight:700;color:var(--warning);border:1px solid var(--warning);border-radius:6px;padding:1px 8px}
.api-auth{font-size:14px;color:var(--fg-soft)}.api-stale{font-size:14px;color:var(--warning)}
.api-schema{padding:12px 0;border-top:1px solid var(--border)}
.api-samples{margin-top:16px}.api-samples .code-block{margin:0;border:0;border-radius:0}.api-samples .tab-body{padding:0}
.try-it{display:none}.try-it.ready{display:block;margin:12px 0 0;border:1px solid var(--border);border-radius:var(--radius);padding:12px 14px}
.try-it label{display:block;font-size:13px;font-weight:600;margin:6px 0 2px}.try-it input,.try-it textarea{width:100%;font:13px var(--mono);padding:6px 8px;border:1px solid var(--border);border-radius:6px;background:var(--bg);color:var(--fg)}
.try-it .send{margin-top:10px;background:var(--accent);color:var(--on-accent);border:0;font-weight:600;cursor:pointer}.try-it pre{max-height:320px;overflow:auto;background:var(--code-bg);padding:10px;border-radius:8px;font-size:13px;white-space:pre-wrap}
.api-columns{display:block}.api-aside pre{max-height:440px}.api-aside pre code{white-space:pre-wrap;overflow-wrap:anywhere}.api-main,.api-aside{min-width:0}.api-aside .api-samples{margin:16px 0 0}
.prop-head>*{min-width:0}.prop-name,.prop-head .type,.prop-description,.prop-meta,.api-schema,.content-ref-title{overflow-wrap:anywhere}
.api-tags{display:grid;gap:10px;margin:0 0 20px}
.api-operation-list{list-style:none;padding:0;margin:0 0 20px;border:1px solid var(--border);border-radius:var(--radius)}.api-operation-list li{display:flex;flex-wrap:wrap;gap:4px 12px;align-items:center;padding:10px 14px;border-top:1px solid var(--border);margin:0}.api-operation-list li:first-child{border-top:0}
.api-operation-list a{display:flex;align-items:center;font-weight:600;min-width:0;overflow-wrap:anywhere}.api-operation-list code{font-size:13px;overflow-wrap:anywhere;min-width:0}
.try-it .cors{color:var(--warning);font-size:13px;margin:8px 0 0}.try-it .creds{margin:0 0 8px;padding:0 0 8px;border-bottom:1px solid var(--border)}.try-it .proxy{display:flex;gap:8px;align-items:center;font-weight:500}.try-it .proxy input{width:auto}
@media (min-width:1100px){.layout:has(.api-reference){grid-template-columns:280px minmax(0,1fr)}.layout:has(.api-reference) .outline{display:none}
.api-columns{display:grid;grid-template-columns:minmax(0,1.05fr) minmax(0,1fr);gap:28px;align-items:start}.api-aside .api-samples:first-child{margin-top:0}}
.brand{min-width:0}.brand>span:last-child{overflow:hidden;text-overflow:ellipsis}
@media (min-width:1181px){.layout.wide{grid-template-columns:280px minmax(0,1fr)}
.layout:not(.wide):not(:has(.api-reference)) .html-block:has(>[data-full-width=true]){margin-right:-288px;position:relative;z-index:1;background:var(--bg)}}
.drawer-backdrop{display:none}
@media (max-width:1180px){.layout{grid-template-columns:260px minmax(0,1fr)}.outline{display:none}}
@media (max-width:820px){.layout{grid-template-columns:1fr;gap:0}.sidebar{position:static;height:auto;padding:16px 0;border-bottom:1px solid var(--border)}
.menu-toggle{display:block}.sidebar-body{display:none}.menu-toggle[open]+.sidebar-body{display:block;padding-top:12px}
.menu-toggle summary{display:inline-flex;align-items:center;gap:8px;cursor:pointer;font-weight:600;font-size:14px;padding:7px 12px;border:1px solid var(--border);border-radius:10px;list-style:none}
.menu-toggle summary::-webkit-details-marker{display:none}.menu-toggle summary::before{content:"\\2630";font-size:15px;line-height:1}
.sidebar-links{display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px;margin:0 0 16px;font-size:14px}
.search kbd{display:none}.search input{padding-right:12px}.header-links{display:none}.page-title{font-size:30px}}
@media (max-width:820px){.layout .sidebar,.no-tabs .sidebar,.has-tabs .sidebar{position:static;height:auto;overflow:visible;padding:10px 0}
.menu-toggle[open]+.sidebar-body{display:block;position:fixed;z-index:40;top:0;left:0;bottom:0;width:min(320px,86vw);overflow:auto;padding:20px 16px 40px;background:var(--bg);border-right:1px solid var(--border);box-shadow:var(--shadow)}
.menu-toggle[open] .drawer-backdrop{display:block;position:fixed;inset:0;z-index:39;background:rgba(10,12,16,.45)}
.header-row{gap:10px;padding:0 14px}.header-row .search{flex:0 0 auto;max-width:none}.header-row .search input{display:none}.header-row .search-icon{position:static;width:38px;height:38px;border:1px solid var(--border);background:var(--bg-soft)}
.brand{flex:1}.columns{flex-direction:column}.column[class*=w-]{flex:1 1 auto}.update{grid-template-columns:1fr;gap:6px}
.search-dialog{padding:12px}.pager{grid-template-columns:1fr}.pager .next{grid-column:1}.footer-meta{margin-left:0;align-items:flex-start}main{padding-top:20px}}
`;
