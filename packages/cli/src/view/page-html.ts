/** The viewer's single HTML page: layout and style; `page/main.ts` fills it in. */

/** The `<meta>` name under which the page finds its token. */
export const TOKEN_META = "lance-nd-token";

/**
 * The page for the table at `uri`, carrying `token` for its script and API
 * calls (the script's URL and a `<meta>` tag).
 */
export function pageHtml(token: string, uri: string): string {
  const title = `lance-nd view: ${escapeHtml(uri)}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="${TOKEN_META}" content="${escapeHtml(token)}">
<link rel="icon" href="data:,">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>
  body { margin: 0; font: 13px/1.4 system-ui, sans-serif; color: #222; display: grid; grid-template-columns: 360px 1fr; grid-template-rows: auto 1fr; min-height: 100vh; }
  header { grid-column: 1 / 3; padding: 8px 14px; background: #2b2d42; color: #fff; font-weight: 600; }
  aside { padding: 10px 14px; border-right: 1px solid #ddd; overflow: auto; max-height: calc(100vh - 40px); }
  main { padding: 10px 14px; min-width: 0; }
  h2 { font-size: 13px; margin: 14px 0 4px; text-transform: uppercase; letter-spacing: .04em; color: #555; }
  table { border-collapse: collapse; width: 100%; }
  td, th { text-align: left; padding: 1px 6px 1px 0; vertical-align: top; }
  th { font-weight: 600; color: #555; }
  #variables { table-layout: fixed; }
  #variables th { width: 40%; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  #variables td { overflow-wrap: anywhere; }
  code, .mono { font-family: ui-monospace, monospace; font-size: 12px; }
  #datasets li { cursor: pointer; padding: 2px 4px; list-style: none; }
  #datasets li.selected { background: #e0e7ff; }
  #datasets li[hidden] { display: none; }
  #datasets { padding: 0; margin: 4px 0; }
  #filter { width: 100%; box-sizing: border-box; font-family: ui-monospace, monospace; }
  .error { color: #b00020; white-space: pre-wrap; }
  #controls { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; margin-bottom: 8px; }
  #sliders .dim { margin: 2px 0; }
  #sliders input { width: 320px; vertical-align: middle; margin-right: 8px; }
  #sliders .range { margin-left: 10px; color: #666; }
  #plot { display: flex; gap: 10px; align-items: flex-start; }
  #heatmap { border: 1px solid #5a5a5a; cursor: crosshair; image-rendering: pixelated; flex: 0 1 auto; min-width: 0; height: auto; }
  #colorbar-box { display: flex; gap: 4px; flex: none; }
  #colorbar { border: 1px solid #5a5a5a; width: 20px; }
  #colorbar-labels { white-space: nowrap; display: flex; flex-direction: column; justify-content: space-between; font-family: ui-monospace, monospace; }
  #readout { min-height: 1.4em; margin-top: 6px; font-family: ui-monospace, monospace; }
</style>
</head>
<body>
<header>lance-nd view <span class="mono">${escapeHtml(uri)}</span></header>
<aside>
  <h2>Table</h2>
  <table id="table-info"></table>
  <label>version <select id="version"></select></label>
  <h2>Variables of the dataset</h2>
  <table id="variables"></table>
  <h2>Global attributes</h2>
  <table id="global-attrs"></table>
  <h2>Datasets</h2>
  <input id="filter" placeholder="filter (SQL, as scan --where), Enter to apply" spellcheck="false">
  <div id="filter-error" class="error" role="alert"></div>
  <ul id="datasets"></ul>
</aside>
<main>
  <div id="controls">
    <label>variable <select id="variable"></select></label>
    <label>colours <select id="colormap"></select></label>
    <button id="reset-zoom" type="button" title="or double-click the map">reset zoom</button>
    <span id="status" class="mono"></span>
  </div>
  <div id="sliders"></div>
  <div id="plot">
    <canvas id="heatmap" width="720" height="360"></canvas>
    <div id="colorbar-box"><canvas id="colorbar" width="20" height="360"></canvas><div id="colorbar-labels"></div></div>
  </div>
  <div id="readout"></div>
  <div id="view-error" class="error" role="alert"></div>
</main>
<script src="/assets/page.js?token=${encodeURIComponent(token)}"></script>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
