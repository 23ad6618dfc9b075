// The foreign page of the embed kit (demo/embed), served on an origin of its own so every element
// on it talks to the API cross-origin, as on a nonprofit's or partner's real site:
//
//   npm start                                   # the API on http://localhost:8080
//   node scripts/embed-server.mjs               # this page on http://127.0.0.1:8081
//
// EMBED_PORT (default 8081) and API_BASE (default http://localhost:8080) change either side.
// `%API_BASE%` in the HTML becomes API_BASE: the script tags and the elements' api-base.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../demo/embed/', import.meta.url));
const port = Number(process.env.EMBED_PORT ?? 8081);
const apiBase = (process.env.API_BASE ?? 'http://localhost:8080').replace(/\/+$/, '');
if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error('EMBED_PORT must be a port number');
if (!/^https?:\/\/[^\s"'<>]+$/.test(apiBase)) throw new Error('API_BASE must be an http(s) origin');

const types = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The file a request path names inside demo/embed, or null for anything outside it. */
function fileFor(pathname) {
  let decoded;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const relative = normalize(decoded === '/' ? '/index.html' : decoded).replace(/^([/\\])+/, '');
  const file = join(dir, relative);
  return file.startsWith(dir) && !relative.split(sep).includes('..') ? file : null;
}

const server = createServer(async (req, res) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  const { pathname } = new URL(req.url ?? '/', 'http://embed.invalid');
  const file = fileFor(pathname);
  const type = file ? types[extname(file)] : undefined;
  if (!file || !type) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
    return;
  }
  let body;
  try {
    body = await readFile(file, 'utf8');
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
    return;
  }
  if (extname(file) === '.html') body = body.replaceAll('%API_BASE%', apiBase);
  res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : body);
});

server.listen(port, '127.0.0.1', () => {
  console.log(`Embed demo on http://127.0.0.1:${port}/ (elements and API from ${apiBase})`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
