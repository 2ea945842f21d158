// The dashboard's stylesheet and its one small script, as strings bundled into the binary and
// served at /dashboard/assets/dashboard.css and /dashboard/assets/dashboard.js (no build step:
// esbuild bundles the strings as they are). The CSP allows only these ('self'): no inline style
// or script, so charts and bars are styled through classes.

export const DASHBOARD_CSS = `
:root { --fg: #1d2330; --muted: #5b6475; --line: #d9dde5; --bg: #f6f7f9; --card: #fff; --accent: #1f5fbf;
  --ok: #1d7f47; --bad: #b3261e; --warn: #9a6700; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: var(--bg); line-height: 1.45; }
a { color: var(--accent); }
header.top { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; padding: .6rem 1.2rem; background: #17202f; color: #fff; }
header.top a { color: #fff; text-decoration: none; }
header.top .brand { font-weight: 700; }
header.top nav ul { display: flex; flex-wrap: wrap; gap: .3rem 1rem; margin: 0; padding: 0; list-style: none; }
header.top nav a[aria-current="page"] { text-decoration: underline; }
header.top .who { margin-left: auto; display: flex; gap: .6rem; align-items: center; }
header.top .who button { background: transparent; color: #fff; border: 1px solid #8a94a8; border-radius: 4px; padding: .15rem .6rem; cursor: pointer; }
nav.campaign ul { display: flex; flex-wrap: wrap; gap: .3rem 1rem; margin: 0 0 1rem; padding: 0; list-style: none; }
nav.campaign a[aria-current="page"] { font-weight: 700; text-decoration: none; color: var(--fg); }
main { padding: 1rem 1.2rem 3rem; max-width: 80rem; margin: 0 auto; }
h1 { font-size: 1.5rem; margin: .4rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.6rem 0 .6rem; }
section.card, .card { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: .8rem 1rem; margin-bottom: 1rem; }
table { border-collapse: collapse; width: 100%; background: var(--card); }
th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; background: #eef0f4; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.muted { color: var(--muted); }
.ok { color: var(--ok); }
.bad { color: var(--bad); }
.warn { color: var(--warn); }
.overdue { color: var(--bad); font-weight: 600; }
.nowrap { white-space: nowrap; }
code.sha256 { word-break: break-all; }
ul.files { margin: 0; padding-left: 1rem; }
.badge { display: inline-block; padding: 0 .45rem; border-radius: 999px; font-size: .85em; border: 1px solid currentColor; }
.figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr)); gap: .8rem; margin: 0 0 1rem; padding: 0; }
.figures div { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: .6rem .8rem; }
.figures dt { color: var(--muted); font-size: .85rem; }
.figures dd { margin: 0; font-size: 1.35rem; font-weight: 600; font-variant-numeric: tabular-nums; }
form.inline { display: inline; }
form.filters { display: flex; flex-wrap: wrap; gap: .6rem 1rem; align-items: end; margin-bottom: 1rem; }
form.filters label { display: flex; flex-direction: column; font-size: .9rem; gap: .15rem; }
input, select, button { font: inherit; }
input, select { padding: .25rem .4rem; border: 1px solid #aab1bf; border-radius: 4px; }
button { padding: .3rem .8rem; border-radius: 4px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); }
button.danger { background: var(--bad); border-color: var(--bad); }
.notice { padding: .6rem .9rem; border-radius: 6px; border: 1px solid var(--line); background: #fff; margin-bottom: 1rem; }
.notice.error { border-color: var(--bad); color: var(--bad); }
.notice.success { border-color: var(--ok); color: var(--ok); }
.secret { font-family: ui-monospace, monospace; background: #fff7d6; padding: .4rem .6rem; border: 1px dashed var(--warn); word-break: break-all; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .92em; }
svg.chart { width: 100%; height: auto; max-height: 16rem; background: var(--card); border: 1px solid var(--line); border-radius: 6px; }
svg.chart .approved { fill: var(--ok); }
svg.chart .rejected { fill: var(--bad); }
svg.chart .pending { fill: #8a94a8; }
svg.chart .axis { stroke: var(--line); }
svg.chart text { font-size: 10px; fill: var(--muted); }
.legend span::before { content: ""; display: inline-block; width: .7rem; height: .7rem; margin: 0 .3rem 0 .8rem; vertical-align: -1px; }
.legend .approved::before { background: var(--ok); }
.legend .rejected::before { background: var(--bad); }
.legend .pending::before { background: #8a94a8; }
meter { width: 8rem; }
pre.clause { white-space: pre-wrap; background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: .8rem 1rem; max-width: 60rem; }
ol.timeline { list-style: none; padding: 0; border-left: 2px solid var(--line); margin-left: .4rem; }
ol.timeline > li { position: relative; padding: 0 0 .9rem 1rem; }
ol.timeline > li::before { content: ""; position: absolute; left: -.42rem; top: .35rem; width: .7rem; height: .7rem; border-radius: 50%; background: var(--accent); }
.pager { display: flex; gap: 1rem; margin-top: .8rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.actions { display: grid; grid-template-columns: repeat(auto-fill, minmax(19rem, 1fr)); gap: .8rem; margin-bottom: 1rem; }
.actions form { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin: 0; }
.actions label { display: flex; flex-direction: column; font-size: .9rem; gap: .15rem; }
ul.pager { list-style: none; padding: 0; margin: 0 0 .6rem; }
.pager a[aria-current="page"] { font-weight: 700; color: var(--fg); text-decoration: none; }
`;

