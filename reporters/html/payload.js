// qprof viewer, part 2 of 17: the payload, decoded. The base64 of #qprof-columns is
// decompressed in the browser's own DecompressionStream and its varints read into typed
// arrays, column by column and thread by thread in the layout's order (html_payload_layout.hpp),
// then the keys' texts that follow them; each thread's depth, parent and start times are
// derived by trace.js (qp.deriveThread). qp.load (trace.js) reads the payload through
// qp.inflate and qp.readPayload.
(() => {
  'use strict';

  const L = qp.layout;
  const deriveThread = qp.deriveThread;

  function base64Bytes(text) {
    const clean = text.trim();
    if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(clean);
    const binary = atob(clean);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  async function inflate(text, format) {
    if (typeof DecompressionStream !== 'function') {
      throw new Error('this browser has no DecompressionStream: open the page in a current ' +
        'Chromium, Firefox or Safari');
    }
    try {
      const stream = new Blob([base64Bytes(text)]).stream()
        .pipeThrough(new DecompressionStream(format));
      return new Uint8Array(await new Response(stream).arrayBuffer());
    } catch (e) {
      // The browser's reason ("incorrect header check", ...) goes along, for a bug report.
      throw new Error('the compressed trace is corrupt or truncated (' + (e && e.message) +
        '): write the report again');
    }
  }

  // out.length values from bytes[at, end), LEB128 varints; returns end. Values of up to four
  // bytes (below 2^28: most) are put together with bit operations, unrolled; longer ones by
  // multiplication, past 2^31. The hot loop checks nothing: a value read past `end` (or past
  // the data, as undefined, which ends a value) shows in the final position, which must be
  // `end` exactly.
  function readVarints(bytes, at, end, out) {
    let p = at;
    for (let i = 0; i < out.length; i++) {
      let b = bytes[p++];
      if (b < 0x80) {
        out[i] = b;
        continue;
      }
      let v = b & 0x7f;
      b = bytes[p++];
      if (b < 0x80) {
        out[i] = v | (b << 7);
        continue;
      }
      v |= (b & 0x7f) << 7;
      b = bytes[p++];
      if (b < 0x80) {
        out[i] = v | (b << 14);
        continue;
      }
      v |= (b & 0x7f) << 14;
      b = bytes[p++];
      if (b < 0x80) {
        out[i] = v | (b << 21);
        continue;
      }
      v |= (b & 0x7f) << 21;
      for (let scale = 0x10000000; ; scale *= 128) {
        b = bytes[p++];
        v += (b & 0x7f) * scale;
        if (!(b >= 0x80)) break;
      }
      out[i] = v;
    }
    return p;
  }

  // A column: its values as written by `encoding` (html_payload_layout.hpp): plain, zigzag
  // (0, -1, 1, -2 ... written as 0, 1, 2, 3 ...), or each a zigzag difference from the one before.
  function readColumn(bytes, at, end, out, encoding, what) {
    if (end > bytes.length) throw new Error(what + ' runs past the decompressed data');
    const p = readVarints(bytes, at, end, out);
    if (p !== end) {
      throw new Error(what + (p > end ? ' holds fewer values than its nodes' :
        ' has ' + (end - p) + ' bytes more than its values'));
    }
    const unzig = (z) => (z % 2 === 1 ? -(z + 1) / 2 : z / 2);
    if (encoding === 'delta-varint') {
      let before = 0;
      for (let i = 0; i < out.length; i++) {
        before += unzig(out[i]);
        out[i] = before;
      }
    } else if (encoding === 'zigzag-varint') {
      for (let i = 0; i < out.length; i++) out[i] = unzig(out[i]);
    }
    return end;
  }

  const ARRAYS = { Int32Array, Float64Array };

  // A thread's counter values (qprof::counter), one series per counter, in time order: the
  // times and values the page draws (html_measures.cpp: every sample, or the envelope of a long
  // series), with the range of what is drawn.
  function countersOf(list) {
    return (list || []).map((c) => {
      const time = Float64Array.from(c.time || [], Number);
      const value = Float64Array.from(c.value || [], Number);
      let min = 0;
      let max = 0;
      for (let i = 0; i < value.length; i++) {
        if (i === 0 || value[i] < min) min = value[i];
        if (i === 0 || value[i] > max) max = value[i];
      }
      return { counter: Number(c.counter) || 0, samples: Number(c.samples) || time.length, time, value, min, max };
    });
  }

  // Every thread's columns, in the layout's order, one after the other, from `at`; returns
  // the threads and where their columns end.
  function readThreads(bytes, threads, at = 0) {
    const decoded = threads.map((t, i) => {
      const nodes = Number(t.nodes) || 0;
      const sizes = t.bytes || {};
      const columns = {};
      for (const c of L.COLUMNS) {
        if (sizes[c.name] == null) {
          if (c.presence !== 'always') continue;
          throw new Error('thread ' + i + ' has no column ' + c.name);
        }
        const out = new ARRAYS[c.array](nodes);
        at = readColumn(bytes, at, at + Number(sizes[c.name]), out, c.encoding,
          'thread ' + i + "'s column " + c.name);
        columns[c.name] = out;
      }
      const T = deriveThread(t.name, columns);
      T.cpu = new Map(t.cpu || []); // an activity's thread CPU time, by node
      T.counters = countersOf(t.counters);
      return T;
    });
    return { threads: decoded, end: at };
  }

  // The keys' texts after the columns (html_payload_layout.hpp): `count` lengths in bytes, then
  // the texts. Decoded as one string and cut by the lengths when it is all ASCII (a byte a
  // character, as keys mostly are), else key by key.
  function readKeys(bytes, at, sizes) {
    const count = Number(sizes.count) || 0;
    const lengths = new Float64Array(count);
    const textAt = readColumn(bytes, at, at + Number(sizes[L.KEY_LENGTHS] || 0), lengths, 'varint', "the keys' lengths");
    const end = textAt + Number(sizes[L.KEY_TEXT] || 0);
    if (end > bytes.length) throw new Error("the keys' texts run past the decompressed data");
    let total = 0;
    for (let i = 0; i < count; i++) total += lengths[i];
    if (textAt + total !== end) throw new Error("the keys' lengths add up to " + total + ' bytes, their texts take ' + (end - textAt));
    const decoder = new TextDecoder();
    const whole = decoder.decode(bytes.subarray(textAt, end));
    const keys = new Array(count);
    let from = 0;
    for (let i = 0; i < count; i++) {
      keys[i] = whole.length === total ? whole.slice(from, from + lengths[i])
        : decoder.decode(bytes.subarray(textAt + from, textAt + from + lengths[i]));
      from += lengths[i];
    }
    return { keys, end };
  }

  // The whole stream: every thread's columns, then the keys; it must end where they do.
  function readPayload(bytes, payload) {
    const { threads, end } = readThreads(bytes, payload.threads || []);
    const keys = readKeys(bytes, end, payload.keys || {});
    if (keys.end !== bytes.length) {
      throw new Error('the columns and keys take ' + keys.end + ' bytes, the decompressed data ' + bytes.length);
    }
    return { threads, keys: keys.keys };
  }

  qp.inflate = inflate;
  qp.readPayload = readPayload;
})();
