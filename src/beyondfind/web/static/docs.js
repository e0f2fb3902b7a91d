// The HTTP API reference, rendered from /openapi.json with no external assets (works offline).
"use strict";

const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
};

function typeOf(schema) {
  if (!schema) return "";
  if (schema.anyOf) return schema.anyOf.map(typeOf).filter((t) => t !== "null").join(" | ");
  if (schema.$ref) return schema.$ref.split("/").pop();
  return schema.type || "";
}

async function render() {
  const view = document.getElementById("view");
  const spec = await (await fetch("/openapi.json")).json();
  const parts = [el("h1", {}, `${spec.info.title} HTTP API ${spec.info.version}`),
                 el("p", {}, spec.info.description || ""),
                 el("p", { className: "muted" }, "Errors are JSON: {\"error\": \"what is wrong and what to do\"}.")];
  for (const [path, ops] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const params = (op.parameters || []).map((p) => el("li", {},
        el("code", {}, p.name), ` (${p.in}${p.required ? ", required" : ""}) ${typeOf(p.schema)}`,
        p.schema && p.schema.default !== undefined ? ` — default ${JSON.stringify(p.schema.default)}` : "",
        p.description ? ` — ${p.description}` : ""));
      const body = op.requestBody ? el("p", { className: "muted" }, "Body: " +
        Object.keys(op.requestBody.content || {}).join(", ")) : "";
      parts.push(el("section", { className: "endpoint" },
        el("h3", {}, el("span", { className: `verb ${method}` }, method.toUpperCase()), " ", el("code", {}, path)),
        el("p", {}, op.summary || ""), body, params.length ? el("ul", {}, ...params) : ""));
    }
  }
  view.replaceChildren(...parts);
}

render().catch((err) => {
  document.getElementById("view").append(el("p", { className: "error" }, `Could not load the API schema: ${err.message}`));
});