/**
 * The live refresh: every 5 s, each element with data-live="<id>" is replaced by the element of the
 * same id in a fresh copy of the page (fetched with the session's cookie, same origin). Without
 * JavaScript the page is complete and a reload shows the same. Paused while the tab is hidden.
 * Each fetch says it is automatic (x-ces-live: 1): a tab left open is not use of the session, which
 * still ends after 12 hours without the operator. Once it has ended (the fetch was sent on to the
 * sign-in page), the page reloads, so the operator sees the sign-in page instead of frozen figures.
 */
/** The request header of the live page's automatic refresh: not use of the session (sessions.ts). */
export const LIVE_REFRESH_HEADER = 'x-ces-live';

export const DASHBOARD_JS = `
(function () {
  var regions = document.querySelectorAll('[data-live]');
  if (regions.length === 0 || !window.fetch || !window.DOMParser) return;
  var every = Number(document.body.getAttribute('data-refresh-ms')) || 5000;
  function refresh() {
    if (document.hidden) return;
    fetch(location.href, { credentials: 'same-origin', headers: { '${LIVE_REFRESH_HEADER}': '1' } })
      .then(function (res) {
        if (res.redirected) { location.reload(); return null; }
        return res.ok ? res.text() : null;
      })
      .then(function (text) {
        if (text === null) return;
        var fresh = new DOMParser().parseFromString(text, 'text/html');
        document.querySelectorAll('[data-live]').forEach(function (old) {
          var next = fresh.querySelector('[data-live="' + old.getAttribute('data-live') + '"]');
          if (next) old.replaceWith(document.importNode(next, true));
        });
        var stamp = document.querySelector('[data-live-stamp]');
        if (stamp) stamp.textContent = new Date().toLocaleTimeString();
      })
      .catch(function () {});
  }
  setInterval(refresh, every);
})();
(function () {
  // Copy buttons beside a secret shown once (a new key, a new webhook secret): hidden without
  // JavaScript, where the secret is still selectable text.
  document.querySelectorAll('button[data-copy]').forEach(function (button) {
    var source = document.getElementById(button.getAttribute('data-copy'));
    if (!source) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      var text = source.textContent.trim();
      var done = function () { button.textContent = 'Copied'; };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, function () { select(source); });
      } else {
        select(source);
        if (document.execCommand && document.execCommand('copy')) done();
      }
    });
  });
  function select(node) {
    var range = document.createRange();
    range.selectNodeContents(node);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
})();
`;
