// site_tool.mjs: the build steps of the static site that CMake cannot do by itself (hashing,
// base64, HTML inlining). Run by web/CMakeLists.txt with the Node that Emscripten needs anyway:
//   node site_tool.mjs catalogs RELEASES_DIR OUT_DIR           copy old catalog releases + index.json
//   node site_tool.mjs validation VALIDATE_JS CASES WORK OUT    run the validation suite, write OUT
//   node site_tool.mjs single-file SITE_SRC SINGLE_JS OUT       inline the app into one HTML file
//   node site_tool.mjs service-worker TEMPLATE SITE VERSION CATALOG_JSON   precache list + cache name
//   node site_tool.mjs markdown-page MARKDOWN TEMPLATE PAGES_DIR OUT   a docs/ page rendered into a
//                                                            site page (TEMPLATE: cmake/docs_page.html);
//                                                            docs/zh/NAME.md: its Chinese page
//   node site_tool.mjs html-pages PAGES_DIR TEMPLATE OUT_DIR  the documentation pages of docs/site/en
//                                                            and docs/site/zh put into that shell
//   node site_tool.mjs static-summary SUMMARY_JS SITE_INDEX OUT  index.html with the first view's figures
//   node site_tool.mjs strip-comments FILE...                  drop whole-line // comments and indentation of served scripts
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, posix, relative, sep } from 'node:path';

function die(message) {
  console.error(`site_tool: ${message}`);
  process.exit(1);
}

const read = (file) => readFileSync(file, 'utf8');
const sha256 = (data) => createHash('sha256').update(data).digest();

// [SECTION] catalogs: catalog/releases/<catalog_version>.json -> site/catalogs/, plus an index.
function catalogs(releasesDir, outDir) {
  mkdirSync(outDir, { recursive: true });
  const releases = [];
  if (existsSync(releasesDir)) {
    for (const name of readdirSync(releasesDir).sort()) {
      if (!name.endsWith('.json')) continue;
      const version = name.slice(0, -5);
      if (!/^\d{4}\.\d{1,2}\.\d+$/.test(version)) die(`${name}: a release file is named <catalog_version>.json`);
      let doc;
      try { doc = JSON.parse(read(join(releasesDir, name))); } catch (e) { die(`${name}: not JSON (${e.message})`); }
      if (doc.catalog_version !== version) die(`${name}: carries catalog_version ${doc.catalog_version}`);
      copyFileSync(join(releasesDir, name), join(outDir, name));
      releases.push({ catalog_version: version, as_of: doc.as_of || null, file: `catalogs/${name}` });
    }
  }
  writeFileSync(join(outDir, 'index.json'), JSON.stringify({ releases }, null, 1) + '\n');
}

// [SECTION] validation: the core's validation suite (WASM under Node) -> site/validation.json:
// the per-family table (families), the held-out targets, the provenance note and every figure.
// The exit status only says whether every held-out target is met; the page shows the table either way.
function validation(validateJs, cases, workDir, out) {
  mkdirSync(workDir, { recursive: true });
  const run = spawnSync(process.execPath, ['--no-experimental-fetch', validateJs, cases, workDir], { encoding: 'utf8' });
  if (run.error) die(`could not run ${validateJs}: ${run.error.message}`);
  const table = join(workDir, 'validation.json');
  if (!existsSync(table)) die(`the validation suite wrote no table (exit ${run.status}):\n${run.stderr}`);
  const result = JSON.parse(read(table));
  if (!Array.isArray(result.families) || !Array.isArray(result.cases)) die(`${table} has no families or cases`);
  const doc = { generated_by: 'tests/validation/validate.cpp compiled to WebAssembly, run at build time',
                exit_status: run.status, provenance: result.provenance, met: result.met, targets: result.targets,
                invalid: result.invalid, families: result.families, cases: result.cases };
  writeFileSync(out, JSON.stringify(doc) + '\n');
}

