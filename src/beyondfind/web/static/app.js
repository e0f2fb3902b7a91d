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
    const remove = el("button", { className: "delete", title: `Remove ${d.title} from the library`,
      onclick: async () => {
        if (!confirm(`Remove “${d.title}” (${d.name}) from the library?`)) return;
        try { await api(`/api/documents/${d.id}`, { method: "DELETE" }); localStorage.removeItem(`bf-pos-${d.id}`); showLibrary(); }
        catch (err) { status.textContent = err.message; status.className = "error"; }
      } }, "Remove");
    list.append(el("li", {}, el("a", { href: `#/doc/${d.id}`, className: "doc-link" }, d.title),
      " ", el("span", { className: "muted" }, `${d.name} · ${d.format} · ${d.passages} passages · added ${(d.added_at || "").slice(0, 10)}`),
      " ", remove));
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

const jobSeen = new Map();   // job id → [time, done] when first seen running, for the time left

function jobText(job) {
  if (job.state === "queued") return `${job.name}: waiting to be indexed…`;
  const pct = job.total ? Math.floor((100 * job.done) / job.total) : 0;
  let left = "";
  const now = Date.now();
  if (!jobSeen.has(job.id)) jobSeen.set(job.id, [now, job.done]);
  const [t0, d0] = jobSeen.get(job.id);
  if (job.done > d0 && now - t0 > 2000) {
    const secs = ((now - t0) / (job.done - d0)) * (job.total - job.done) / 1000;
    left = secs < 90 ? `, about ${Math.max(5, Math.round(secs / 5) * 5)} s left` : `, about ${Math.round(secs / 60)} min left`;
  }
  return `Indexing ${job.name}: ${pct}% (${job.done} of ${job.total} passages${left})`;
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
// A regular expression matching any of the names as whole words, longest first (null for none).
function namePattern(names) {
  const escaped = [...names].sort((a, b) => b.length - a.length).map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return escaped.length ? new RegExp(`(?<![\\p{L}])(?:${escaped.join("|")})(?![\\p{L}])`, "gu") : null;
}

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
  state.doc = info; state.passages = passages; state.away = null;
  const canonical = new Map();
  for (const e of entities.filter((e) => e.type === "PER")) {
    for (const form of [e.name, ...e.aliases]) if (form.length > 1 && !canonical.has(form)) canonical.set(form, e.name);
  }
  const pattern = namePattern([...canonical.keys()]);
  const reader = el("article", { id: "reader" });
  for (const p of passages) {
    reader.append(el("p", { id: `p-${p.index}`, dataset: { start: p.start, end: p.end } },
      markEntities(p.text, pattern, canonical)));
  }
  view.replaceChildren(toolbar(info, entities), castList(info, entities), el("h1", {}, info.title), reader);
  reader.addEventListener("click", (e) => {
    const ent = e.target.closest(".ent");
    if (ent && !window.getSelection().toString().trim()) openPanel(ent.dataset.entity);
  });
  reader.addEventListener("mouseup", () => {
    const sel = window.getSelection().toString().trim();
    if (sel && sel.length <= 80) openPanel(sel);
  });
  // back where the reader left this book
  const saved = Number(localStorage.getItem(`bf-pos-${id}`));
  if (saved > 0) scrollToPassage(saved, "start");
}

function toolbar(info, entities) {
  const chapters = el("select", { id: "chapters", title: "Go to chapter", onchange: (e) => {
    if (e.target.value !== "") { leaveReadingPosition(); scrollToPassage(Number(e.target.value), "start"); }
    e.target.value = "";
  } }, el("option", { value: "" }, info.chapters.length ? "Chapters…" : "No chapters"),
  ...info.chapters.map((c) => el("option", { value: c.passage }, `${c.number}. ${c.chapter}`)));
  const names = el("datalist", { id: "entity-names" }, ...entities.map((e) => el("option", { value: e.name })));
  const find = el("form", { className: "find", role: "search", onsubmit: (e) => {
    e.preventDefault();
    const q = $("#find-entity").value.trim();
    if (q) openPanel(q);
  } }, el("input", { id: "find-entity", type: "search", placeholder: "Who is…", autocomplete: "off",
                     "aria-label": "Name to look up" }), names);
  find.querySelector("input").setAttribute("list", "entity-names");
  const cast = el("button", { id: "cast-toggle", type: "button", onclick: () => { $("#cast").hidden = !$("#cast").hidden; } },
    "Characters");
  const back = el("button", { id: "back", type: "button", hidden: true, onclick: returnToReadingPosition },
    "↩ Back to where I was");
  return el("div", { className: "toolbar" }, chapters, find, cast, back);
}

