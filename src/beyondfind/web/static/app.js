// beyondfind reader: library → book → reading view with a side panel of descriptive passages.
// All document text is inserted with textContent / text nodes, never as HTML.
"use strict";

const $ = (sel) => document.querySelector(sel);
const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "dataset") Object.assign(node.dataset, v);
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node[k] = v;
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
};

async function api(path, options) {
  const res = await fetch(path, options);
  const body = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) throw new Error(body.error || res.statusText);
  return body;
}

const state = { doc: null, passages: [], entity: null };

// ---- library ------------------------------------------------------------------------------
async function showLibrary() {
  document.body.classList.remove("reading");
  $("#panel").hidden = true;
  const view = $("#view");
  view.replaceChildren(el("h1", {}, "Library"));
  const status = el("p", { className: "muted" }, "Loading…");
  view.append(status);
  const { documents } = await api("/api/documents");
  status.textContent = documents.length ? "" : "No documents yet: upload one.";
  const list = el("ul", { className: "doclist" });
  for (const d of documents) {
    list.append(el("li", {}, el("a", { href: `#/doc/${d.id}`, className: "doc-link" }, d.title),
      " ", el("span", { className: "muted" }, `${d.passages} passages · ${d.format}`)));
  }
  const input = el("input", { type: "file", id: "upload-file", accept: ".txt,.epub,.html,.htm,.md,.csv,.jsonl" });
  const msg = el("span", { className: "muted", id: "upload-status" });
  const upload = el("form", { className: "upload", onsubmit: async (e) => {
    e.preventDefault();
    if (!input.files.length) return;
    const form = new FormData();
    form.append("file", input.files[0]);
    msg.className = "muted";
    msg.textContent = "Uploading…";
    try {
      const res = await api("/api/documents", { method: "POST", body: form });
      const id = res.document ? res.document.id : await followJob(res.job, msg);
      location.hash = `#/doc/${id}`;
    } catch (err) { msg.textContent = err.message; msg.className = "error"; }
  } }, "Add a document: ", input, " ", el("button", { type: "submit" }, "Upload"), " ", msg);
  view.append(list, upload);
  // uploads still being indexed (e.g. started before a reload) show their progress here too
  const { jobs } = await api("/api/jobs?limit=10");
  const pending = jobs.filter((j) => j.state === "queued" || j.state === "running");
  if (pending.length) {
    if (!documents.length) status.textContent = "Your upload is being indexed; it is listed here when done.";
    const box = el("ul", { className: "jobs" });
    for (const j of pending) {
      const line = el("span", { className: "muted" });
      box.append(el("li", {}, line));
      followJob(j, line).then(() => showLibrary(), () => {});
    }
    view.append(box);
  }
}

function jobText(job) {
  if (job.state === "queued") return `${job.name}: waiting to be indexed…`;
  const pct = job.total ? Math.floor((100 * job.done) / job.total) : 0;
  return `Indexing ${job.name}: ${pct}% (${job.done} of ${job.total} passages)`;
}

// Poll an indexing job until it is done (resolves to the document id) or failed (rejects).
async function followJob(job, line) {
  for (;;) {
    if (job.state === "done") return job.document_id;
    if (job.state === "failed") throw new Error(job.error || "indexing failed");
    line.textContent = jobText(job);
    await new Promise((r) => setTimeout(r, 1000));
    job = await api(`/api/jobs/${job.id}`);
  }
}

// ---- reader -------------------------------------------------------------------------------
function markEntities(text, pattern, canonical) {
  const frag = document.createDocumentFragment();
  if (!pattern) { frag.append(text); return frag; }
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > last) frag.append(text.slice(last, m.index));
    frag.append(el("span", { className: "ent", dataset: { entity: canonical.get(m[0]) || m[0] } }, m[0]));
    last = m.index + m[0].length;
  }
  frag.append(text.slice(last));
  return frag;
}

async function showDocument(id) {
  document.body.classList.add("reading");
  const view = $("#view");
  view.replaceChildren(el("p", { className: "muted" }, "Loading…"));
  const [info, { passages }, { entities }] = await Promise.all([
    api(`/api/documents/${id}`), api(`/api/documents/${id}/passages`), api(`/api/documents/${id}/entities?min_mentions=3`)]);
  state.doc = info; state.passages = passages;
  const canonical = new Map();
  for (const e of entities.filter((e) => e.type === "PER")) {
    for (const form of [e.name, ...e.aliases]) if (form.length > 1 && !canonical.has(form)) canonical.set(form, e.name);
  }
  const forms = [...canonical.keys()].sort((a, b) => b.length - a.length)
    .map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = forms.length ? new RegExp(`(?<![\\p{L}])(?:${forms.join("|")})(?![\\p{L}])`, "gu") : null;
  const reader = el("article", { id: "reader" });
  for (const p of passages) {
    reader.append(el("p", { id: `p-${p.index}`, dataset: { start: p.start, end: p.end } },
      markEntities(p.text, pattern, canonical)));
  }
  view.replaceChildren(el("h1", {}, info.title), reader);
  reader.addEventListener("click", (e) => {
    const ent = e.target.closest(".ent");
    if (ent && !window.getSelection().toString().trim()) openPanel(ent.dataset.entity);
  });
  reader.addEventListener("mouseup", () => {
    const sel = window.getSelection().toString().trim();
    if (sel && sel.length <= 80) openPanel(sel);
  });
}