// [SECTION] single-file: index.html with its CSS, scripts and the SINGLE_FILE app inlined; the CSP
// allows exactly these inline scripts and style by their SHA-256, nothing else.
function singleFile(siteSrc, singleJs, out) {
  let html = read(join(siteSrc, 'index.html'));
  const hashes = { script: [], style: [] };
  const inline = (kind, body, attrs = '') => {
    if (/<\/(script|style)/i.test(body)) die(`an inlined ${kind} contains a closing tag`);
    hashes[kind].push(`'sha256-${sha256(body).toString('base64')}'`);
    return `<${kind}${attrs}>${body}</${kind}>`;
  };
  const replaceOnce = (pattern, make) => {
    if (!pattern.test(html)) die(`index.html has no ${pattern}`);
    html = html.replace(pattern, make);
  };
  replaceOnce(/<!-- site-only -->[\s\S]*?<!-- \/site-only -->\s*/g, () => '');
  replaceOnce(/<link rel="stylesheet" href="style.css">/, () => inline('style', read(join(siteSrc, 'style.css'))));
  const icon = readFileSync(join(siteSrc, 'favicon.svg')).toString('base64');
  replaceOnce(/href="favicon.svg"/, () => `href="data:image/svg+xml;base64,${icon}"`);
  replaceOnce(/<script src="api.js"><\/script>/, () => inline('script', read(join(siteSrc, 'api.js'))));
  replaceOnce(/<script src="card.js"><\/script>/, () => inline('script', read(join(siteSrc, 'card.js'))));
  replaceOnce(/<script src="app.js"><\/script>/, () =>
    inline('script', read(join(siteSrc, 'app.js')), ' data-inline-runtime') + '\n  ' + inline('script', read(singleJs)));
  // connect-src data: lets the runtime read its inlined wasm (a data: URI) without a fallback.
  const csp = `default-src 'none'; script-src ${hashes.script.join(' ')} 'wasm-unsafe-eval'; ` +
              `style-src ${hashes.style.join(' ')}; img-src data:; connect-src data:; base-uri 'none'; form-action 'none'`;
  replaceOnce(/<meta http-equiv="Content-Security-Policy" content="[^"]*">/, () =>
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`);
  writeFileSync(out, html);
}

// [SECTION] service-worker: every file of the site (but the worker itself and the single file,
// which needs no server) in the precache list; the cache name carries the llmplan version, the
// catalog version and a hash of all those files, so JS and WASM always change together.
function listFiles(dir) {
  const files = [];
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p); else files.push(relative(dir, p).split(sep).join('/'));
    }
  };
  walk(dir);
  return files;
}

function serviceWorker(template, siteDir, version, catalogJson) {
  const catalogVersion = JSON.parse(read(catalogJson)).catalog_version;
  const files = listFiles(siteDir).filter((f) => f !== 'sw.js' && f !== 'llmplan-single.html');
  const hash = createHash('sha256');
  for (const f of files) hash.update(f + '\0').update(readFileSync(join(siteDir, f))).update('\0');
  const cache = `llmplan-${version}-${catalogVersion}-${hash.digest('hex').slice(0, 12)}`;
  let sw = read(template);
  if (!sw.includes("'__LLMPLAN_CACHE__'") || !sw.includes('__LLMPLAN_FILES__')) die(`${template} lacks its placeholders`);
  sw = sw.replace("'__LLMPLAN_CACHE__'", () => JSON.stringify(cache))
         .replace('__LLMPLAN_FILES__', () => JSON.stringify(['./', ...files], null, 1));
  writeFileSync(join(siteDir, 'sw.js'), sw);
  console.log(`service worker: cache ${cache}, ${files.length} files`);
}

// [SECTION] markdown-page: a page of docs/ (Markdown, read on GitHub too) rendered into a site
// page at build time, so the two cannot drift. TEMPLATE is the documentation pages' shell (head,
// nav, footer; docsShell below), PAGES_DIR the folder of the other pages (docs/site: which have a
// Chinese version), OUT the page. Only the subset docs/ uses is understood, and anything else stays literal text (never raw HTML):
//   # headings (ids as GitHub makes them, so "methodology.md#step-time" works in both places),
//   paragraphs, "- " and "1. " lists (one level; indented lines continue an item), pipe tables,
//   ``` fenced code, `code`, [text](url), **strong** and *emphasis*.
// Relative links to other Markdown files become the site page that shows the same thing
// (kSitePages), or plain text where the site has none; links starting with a scheme or # stay.
// Chinese pages: docs/zh/NAME.md -> NAME.zh.html (the same shell, in Chinese). Its links are relative
// to docs/zh/, as on GitHub, and lead to the Chinese version of a page where there is one. Its
// headings must be those of docs/NAME.md, translated, in the same order and levels: each takes the
// id of its English one, so an anchor lands in both languages (lang.js keeps it when it switches).
// A line "<!-- generated tables -->" in a section stands for the tables of the English page's same
// section, so a generated page (scenario, calibration) keeps its one source; every English section
// with a table needs that line, or the build stops.
const kSitePages = {
  'methodology.md': 'methodology.html', 'validation.md': 'validation.html', 'links.md': 'url-format.html',
  'scenario.md': 'scenario.html', 'calibration.md': 'calibration.html',
  '../catalog/SCHEMA.md': 'catalog.html',
};

const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function slug(text) {
  return text.toLowerCase().replace(/<[^>]*>/g, '').replace(/&[a-z]+;/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');
}

function inline(text, links = { lang: 'en', translated: new Set() }) {
  const codes = [];
  // Code spans first, so nothing inside them is read as a link or emphasis.
  let s = text.replace(/`([^`]+)`/g, (_, code) => `\u0000${codes.push(`<code>${escapeHtml(code)}</code>`) - 1}\u0000`);
  s = escapeHtml(s);
  s = s.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, label, url) => {
    url = url.replace(/&amp;/g, '&');
    if (!/^([a-z][a-z0-9+.-]*:|#)/i.test(url)) {
      let [path, anchor] = url.split('#');
      if (links.lang === 'zh') path = posix.normalize(`zh/${path}`).replace(/^zh\//, '');
      if (!kSitePages[path]) return label;
      const site = kSitePages[path].replace(/\.html$/, '');
      url = (links.lang === 'zh' && links.translated.has(site) ? `${site}.zh.html` : `${site}.html`) + (anchor ? `#${anchor}` : '');
    }
    return `<a href="${escapeHtml(url)}">${label}</a>`;
  });
  s = s.replace(/\*\*(\S(?:[^*]*\S)?)\*\*/g, '<strong>$1</strong>').replace(/\*(\S(?:[^*]*\S)?)\*/g, '<em>$1</em>');
  return s.replace(/\u0000(\d+)\u0000/g, (_, i) => codes[Number(i)]);
}