function castList(info, entities) {
  const people = entities.filter((e) => e.type === "PER").slice(0, 40);
  const places = entities.filter((e) => e.type !== "PER").slice(0, 15);
  const item = (e) => el("li", { title: e.aliases.length ? `also: ${e.aliases.join(", ")}` : "" },
    el("button", { type: "button", className: "linkish", onclick: () => openPanel(e.name) }, e.name),
    e.narrator ? el("span", { className: "badge" }, "narrator") : "", " ", el("span", { className: "muted" }, `${e.mentions}`),
    e.aliases.length ? el("span", { className: "muted aliases" }, ` (${e.aliases.slice(0, 3).join(", ")})`) : "");
  const narrators = info.narrators && info.narrators.length > 1
    ? el("p", { className: "muted" }, `Told by several narrators: ${info.narrators.join(", ")}.`) : "";
  return el("section", { id: "cast", hidden: true }, narrators,
    el("h3", {}, "Characters"), el("ul", {}, ...people.map(item)),
    places.length ? el("h3", {}, "Places and organisations") : "", el("ul", {}, ...places.map(item)));
}

function topPassage() {
  // the first paragraph still visible below the header and toolbar
  const top = $("#view .toolbar")?.getBoundingClientRect().bottom || 60;
  for (const p of document.querySelectorAll("#reader p")) {
    if (p.getBoundingClientRect().bottom > top) return p;
  }
  return null;
}

function readingPosition() {
  // end offset of the paragraph the reader has reached; after a jump, where they were before it
  if (state.away) return state.away.end;
  const p = topPassage();
  return p ? Number(p.dataset.end) : null;
}

function scrollToPassage(index, block = "center") {
  const target = document.getElementById(`p-${index}`);
  if (!target) return null;
  target.scrollIntoView({ block });
  return target;
}

function leaveReadingPosition() {
  // remember where the reader was before a jump (only the first jump of an excursion counts)
  if (state.away) return;
  const p = topPassage();
  if (!p) return;
  state.away = { passage: Number(p.id.slice(2)), end: Number(p.dataset.end) };
  $("#back").hidden = false;
}

function returnToReadingPosition() {
  if (!state.away) return;
  scrollToPassage(state.away.passage, "start");
  state.away = null;
  $("#back").hidden = true;
}

let saveTimer = null;
window.addEventListener("scroll", () => {
  if (!document.body.classList.contains("reading") || !state.doc) return;
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => {
    if (state.away) return;   // an excursion does not move the bookmark
    const p = topPassage();
    if (p) localStorage.setItem(`bf-pos-${state.doc.id}`, p.id.slice(2));
  }, 250);
}, { passive: true });

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

