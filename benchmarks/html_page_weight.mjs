// What profile_queries.html weighs, for benchmarks/html_page_benchmark.mjs: the page, its
// payload (columns, compressed or stored, and JSON), and how the columns split it -- each column of every
// thread compressed alone, as an estimate of its share -- with how many hits' keys a heavy
// page left out (html_payload_layout.hpp, kColumnsBudgetBytes).
import fs from 'node:fs';
import zlib from 'node:zlib';

/**
 * The size of the payload: the texts of <script id="qprof-columns"> (the columns) and
 * <script id="qprof-trace"> (JSON).
 */
function payloadBytes(page) {
  const data = fs.readFileSync(page);
  const texts = ['qprof-columns', 'qprof-trace'].map((id) => scriptText(data, id));
  return texts.every((text) => text === null) ? null
    : texts.reduce((sum, text) => sum + (text ?? '').length, 0);
}

/** "1,234,567", as Python's format(n, ","). */
export function grouped(count) {
  return count.toLocaleString('en-US');
}

/** A number with `decimals` digits, right-aligned in `width` characters (printf's %W.Df). */
export function fixed(value, decimals, width = 0) {
  return value.toFixed(decimals).padStart(width);
}

export function reportSize(page) {
  const size = fs.statSync(page).size;
  const payload = payloadBytes(page);
  console.log(`page: ${grouped(size)} bytes (${fixed(size / 1e6, 2)} MB)`);
  if (payload === null) {
    console.log('payload: no <script id="qprof-columns"> or "qprof-trace" found');
  } else {
    console.log(`payload: ${grouped(payload)} bytes (${fixed(payload / 1e6, 2)} MB, ` +
                `${fixed(100 * payload / size, 0)} % of the page); the rest, ` +
                `${fixed((size - payload) / 1e6, 2)} MB, is markup, style and script`);
  }
  return size;
}

/** The text of the page's <script id="ID">, or null. */
function scriptText(data, id) {
  let start = data.indexOf(`id="${id}"`);
  if (start < 0) return null;
  start = data.indexOf('>', start) + 1;
  return data.subarray(start, data.indexOf('</script>', start)).toString('latin1');
}

/**
 * How the payload's columns split the page: per column (every thread's together), its bytes
 * decompressed and compressed alone (zlib, level 6, as base64: an estimate of its share of the
 * page, which compresses them all as one stream); then the keys' lengths and texts, and the
 * hits whose key the page left out (html_payload_layout.hpp, kColumnsBudgetBytes).
 */
export function reportColumns(page) {
  const data = fs.readFileSync(page);
  const columnsText = scriptText(data, 'qprof-columns');
  const json = scriptText(data, 'qprof-trace');
  if (columnsText === null || json === null) return;
  const payload = JSON.parse(json);
  const bytes = zlib.inflateSync(Buffer.from(columnsText.trim(), 'base64'));
  const parts = new Map(); // name -> buffers
  let at = 0;
  for (const thread of payload.threads ?? []) {
    for (const [name, size] of Object.entries(thread.bytes ?? {})) {
      if (!parts.has(name)) parts.set(name, []);
      parts.get(name).push(bytes.subarray(at, at + size));
      at += size;
    }
  }
  const keys = payload.keys ?? {};
  const lengths = Number(keys.lengths ?? 0);
  parts.set("keys' lengths", [bytes.subarray(at, at + lengths)]);
  parts.set("keys' texts", [bytes.subarray(at + lengths, at + lengths + Number(keys.text ?? 0))]);
  console.log(`columns: ${grouped(bytes.length)} bytes decompressed, ${fixed(columnsText.length / 1e6, 2)} MB ` +
              'as base64; each alone compressed, as base64:');
  for (const [name, buffers] of parts) {
    const whole = Buffer.concat(buffers);
    const alone = Math.ceil(zlib.deflateSync(whole, {level: 6}).length / 3) * 4;
    console.log(`  ${name.padEnd(16)} ${grouped(whole.length).padStart(13)} bytes  ` +
                `${fixed(alone / 1e6, 2, 7)} MB`);
  }
  if (keys.hits_left_out) {
    console.log(`keys: ${grouped(Number(keys.count))} in the page; the keys of ` +
                `${grouped(keys.hits_left_out)} hits left out (too heavy with them)`);
  } else if (keys.count) {
    console.log(`keys: ${grouped(Number(keys.count))} in the page, every node's`);
  }
}