function tableRow(line) {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

function markdownToHtml(markdown, links, ids = null) {
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  const out = [];
  let i = 0;
  const isBlockStart = (l) => /^(#{1,6} |```|\s*[-*] |\s*\d+\. |\|)/.test(l);
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i++; continue; }
    let m;
    if ((m = /^(#{1,6}) +(.*?) *#*$/.exec(line))) {
      const level = m[1].length;
      const html = inline(m[2], links);
      const id = ids ? ids.shift() : slug(html);
      out.push(`<h${level} id="${id}">${html}</h${level}>`);
      i++;
    } else if (line.startsWith('```')) {
      const body = [];
      for (i++; i < lines.length && !lines[i].startsWith('```'); i++) body.push(lines[i]);
      if (i >= lines.length) die('markdown: a ``` code block is not closed');
      out.push(`<pre><code>${escapeHtml(body.join('\n'))}</code></pre>`);
      i++;
    } else if (/^\|/.test(line)) {
      const head = tableRow(line);
      if (!/^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/.test(lines[i + 1] || '')) die(`markdown: a table needs a --- row: ${line}`);
      const rows = [];
      for (i += 2; i < lines.length && /^\|/.test(lines[i]); i++) rows.push(tableRow(lines[i]));
      out.push('<div class="scroll"><table>', `<thead><tr>${head.map((c) => `<th>${inline(c, links)}</th>`).join('')}</tr></thead>`,
               '<tbody>', ...rows.map((r) => `<tr>${r.map((c) => `<td>${inline(c, links)}</td>`).join('')}</tr>`), '</tbody></table></div>');
    } else if ((m = /^\s*([-*]|\d+\.) /.exec(line))) {
      const ordered = /\d/.test(m[1]);
      const items = [];
      while (i < lines.length && lines[i].trim()) {
        const item = /^\s*([-*]|\d+\.) +(.*)$/.exec(lines[i]);
        if (item) items.push(item[2]);
        else if (/^\s+\S/.test(lines[i]) && items.length) items[items.length - 1] += ' ' + lines[i].trim();
        else break;
        i++;
      }
      const tag = ordered ? 'ol' : 'ul';
      out.push(`<${tag}>`, ...items.map((t) => `<li>${inline(t, links)}</li>`), `</${tag}>`);
    } else {
      const para = [];
      while (i < lines.length && lines[i].trim() && !(para.length && isBlockStart(lines[i]))) para.push(lines[i++].trim());
      out.push(`<p>${inline(para.join(' '), links)}</p>`);
    }
  }
  return out.join('\n');
}

// [SECTION] documentation pages: one shell (TEMPLATE, cmake/docs_page.html) for every page of
// docs/: its head, the navigation and footer in the page's language, the alternates and the
// language switch. English pages are docs/NAME.html, Chinese ones docs/NAME.zh.html (lang.js
// opens the one ?lang= asks for). kDocsNav: the pages in navigation order with their labels.
const kDocsNav = [
  ['index', 'Overview', '概览'], ['methodology', 'Methodology', '方法'], ['scenario', 'Scenario fields', '场景字段'],
  ['validation', 'Validation', '验证'], ['catalog', 'Catalog', '目录'], ['embedding', 'Embedding', '嵌入'],
  ['url-format', 'URL format', '链接格式'],
];
const kDocsText = {
  en: { lang: 'en', app: 'Open the app', appShort: 'App', appHref: '../', english: '', switchTo: '中文',
        footer: 'llmplan runs entirely in your browser: no server, no telemetry, no request leaves this site.' },
  zh: { lang: 'zh-CN', app: '打开应用', appShort: '应用', appHref: '../?lang=zh', english: '（英文）', switchTo: 'English',
        footer: 'llmplan 完全在浏览器中运行：没有服务器，没有遥测，任何请求都不会离开本站。' },
};

// The Chinese pages there are (PAGES_DIR/zh/NAME.html, and docs/zh/NAME.md beside PAGES_DIR =
// docs/site): the others link the English page.
function translatedPages(pagesDir) {
  const names = (dir, ext) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(ext)).map((f) => f.slice(0, -ext.length)) : []);
  return new Set([...names(join(pagesDir, 'zh'), '.html'), ...names(join(pagesDir, '..', 'zh'), '.md')]);
}