// LDM's score is the probability that a reader would find the passage descriptive (Good or
// Perfect); other methods' scores have no such scale and get no badge
function descriptiveBadge(r) {
  if (!r.explain || !("ldm_raw" in r.explain)) return "";
  const pct = Math.round(r.score * 100);
  return el("span", { className: "badge descriptive", title: "chance a reader finds this passage describes them" },
    `${pct}% descriptive`);
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
        el("div", { className: "muted meta" }, el("span", {}, r.chapter || ""), descriptiveBadge(r)),
        el("div", { className: "text" }, highlighted(r)), why);
      item.addEventListener("click", () => {
        leaveReadingPosition();
        const phone = window.matchMedia("(max-width: 800px)").matches;   // the panel is a bottom sheet there
        const target = scrollToPassage(r.passage, phone ? "start" : "center");
        if (target) { target.classList.add("flash"); setTimeout(() => target.classList.remove("flash"), 1500); }
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
    const name = el("input", { name: "name", required: true, placeholder: "e.g. boeing", size: 16 });
    const msg = el("span", { className: "muted" });
    const create = el("form", { className: "upload", onsubmit: async (e) => {
      e.preventDefault();
      try {
        await api("/api/news/threads", { method: "POST", headers: { "Content-Type": "application/json" },
                                         body: JSON.stringify({ name: name.value.trim() }) });
        location.hash = `#/news/${encodeURIComponent(name.value.trim())}`;
      } catch (err) { msg.textContent = err.message; msg.className = "error"; }
    } }, "Follow a new topic: ", name, " ", el("button", { type: "submit" }, "Create thread"), " ", msg);
    view.append(threads.length ? list : el("p", { className: "muted" }, "No threads yet: create one below."), create);
    return;
  }
  const base = `/api/news/threads/${encodeURIComponent(thread)}/articles`;
  const { articles } = await api(base);
  view.append(addArticleForm(thread, base));
  if (!articles.length) view.append(el("p", { className: "muted" }, "No articles yet: add one above."));
  for (const a of articles) {
    const box = el("section", { className: "article" }, el("h3", {}, a.title || a.id),
      el("div", { className: "muted" }, `${a.date || "no date"} · ${a.id}`));
    view.append(box);
    api(`${base}/${encodeURIComponent(a.id)}`).then((full) => box.append(...articleDetails(full)));
  }
}

function articleDetails(full) {
  // the top entities with their scores; the article text and every feature on demand, in words
  const top = full.entities.slice(0, 5);
  const table = el("table", { className: "scores" },
    el("tr", {}, el("th", {}, "#"), el("th", {}, "entity"), el("th", {}, "score"), el("th", {}, "why")),
    ...top.map((e) => el("tr", {}, el("td", {}, e.rank), el("td", {}, e.entity), el("td", {}, e.score.toFixed(3)),
      el("td", { className: "muted" }, `${e.features.F_d} here, ${e.features.DF_H} earlier articles`))));
  const all = el("details", {}, el("summary", {}, `All ${full.entities.length} entities and their features`),
    el("table", { className: "scores" },
      el("tr", {}, el("th", {}, "entity"), ...Object.keys(full.features).map((k) => el("th", { title: full.features[k] }, k))),
      ...full.entities.map((e) => el("tr", {}, el("td", {}, e.entity),
        ...Object.keys(full.features).map((k) => el("td", {}, e.features[k]))))),
    el("ul", { className: "legend" }, ...Object.entries(full.features).map(([k, v]) => el("li", {}, el("code", {}, k), `: ${v}`))));
  // the article text with its top entities marked (longest names first, as in the reader)
  const pattern = namePattern(full.entities.slice(0, 10).map((e) => e.entity).filter((n) => n.length > 1));
  const text = el("details", {}, el("summary", {}, "Article text"),
    el("div", { className: "body" }, markEntities(full.text, pattern, new Map())));
  return [table, all, text];
}

function addArticleForm(thread, base) {
  const msg = el("span", { className: "muted" });
  const field = (name, props) => el("label", {}, `${name} `, el(props.rows ? "textarea" : "input", { name, ...props }));
  const form = el("form", { className: "upload add-article", onsubmit: async (e) => {
    e.preventDefault();
    const data = Object.fromEntries(new FormData(form).entries());
    msg.className = "muted"; msg.textContent = "Adding…";
    try {
      const res = await api(base, { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ id: data.id, date: data.date || null, title: data.title, text: data.text }) });
      msg.textContent = `Added ${res.article_id}: ${res.entities.slice(0, 5).map((x) => x.entity).join(", ")}`;
      showNews(thread);
    } catch (err) { msg.textContent = err.message; msg.className = "error"; }
  } }, el("strong", {}, "Add an article"), " ",
    field("id", { required: true, size: 10 }), " ", field("date", { type: "date" }), " ",
    field("title", { size: 30 }), el("br"), field("text", { rows: 4, cols: 60, required: true }), el("br"),
    el("button", { type: "submit" }, "Add"), " ", msg);
  return el("details", { className: "add" }, el("summary", {}, "Add an article to this thread"), form);
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
