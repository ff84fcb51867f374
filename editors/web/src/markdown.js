// A small renderer for the Markdown of the rules' pages (report.RuleMarkdown):
// headings, paragraphs, lists, fenced code, `code`, **bold** and links. It
// builds DOM nodes, never HTML text, so nothing in a page can inject
// markup.

const inlinePattern = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\[[^\]]+\]\([^)\s]+\))/g;

function inline(parent, text) {
  let last = 0;
  for (const m of text.matchAll(inlinePattern)) {
    if (m.index > last) parent.append(text.slice(last, m.index));
    const s = m[0];
    if (m[1]) {
      const code = document.createElement("code");
      code.textContent = s.slice(1, -1);
      parent.append(code);
    } else if (m[2]) {
      const b = document.createElement("strong");
      b.textContent = s.slice(2, -2);
      parent.append(b);
    } else {
      const [, label, href] = s.match(/^\[([^\]]+)\]\(([^)\s]+)\)$/);
      if (/^https?:\/\//.test(href)) {
        const a = document.createElement("a");
        a.href = href;
        a.target = "_blank";
        a.rel = "noopener";
        a.textContent = label;
        parent.append(a);
      } else {
        parent.append(label);
      }
    }
    last = m.index + s.length;
  }
  if (last < text.length) parent.append(text.slice(last));
}

// renderMarkdown returns a DocumentFragment of md.
export function renderMarkdown(md) {
  const out = document.createDocumentFragment();
  const lines = md.split("\n");
  let para = [];
  let list = null;
  const flush = () => {
    if (para.length) {
      const p = document.createElement("p");
      inline(p, para.join(" "));
      out.append(p);
      para = [];
    }
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith("```")) {
      flush();
      const pre = document.createElement("pre");
      const code = document.createElement("code");
      const body = [];
      for (i++; i < lines.length && !lines[i].startsWith("```"); i++) body.push(lines[i]);
      code.textContent = body.join("\n");
      pre.append(code);
      out.append(pre);
      continue;
    }
    const h = line.match(/^(#{1,6})\s+(.*)$/);
    if (h) {
      flush();
      const el = document.createElement(`h${Math.min(6, h[1].length + 2)}`);
      inline(el, h[2]);
      out.append(el);
      continue;
    }
    const li = line.match(/^\s*[-*]\s+(.*)$/);
    if (li) {
      if (para.length) flush();
      if (!list) {
        list = document.createElement("ul");
        out.append(list);
      }
      const item = document.createElement("li");
      inline(item, li[1]);
      list.append(item);
      continue;
    }
    if (line.trim() === "") {
      flush();
      continue;
    }
    if (list && /^\s+/.test(line)) {
      list.lastChild.append(" ");
      inline(list.lastChild, line.trim());
      continue;
    }
    list = null;
    para.push(line.trim());
  }
  flush();
  return out;
}