function docsShell(templateFile, { lang, page, title, description, main, source, translated }) {
  const template = read(templateFile);
  for (const mark of ['<!-- alternates -->', '<!-- nav -->', '<!-- main -->', '<!-- footer -->'])
    if (!template.includes(mark)) die(`${templateFile} lacks its ${mark} placeholder`);
  const t = kDocsText[lang];
  const href = (name) => (lang === 'zh' && translated.has(name) ? `${name}.zh.html` : `${name}.html`);
  const label = (name, en, zh) => (lang === 'en' ? en : zh + (translated.has(name) ? '' : t.english));
  const nav = [`<a class="brand" href="${t.appHref}">llmplan</a>`,
    ...kDocsNav.map(([name, en, zh]) => `<a href="${href(name)}"${name === page ? ' aria-current="page"' : ''}>` +
                                         `${label(name, en, zh)}</a>`),
    `<a href="${t.appHref}">${t.app}</a>`];
  const alternates = [];
  if (translated.has(page)) {
    alternates.push(`<link rel="alternate" hreflang="en" href="${page}.html">`,
                    `<link rel="alternate" hreflang="zh-CN" href="${page}.zh.html">`);
    nav.push(lang === 'en' ? `<a class="lang" href="${page}.zh.html" hreflang="zh-CN" lang="zh-CN">${t.switchTo}</a>`
                           : `<a class="lang" href="${page}.html" hreflang="en" lang="en">${t.switchTo}</a>`);
  }
  const footer = `${t.footer}\n    ` + [`<a href="${t.appHref}">${t.appShort}</a>`,
    ...kDocsNav.filter(([name]) => name !== 'index').map(([name, en, zh]) => `<a href="${href(name)}">${label(name, en, zh)}</a>`)]
    .join(' · ');
  return template.replaceAll('{{lang}}', t.lang).replaceAll('{{title}}', () => escapeHtml(title))
    .replaceAll('{{description}}', () => escapeHtml(description)).replaceAll('{{page}}', () => page)
    .replaceAll('{{source}}', () => source)
    .replace(alternates.length ? '<!-- alternates -->' : /\n *<!-- alternates -->/, () => alternates.join('\n  '))
    .replace('<!-- nav -->', () => nav.join('\n    '))
    .replace('<!-- main -->', () => main.trim())  // as written: indenting would change <pre> text
    .replace('<!-- footer -->', () => footer);
}