function readingPosition() {
  // end offset of the first paragraph still visible at the top of the reader
  for (const p of document.querySelectorAll("#reader p")) {
    if (p.getBoundingClientRect().bottom > 60) return Number(p.dataset.end);
  }
  return null;
}

function highlighted(r) {
  const marks = [...(r.highlights?.names || []).map(([a, b]) => [a, b, "name"]),
                 ...(r.highlights?.pronouns || []).map(([a, b]) => [a, b, "pronoun"])].sort((x, y) => x[0] - y[0]);
  const frag = document.createDocumentFragment();
  let pos = r.start;
  for (const [a, b, kind] of marks) {
    if (a < pos) continue;
    frag.append(r.text.slice(pos - r.start, a - r.start), el("mark", { className: kind }, r.text.slice(a - r.start, b - r.start)));
    pos = b;
  }
  frag.append(r.text.slice(pos - r.start));
  return frag;
}

async function openPanel(entity) {
  state.entity = entity;
  const panel = $("#panel");
  panel.hidden = false;
  $("#panel-title").textContent = entity;
  const status = $("#panel-status");
  const list = $("#results");
  list.replaceChildren();
  status.textContent = "Searching…";
  status.className = "muted";
  const params = new URLSearchParams({ entity, top: "8", explain: "true" });
  if ($("#nospoil").checked) {
    const pos = readingPosition();
    if (pos !== null) params.set("before", String(pos));
  }
  try {
    const { results } = await api(`/api/documents/${state.doc.id}/rank?${params}`);
    if (state.entity !== entity) return;
    status.textContent = results.length ? "" : "Nothing yet: read on.";
    for (const r of results) {
      const why = el("details", { className: "why" }, el("summary", {}, "why?"),
        el("ul", {}, ...(r.explain?.reasons || []).map((x) => el("li", {}, x.description))));
      why.addEventListener("click", (e) => e.stopPropagation());
      const item = el("li", { className: "result", dataset: { passage: r.passage, start: r.start } },
        el("div", { className: "muted" }, `${r.chapter || ""}`), el("div", { className: "text" }, highlighted(r)), why);
      item.addEventListener("click", () => {
        const target = document.getElementById(`p-${r.passage}`);
        if (target) { target.scrollIntoView({ block: "center" }); target.classList.add("flash");
          setTimeout(() => target.classList.remove("flash"), 1500); }
      });
      list.append(item);
    }
  } catch (err) { status.textContent = err.message; status.className = "error"; }
}

// ---- news ---------------------------------------------------------------------------------
async function showNews(thread) {
  document.body.classList.remove("reading");
  $("#panel").hidden = true;
  const view = $("#view");
  view.replaceChildren(el("h1", {}, thread ? `News: ${thread}` : "News threads"));
  if (!thread) {
    const { threads } = await api("/api/news/threads");
    const list = el("ul", { className: "threads" });
    for (const t of threads) list.append(el("li", {}, el("a", { href: `#/news/${encodeURIComponent(t.name)}` }, t.name),
      ` (${t.articles} articles)`));
    view.append(threads.length ? list : el("p", { className: "muted" }, "No threads yet: post articles with the API."));
    return;
  }
  const { articles } = await api(`/api/news/threads/${encodeURIComponent(thread)}/articles`);
  for (const a of articles) {
    const box = el("section", { className: "article" }, el("h3", {}, a.title || a.id), el("div", { className: "muted" }, a.date || "no date"));
    view.append(box);
    api(`/api/news/threads/${encodeURIComponent(thread)}/articles/${encodeURIComponent(a.id)}`).then((full) => {
      box.append(el("ol", {}, ...full.entities.slice(0, 5).map((e) => el("li", {}, e.entity))));
    });
  }
}

// ---- routing ------------------------------------------------------------------------------
async function route() {
  const hash = location.hash || "#/";
  try {
    let m;
    if ((m = hash.match(/^#\/doc\/(\d+)/))) await showDocument(Number(m[1]));
    else if ((m = hash.match(/^#\/news\/(.+)/))) await showNews(decodeURIComponent(m[1]));
    else if (hash.startsWith("#/news")) await showNews(null);
    else await showLibrary();
  } catch (err) {
    $("#view").replaceChildren(el("p", { className: "error" }, err.message));
  }
}

$("#panel-close").addEventListener("click", () => { $("#panel").hidden = true; });
$("#nospoil").addEventListener("change", () => { if (state.entity) openPanel(state.entity); });
window.addEventListener("hashchange", route);
route();
