/// The operator page itself: one HTML document with its style and script inline (the listener's
/// Content-Security-Policy allows exactly these two by hash). The script polls `/operator/stats` every
/// second, draws the charts as SVG, and asks `/operator/sign` for the builder's URLs; `#build?source=…&width=…`
/// fills the builder and builds at load.
enum OperatorPageHTML {
    static var page: String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
        <title>webimage serve · operator</title><style>\(style)</style></head>
        <body>\(body)<script>\(script)</script></body></html>
        """
    }

    static let style = #"""
    :root{--bg:#f6f7f9;--card:#fff;--ink:#1d2330;--mute:#6b7385;--line:#e3e6ec;--a:#2f6fdb;--b:#16a37f;--c:#e08a1e;--d:#c8413b;--e:#8a55d6}
    *{box-sizing:border-box}body{margin:0;font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;background:var(--bg);color:var(--ink)}
    header{display:flex;align-items:baseline;gap:16px;padding:14px 24px;background:#1d2330;color:#fff}
    header h1{font-size:18px;margin:0}header span{color:#b9c0cf;font-size:13px}
    main{padding:16px 24px;display:grid;gap:16px}
    section{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:14px 16px}
    h2{font-size:14px;margin:0 0 10px;color:var(--mute);text-transform:uppercase;letter-spacing:.04em}
    .tiles{display:grid;grid-template-columns:repeat(auto-fill,minmax(130px,1fr));gap:10px}
    .tile{border:1px solid var(--line);border-radius:6px;padding:8px 10px}
    .tile b{display:block;font-size:22px;font-variant-numeric:tabular-nums}.tile small{color:var(--mute)}
    .statuses{margin-top:10px;color:var(--mute)}.statuses code{color:var(--ink);margin-right:12px}
    .charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(280px,1fr));gap:12px}
    figure{margin:0;border:1px solid var(--line);border-radius:6px;padding:8px}
    figcaption{font-size:12px;color:var(--mute);display:flex;flex-wrap:wrap;justify-content:space-between;gap:0 8px}
    svg{width:100%;height:90px;display:block}.legend{white-space:nowrap}.legend i{font-style:normal;margin-left:8px}
    table{width:100%;border-collapse:collapse;font-size:13px}th,td{text-align:left;padding:4px 6px;border-bottom:1px solid var(--line);vertical-align:top}
    td.path{font-family:ui-monospace,monospace;word-break:break-all;max-width:420px}td.num{text-align:right;font-variant-numeric:tabular-nums}
    .bar{display:flex;height:10px;width:220px;border-radius:3px;overflow:hidden;background:var(--line)}
    .stages{font-size:11px;color:var(--mute)}
    .s-check{background:#9aa3b5}.s-cache{background:var(--e)}.s-queue{background:var(--d)}.s-download{background:var(--c)}
    .s-decode{background:var(--a)}.s-process{background:var(--b)}.s-encode{background:#1d2330}
    form{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:8px 12px;align-items:end}
    form label{display:grid;gap:2px;font-size:12px;color:var(--mute)}form .wide{grid-column:1/-1}
    input,select,button{font:inherit;padding:5px 7px;border:1px solid var(--line);border-radius:5px;background:#fff}
    button{background:var(--a);color:#fff;border-color:var(--a);cursor:pointer}
    .out{margin-top:12px}.out code{display:block;font-family:ui-monospace,monospace;word-break:break-all;background:var(--bg);padding:6px 8px;border-radius:5px}
    .pair{display:grid;grid-template-columns:1fr 1fr;gap:12px;margin-top:10px}.pair figure img{max-width:100%;max-height:320px;display:block;margin:auto}
    .note{color:var(--mute);font-size:12px}.error{color:var(--d)}
    """#

    static let body = #"""
    <header><h1>webimage serve · operator</h1><span id="status">connecting…</span></header>
    <main>
    <section><h2>Now</h2><div class="tiles">
    <div class="tile"><b id="requests-total">–</b><small>requests answered</small></div>
    <div class="tile"><b id="memory-hits">–</b><small>memory hits</small></div>
    <div class="tile"><b id="disk-hits">–</b><small>disk hits</small></div>
    <div class="tile"><b id="misses">–</b><small>misses</small></div>
    <div class="tile"><b id="coalesced">–</b><small>coalesced</small></div>
    <div class="tile"><b id="in-flight">–</b><small>in flight</small></div>
    <div class="tile"><b id="queued">–</b><small>queued (limit <span id="queue-limit">–</span>)</small></div>
    <div class="tile"><b id="running">–</b><small>on workers (of <span id="workers">–</span>)</small></div>
    <div class="tile"><b id="source-bytes">–</b><small>origin bytes (<span id="source-downloads">–</span> downloads)</small></div>
    <div class="tile"><b id="rejected">–</b><small>rejected (429)</small></div>
    </div><div class="statuses" id="statuses"></div></section>
    <section><h2>Last minutes</h2><div class="charts">
    <figure><figcaption><span>requests / s</span><span class="legend" id="legend-requests"></span></figcaption><svg id="chart-requests" viewBox="0 0 300 90" preserveAspectRatio="none"></svg></figure>
    <figure><figcaption><span>cache / s</span><span class="legend" id="legend-cache"></span></figcaption><svg id="chart-cache" viewBox="0 0 300 90" preserveAspectRatio="none"></svg></figure>
    <figure><figcaption><span>queue and in flight</span><span class="legend" id="legend-load"></span></figcaption><svg id="chart-load" viewBox="0 0 300 90" preserveAspectRatio="none"></svg></figure>
    <figure><figcaption><span>origin bytes / s</span><span class="legend" id="legend-bytes"></span></figcaption><svg id="chart-bytes" viewBox="0 0 300 90" preserveAspectRatio="none"></svg></figure>
    </div></section>
    <section><h2>Slowest recent requests</h2><table><thead><tr><th>ended</th><th>path (signature hidden)</th><th>status</th><th>cache</th><th class="num">ms</th><th>stages</th></tr></thead>
    <tbody id="slowest"><tr><td colspan="6" class="note">none yet</td></tr></tbody></table></section>
    <section><h2>URL builder</h2><form id="builder">
    <label class="wide">source URL<input name="source" required placeholder="https://images.example/photo.jpg"></label>
    <label>resize<select name="resize"><option>fit</option><option>fill</option><option>fill-down</option><option>force</option><option>auto</option></select></label>
    <label>width<input name="width" type="number" min="0" value="300"></label>
    <label>height<input name="height" type="number" min="0" value="200"></label>
    <label>gravity<select name="gravity"><option value="">default</option><option value="ce">centre</option><option value="sm">smart</option><option value="no">north</option><option value="so">south</option><option value="ea">east</option><option value="we">west</option></select></label>
    <label>format<select name="format"><option value="">negotiated</option><option>jpg</option><option>png</option><option>webp</option><option>avif</option><option>gif</option></select></label>
    <label>quality<input name="quality" type="number" min="1" max="100" placeholder="default"></label>
    <button type="submit">Build</button></form>
    <div class="note" id="builder-mode"></div>
    <div class="out" id="built" hidden><code id="result-path"></code><p><a id="result-link" target="_blank" rel="noreferrer">open the result</a></p>
    <div class="pair"><figure><figcaption><span>original</span><span id="original-size"></span></figcaption><img id="original-img" alt="original"></figure>
    <figure><figcaption><span>result</span><span id="result-size"></span></figcaption><img id="result-img" alt="result"></figure></div></div>
    <p class="error" id="builder-error"></p></section>
    </main>
    """#

    static let script = #"""
    "use strict";
    const $ = (id) => document.getElementById(id);
    const STAGES = ["check", "cache", "queue", "download", "decode", "process", "encode"];
    let lastSequence = 0, samples = [], state = null;
    const number = (n) => n.toLocaleString("en-US");
    function bytes(n) {
      const units = ["B", "KB", "MB", "GB", "TB"]; let i = 0;
      while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
      return (i ? n.toFixed(1) : String(n)) + " " + units[i];
    }
    function set(id, text) { const e = $(id); if (e) e.textContent = text; }
    function imageBase() {
      if (!state) return "";
      return state.builder.imageBase || (location.protocol + "//" + location.hostname + ":" + state.builder.imagePort);
    }
    function rates(key) {
      const out = [];
      for (let i = 1; i < samples.length; i++) {
        const a = samples[i - 1], b = samples[i], dt = Math.max(b.time - a.time, 0.001);
        out.push(Math.max(0, (b[key] - a[key]) / dt));
      }
      return out;
    }
    function chart(id, legend, series, format) {
      const svg = $(id), w = 300, h = 90, n = Math.max(...series.map((s) => s.values.length), 2);
      const max = Math.max(1e-9, ...series.flatMap((s) => s.values));
      let html = `<line x1="0" y1="${h - 0.5}" x2="${w}" y2="${h - 0.5}" stroke="#e3e6ec"/>`;
      for (const s of series) {
        const pts = s.values.map((v, i) => `${((i + n - s.values.length) / (n - 1) * w).toFixed(1)},${(h - 4 - v / max * (h - 12)).toFixed(1)}`);
        if (pts.length) html += `<polyline fill="none" stroke="${s.color}" stroke-width="1.5" points="${pts.join(" ")}"/>`;
      }
      html += `<text x="4" y="11" font-size="10" fill="#6b7385">max ${format(max)}</text>`;
      svg.innerHTML = html;
      $(legend).innerHTML = series.map((s) => `<i style="color:${s.color}">■ ${s.name} ${format(s.values.length ? s.values[s.values.length - 1] : 0)}</i>`).join("");
    }
    function escapeHTML(text) {
      return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
    }
    function render(s) {
      state = s;
      const c = s.counters, g = s.gauges;
      const total = Object.values(c.requests).reduce((a, b) => a + b, 0);
      set("requests-total", number(total)); set("memory-hits", number(c.memoryHits)); set("disk-hits", number(c.diskHits));
      set("misses", number(c.misses)); set("coalesced", number(c.coalesced)); set("in-flight", number(g.inFlight));
      set("queued", number(g.queued)); set("queue-limit", number(g.queueLimit)); set("running", number(g.running));
      set("workers", number(g.workers)); set("source-bytes", bytes(c.sourceBytes)); set("source-downloads", number(c.sourceDownloads));
      set("rejected", number(c.rejected));
      $("statuses").innerHTML = "by status: " + (Object.keys(c.requests).sort().map((k) =>
        `<code id="status-${escapeHTML(k)}">${escapeHTML(k)}: ${number(c.requests[k])}</code>`).join("") || "none yet");
      samples = samples.concat(s.history).slice(-s.historyLength);
      if (s.history.length) lastSequence = s.history[s.history.length - 1].sequence;
      const perSecond = (v) => v.toFixed(v < 10 ? 1 : 0);
      chart("chart-requests", "legend-requests", [
        { name: "all", color: "#2f6fdb", values: rates("requests") },
        { name: "4xx", color: "#e08a1e", values: rates("clientErrors") },
        { name: "5xx", color: "#c8413b", values: rates("serverErrors") }], perSecond);
      chart("chart-cache", "legend-cache", [
        { name: "memory", color: "#16a37f", values: rates("memoryHits") },
        { name: "disk", color: "#8a55d6", values: rates("diskHits") },
        { name: "miss", color: "#c8413b", values: rates("misses") }], perSecond);
      chart("chart-load", "legend-load", [
        { name: "in flight", color: "#2f6fdb", values: samples.map((x) => x.inFlight) },
        { name: "queued", color: "#c8413b", values: samples.map((x) => x.queued) }], (v) => v.toFixed(0));
      chart("chart-bytes", "legend-bytes", [{ name: "", color: "#e08a1e", values: rates("sourceBytes") }], (v) => bytes(Math.round(v)) + "/s");
      renderSlowest(s.slowest);
      const b = s.builder;
      set("builder-mode", b.signs ? `signs with the service's key; links go to ${imageBase()}`
        : b.acceptsUnsigned ? `makes unsigned URLs (the service accepts them); links go to ${imageBase()}`
        : b.keyed ? "signing is off on this listener: start webimage serve with --operator-signing"
        : "the service has no key and refuses unsigned URLs");
    }
    function renderSlowest(list) {
      const body = $("slowest");
      if (!list.length) { body.innerHTML = `<tr><td colspan="6" class="note">none in the last minutes</td></tr>`; return; }
      body.innerHTML = list.map((r) => {
        const total = Math.max(r.totalMilliseconds, 0.001);
        const parts = STAGES.filter((k) => r.stages[k] !== undefined);
        const bar = parts.map((k) => `<span class="s-${k}" style="width:${(r.stages[k] / total * 100).toFixed(1)}%" title="${k} ${r.stages[k].toFixed(1)} ms"></span>`).join("");
        const text = parts.map((k) => `${k} ${r.stages[k].toFixed(1)}`).join(" · ");
        return `<tr><td>${new Date(r.endedAt * 1000).toLocaleTimeString()}</td><td class="path">${escapeHTML(r.path)}</td>` +
          `<td>${r.status}</td><td>${escapeHTML(r.cache || "–")}</td><td class="num">${r.totalMilliseconds.toFixed(1)}</td>` +
          `<td><div class="bar">${bar}</div><div class="stages">${escapeHTML(text)}</div></td></tr>`;
      }).join("");
    }
    async function poll() {
      try {
        const response = await fetch("/operator/stats?since=" + lastSequence, { cache: "no-store" });
        const s = await response.json();
        render(s);
        set("status", "live · " + new Date(s.time * 1000).toLocaleTimeString());
        document.body.dataset.polls = String(Number(document.body.dataset.polls || 0) + 1);
      } catch (error) {
        set("status", "disconnected: " + error);
      }
      setTimeout(poll, state ? state.sampleInterval * 1000 : 1000);
    }
    function showSize(img, label) {
      img.onload = () => { set(label, `${img.naturalWidth}×${img.naturalHeight}`); img.dataset.size = `${img.naturalWidth}x${img.naturalHeight}`; };
      img.onerror = () => { set(label, "failed to load"); img.dataset.size = "error"; };
    }
    async function build(form) {
      set("builder-error", "");
      const data = new FormData(form), fields = { source: data.get("source") };
      for (const key of ["resize", "gravity", "format"]) if (data.get(key)) fields[key] = data.get(key);
      for (const key of ["width", "height", "quality"]) if (data.get(key)) fields[key] = Number(data.get(key));
      try {
        if (!state) await new Promise((resolve) => setTimeout(resolve, 500));
        const response = await fetch("/operator/sign", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(fields) });
        const answer = await response.json();
        if (!response.ok) { set("builder-error", answer.error || ("error " + response.status)); $("built").hidden = true; return; }
        const url = imageBase() + answer.path;
        set("result-path", url);
        $("result-link").href = url;
        const result = $("result-img"), original = $("original-img");
        showSize(result, "result-size"); showSize(original, "original-size");
        result.src = url;
        if (answer.originalPath) original.src = imageBase() + answer.originalPath; else set("original-size", "not available");
        $("built").hidden = false;
      } catch (error) {
        set("builder-error", String(error));
      }
    }
    $("builder").addEventListener("submit", (event) => { event.preventDefault(); build(event.target); });
    function buildFromFragment() {
      if (!location.hash.startsWith("#build?")) return;
      const form = $("builder"), params = new URLSearchParams(location.hash.slice(7));
      for (const [key, value] of params) if (form.elements[key]) form.elements[key].value = value;
      build(form);
    }
    poll().then(buildFromFragment);
    """#
}