// The page's title is the Markdown's "# " heading, its description the lead paragraph's text,
// its name (data-page, the nav entry marked current) OUT's file name. docs/zh/NAME.md is the
// Chinese page of docs/NAME.md (the rules under markdown-page above).
const headings = (markdown) => {
  const list = [];
  let code = false;
  for (const line of markdown.replace(/\r\n/g, '\n').split('\n')) {
    if (line.startsWith('```')) code = !code;
    const m = !code && /^(#{1,6}) +(.*?) *#*$/.exec(line);
    list.push(m ? { level: m[1].length, text: m[2] } : null);
  }
  return list;
};

// The sections of MARKDOWN (the text under each heading, up to the next) with their tables.
function sections(markdown) {
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  const marks = headings(markdown);
  const out = [];
  lines.forEach((line, i) => {
    if (marks[i]) out.push({ ...marks[i], lines: [] });
    else if (out.length) out[out.length - 1].lines.push(line);
  });
  for (const section of out) {  // its tables, each a run of "|" lines, without the text around them
    const blocks = section.lines.join('\n').split(/\n(?!\|)/).map((b) => b.split('\n').filter((l) => /^\|/.test(l)));
    section.tables = blocks.filter((b) => b.length).map((b) => b.join('\n')).join('\n\n');
  }
  return out;
}

// A Chinese page's Markdown with its generated tables put in, and the ids of its headings.
function chinesePage(markdownFile, markdown) {
  const englishFile = join(dirname(dirname(markdownFile)), basename(markdownFile));
  if (!existsSync(englishFile)) die(`${markdownFile} has no English page ${englishFile}`);
  const english = sections(read(englishFile));
  const chinese = sections(markdown);
  const shape = (list) => list.map((x) => '#'.repeat(x.level)).join(' ');
  if (shape(english) !== shape(chinese)) {
    die(`${markdownFile}: its headings must be those of ${englishFile} in the same order and levels\n` +
        `  English: ${english.map((x) => '#'.repeat(x.level) + ' ' + x.text).join(' | ')}\n` +
        `  Chinese: ${chinese.map((x) => '#'.repeat(x.level) + ' ' + x.text).join(' | ')}`);
  }
  const ids = english.map((x) => slug(inline(x.text)));
  const marker = '<!-- generated tables -->';
  chinese.forEach((section, i) => {
    const has = section.lines.some((l) => l.trim() === marker);
    if (english[i].tables && !has) die(`${markdownFile}: the section "${section.text}" lacks its ${marker} line (${englishFile} has a table there)`);
    if (!english[i].tables && has) die(`${markdownFile}: "${section.text}" has ${marker} but its English section has no table`);
  });
  let index = -1;
  const marks = headings(markdown);
  const filled = markdown.replace(/\r\n/g, '\n').split('\n').map((line, i) => {
    if (marks[i]) index++;
    return line.trim() === marker ? english[index].tables : line;
  }).join('\n');
  return { markdown: filled, ids };
}

function markdownPage(markdownFile, templateFile, pagesDir, out) {
  const lang = basename(dirname(markdownFile)) === 'zh' ? 'zh' : 'en';
  let markdown = read(markdownFile);
  const title = (/^# (.+)$/m.exec(markdown) || die(`${markdownFile} has no "# " title`))[1].trim();
  const lead = markdown.split(/\n\n/).find((p) => p.trim() && !p.startsWith('#')) || '';
  let description = lead.replace(/\s+/g, ' ').replace(/[`*]/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').trim()
    .replace(/^(.{0,157}[^ ]*).*$/, (m, head) => (head.length < m.length ? head + '...' : m));
  if (description.length > 160) description = description.slice(0, 157) + '...';  // Chinese: no spaces to cut at
  const page = basename(out).replace(/(\.zh)?\.html$/, '');
  const translated = translatedPages(pagesDir);
  let ids = null;
  if (lang === 'zh') ({ markdown, ids } = chinesePage(markdownFile, markdown));
  let html = markdownToHtml(markdown, { lang, translated }, ids);
  // The paragraph under the title is the page's lead, as on the other documentation pages.
  html = html.replace(/^(<h1[^>]*>.*<\/h1>\n)<p>/, '$1<p class="lead">');
  writeFileSync(out, docsShell(templateFile, { lang, page, title: title.replace(/[`*]/g, ''), description,
                                               main: `<main>\n${html}\n</main>`,
                                               source: lang === 'zh' ? `docs/zh/${page}.md` : `docs/${page}.md`,
                                               translated }));
}

// [SECTION] html-pages: PAGES_DIR/en/NAME.html -> OUT_DIR/NAME.html and PAGES_DIR/zh/NAME.html ->
// OUT_DIR/NAME.zh.html, each the page's <main> after two lines naming its title and description:
//   <!-- title: ... -->
//   <!-- description: ... -->
// Every Chinese page has its English one.
function htmlPages(pagesDir, templateFile, outDir) {
  const translated = translatedPages(pagesDir);
  mkdirSync(outDir, { recursive: true });
  for (const lang of ['en', 'zh']) {
    for (const name of readdirSync(join(pagesDir, lang)).filter((f) => f.endsWith('.html')).sort()) {
      const file = join(pagesDir, lang, name);
      const m = /^<!-- title: (.+?) -->\n<!-- description: (.+?) -->\n(<main[\s\S]*<\/main>)\s*$/.exec(read(file));
      if (!m) die(`${file}: two lines <!-- title: ... --> and <!-- description: ... -->, then <main>...</main>`);
      const page = name.slice(0, -5);
      if (lang === 'zh' && !existsSync(join(pagesDir, 'en', name))) die(`${file} has no English page`);
      const out = join(outDir, lang === 'en' ? name : `${page}.zh.html`);
      writeFileSync(out, docsShell(templateFile, { lang, page, title: m[1], description: m[2], main: m[3],
                                                   source: `docs/site/${lang}/${name}`, translated }));
    }
  }
}

// [SECTION] static-summary: SITE_INDEX (the site's index.html) with the placeholder
// <!-- static-summary --> replaced by what the tool is and the app's first view's figures, as
// SUMMARY_JS (web/site_summary.cpp under Node: the core) computes them: OUT. Each figure carries
// its exact value (data-figure, data-value: String() of the core's number, as the embed card
// writes them), and the section the first view's scenario (data-scenario) and link.
// [path, label, format, what follows the value and its range]
const kSummaryFigures = [
  ['memory.fits', 'Fits in GPU memory', (v) => (v ? 'yes' : 'no')],
  ['memory.per_gpu_bytes.total', 'Memory per GPU', (v) => gb(v), (r) => ` of ${gb(r.memory.capacity_bytes)}`],
  ['time.total_hours', 'Training time', (v) => `${sig(v)} h`],
  ['cost.total_usd', 'Cost', (v) => usd(v)],
  ['time.mfu', 'MFU', (v) => `${(100 * v).toFixed(1)} %`],
  ['time.tokens_per_s', 'Throughput', (v) => count(v), () => ' tokens/s'],
];
const sig = (x) => new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 }).format(x);
const count = (x) => {
  for (const [unit, size] of [['T', 1e12], ['B', 1e9], ['M', 1e6], ['K', 1e3]]) if (x >= size) return `${sig(x / size)} ${unit}`;
  return sig(x);
};
const gb = (bytes) => `${sig(bytes / 1e9)} GB`;
const usd = (x) => '$' + new Intl.NumberFormat('en-US', { maximumFractionDigits: x < 100 ? 2 : 0 }).format(x);

function staticSummary(summaryJs, siteIndex, out) {
  const run = spawnSync(process.execPath, ['--no-experimental-fetch', summaryJs], { encoding: 'utf8' });
  if (run.error || run.status !== 0) die(`${summaryJs} failed (exit ${run.status}): ${run.error?.message || run.stderr}`);
  const doc = JSON.parse(run.stdout);
  const r = doc.result;
  const at = (path) => path.split('.').reduce((o, k) => (o === undefined || o === null ? undefined : o[k]), r);
  const figures = kSummaryFigures.map(([path, label, format, after]) => {
    const v = at(path);
    if (v === undefined) die(`the first view's result has no ${path}`);
    const range = r.ranges && r.ranges[path];
    const shown = format(v) + (after ? after(r) : '') + (range ? ` (80 % range ${format(range.low)}–${format(range.high)})` : '');
    return `<dt>${escapeHtml(label)}</dt><dd data-figure="${path}" data-value="${escapeHtml(String(v))}">${escapeHtml(shown)}</dd>`;
  });
  const s = doc.scenario;
  const method = { full: 'full fine-tune', pretrain: 'pretraining', continued: 'continued pretraining', lora: 'LoRA',
                   qlora: 'QLoRA', freeze: 'freeze-tuning' }[s.method] || s.method;
  const title = `${doc.model}, ${method} on ${count(s.tokens)} tokens, ${r.cluster.gpus} × ${doc.accelerator}`;
  const html = [
    `<section id="static-summary" data-scenario="${escapeHtml(JSON.stringify(s))}" data-catalog="${escapeHtml(doc.catalog_version)}">`,
    '<p>llmplan estimates whether training or fine-tuning a large language model fits in GPU memory, how long it takes ' +
      'and what it costs, on one GPU or thousands, and plans the cheapest cloud setup. It runs in your browser.</p>',
    `<h2>Example: ${escapeHtml(title)}</h2>`,
    `<dl>${figures.join('')}</dl>`,
    `<p class="note">Computed when this site was built, by the same core, with catalog ${escapeHtml(doc.catalog_version)}. ` +
      `<a href="#${escapeHtml(doc.fragment)}">Open this scenario</a> · <a href="docs/index.html">Documentation</a></p>`,
    '</section>'].join('\n      ');
  const index = read(siteIndex);
  if (!index.includes('<!-- static-summary -->')) die(`${siteIndex} lacks its <!-- static-summary --> placeholder`);
  writeFileSync(out, index.replace('<!-- static-summary -->', () => html));
}

// [SECTION] strip-comments: the scripts the pages load, without their whole-line // comments and
// their indentation (the sources keep both). The embed page's first load has a 1 MB budget
// (tests/e2e/site.test.mjs); a line inside a template literal is kept as it is, and a file whose
// template literals do not close is refused.
function stripComments(...files) {
  for (const file of files) {
    const kept = [];
    let inTemplate = false;
    for (const line of read(file).split('\n')) {
      // Indentation goes too: JavaScript reads none of it outside a template literal.
      if (inTemplate) kept.push(line);
      else if (!line.trimStart().startsWith('//')) kept.push(line.trimStart());
      if ((line.replace(/\\`/g, '').match(/`/g) || []).length % 2 === 1) inTemplate = !inTemplate;
    }
    if (inTemplate) die(`${file}: a template literal does not close`);
    writeFileSync(file, kept.join('\n'));
  }
}

const [command, ...args] = process.argv.slice(2);
const commands = { catalogs: [catalogs, 2], validation: [validation, 4], 'single-file': [singleFile, 3],
                   'service-worker': [serviceWorker, 4], 'markdown-page': [markdownPage, 4],
                   'html-pages': [htmlPages, 3], 'static-summary': [staticSummary, 3],
                   'strip-comments': [stripComments, -1] };
if (!commands[command] || (commands[command][1] >= 0 && args.length !== commands[command][1])) {
  die('usage: site_tool.mjs catalogs|validation|single-file|service-worker|markdown-page|html-pages|static-summary|strip-comments ARGS... (see the file header)');
}
commands[command][0](...args);
