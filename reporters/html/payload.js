// qprof viewer, part 3 of 18: the payload, decoded. The base64 of #qprof-columns is
// decompressed in the browser's own DecompressionStream and its varints read into typed
// arrays, column by column and thread by thread in the layout's order (html_payload_layout.hpp),
// the key column's codes turned back into keys, then the keys' texts that follow them; each thread's depth, parent and start times are
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

  // 0, -1, 1, -2 ... from their zigzag codes 0, 1, 2, 3 ...
  const unzig = (z) => (z % 2 === 1 ? -(z + 1) / 2 : z / 2);

  // A column: its values as written by `encoding` (html_payload_layout.hpp): plain, zigzag, or
  // key codes (which keyDecoder turns into keys).
  function readColumn(bytes, at, end, out, encoding, what) {
    if (end > bytes.length) throw new Error(what + ' runs past the decompressed data');
    const p = readVarints(bytes, at, end, out);
    if (p !== end) {
      throw new Error(what + (p > end ? ' holds fewer values than its nodes' :
        ' has ' + (end - p) + ' bytes more than its values'));
    }
    if (encoding === 'zigzag-varint') {
      for (let i = 0; i < out.length; i++) out[i] = unzig(out[i]);
    }
    return end;
  }

  const ARRAYS = { Int32Array, Float64Array };

  // The key column's codes back into keys (html_payload_layout.hpp, KeyCode), in place: every
  // thread's in page order, through one decoder, as html_key_codes.cpp walks them. A hit whose
  // key the page left out becomes -1. `count` keys are in the page.
  function keyDecoder(count) {
    const K = L.KEY_CODES;
    const following = new Int32Array(count + 1); // by key: its next sibling's key last time
    let newest = 0;
    return function decode(codes, size, what) {
      const ends = [];
      const keys = [];
      const previous = []; // per open node, its last child's key; [0] for the roots
      previous.push(0);
      let depth = 0; // open nodes
      for (let n = 0; n < codes.length; n++) {
        while (depth > 0 && ends[depth - 1] <= n) depth--;
        const parent = depth > 0 ? keys[depth - 1] : 0;
        const before = previous[depth];
        const c = codes[n];
        let k = 0;
        if (c === K.NEWEST) k = newest + 1;
        else if (c === K.PARENT) k = parent;
        else if (c === K.PREVIOUS) k = before;
        else if (c === K.FOLLOWING) k = before === 0 ? 0 : following[before];
        else if (c >= K.EXPLICIT) k = newest + 1 + unzig(c - K.EXPLICIT);
        if (c >= K.NEWEST && !(k >= 1 && k <= count)) {
          throw new Error(what + ' gives node ' + n + ' a key the page does not have');
        }
        if (k !== 0) {
          if (before !== 0) following[before] = k;
          if (k > newest) newest = k;
        }
        previous[depth] = k;
        if (size[n] > 1) {
          ends[depth] = n + size[n];
          keys[depth] = k;
          depth++;
          previous[depth] = 0;
        }
        codes[n] = c === K.LEFT_OUT ? -1 : k;
      }
    };
  }

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
  function readThreads(bytes, threads, keyCount, at = 0) {
    const decodeKeys = keyDecoder(keyCount);
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
        const what = 'thread ' + i + "'s column " + c.name;
        at = readColumn(bytes, at, at + Number(sizes[c.name]), out, c.encoding, what);
        if (c.encoding === 'key-codes') decodeKeys(out, columns.size, what);
        columns[c.name] = out;
      }
      const T = deriveThread(t.name, columns);
      T.cpu = new Map(t.cpu || []); // an activity's thread CPU time, by node
      T.counters = countersOf(t.counters);
      return T;
    });
    return { threads: decoded, end: at };
  }

  // The keys' texts, each decoded only when asked for: decoding the 2.5 million keys of a
  // 10 M-event page at once took half a second of its load. A search decodes them all, once:
  // as one string when they are all ASCII (a byte a character, as keys mostly are).
  class KeyTexts {
    // `bytes`: every text, one after the other; key i's are [starts[i], starts[i + 1]).
    constructor(bytes, starts) {
      this.length = starts.length - 1;
      this.bytes = bytes;
      this.starts = starts;
      this.decoder = new TextDecoder();
      this.lower = undefined; // every text in lower case, when all are ASCII (null if not)
    }

    // Key i's text (0-based), or undefined past the last.
    at(i) {
      if (!(i >= 0 && i < this.length)) return undefined;
      return this.decoder.decode(this.bytes.subarray(this.starts[i], this.starts[i + 1]));
    }

    // 1 for each key whose text holds `query` (in lower case), whatever its case.
    matching(query) {
      const found = new Uint8Array(this.length);
      if (query === '') return found.fill(1);
      if (this.lower === undefined) {
        const whole = this.decoder.decode(this.bytes);
        this.lower = whole.length === this.bytes.length ? whole.toLowerCase() : null;
      }
      if (this.lower === null) {
        for (let i = 0; i < this.length; i++) if (this.at(i).toLowerCase().includes(query)) found[i] = 1;
        return found;
      }
      // Each place the query is found, in the key it starts in, if it ends there too.
      let key = 0;
      for (let at = this.lower.indexOf(query); at >= 0; at = this.lower.indexOf(query, at + 1)) {
        while (this.starts[key + 1] <= at) key++;
        if (at + query.length <= this.starts[key + 1]) found[key] = 1;
      }
      return found;
    }
  }

  // The keys' texts after the columns (html_payload_layout.hpp): `count` heads -- back, shared
  // (when back is not 0), rest -- then the rest of each text; each text is put back together
  // from the bytes it shares with the one `back` before it and its rest.
  function readKeys(bytes, at, sizes) {
    const count = Number(sizes.count) || 0;
    const headsEnd = at + Number(sizes[L.KEY_LENGTHS] || 0);
    const restAt = headsEnd;
    const end = restAt + Number(sizes[L.KEY_TEXT] || 0);
    if (end > bytes.length) throw new Error("the keys' texts run past the decompressed data");
    const head = new Float64Array(3 * count); // back, shared, rest
    let p = at;
    let total = 0;
    const one = new Float64Array(1);
    for (let i = 0; i < count; i++) {
      p = readVarints(bytes, p, headsEnd, one);
      const back = one[0];
      let shared = 0;
      if (back !== 0) {
        p = readVarints(bytes, p, headsEnd, one);
        shared = one[0];
      }
      p = readVarints(bytes, p, headsEnd, one);
      if (back > L.KEYS_BACK || back > i || p > headsEnd) throw new Error("key " + i + "'s head is not one the page writes");
      head[3 * i] = back;
      head[3 * i + 1] = shared;
      head[3 * i + 2] = one[0];
      total += shared + one[0];
    }
    if (p !== headsEnd) throw new Error("the keys' heads take " + (p - at) + ' bytes, not ' + (headsEnd - at));
    const texts = new Uint8Array(total);
    const starts = new Float64Array(count + 1);
    let rest = restAt;
    for (let i = 0; i < count; i++) {
      let q = starts[i];
      const back = head[3 * i];
      if (back !== 0) {
        const from = starts[i - back];
        const shared = head[3 * i + 1];
        if (shared > starts[i - back + 1] - from) throw new Error('key ' + i + ' shares more than key ' + (i - back) + ' has');
        for (let k = 0; k < shared; k++) texts[q++] = texts[from + k];
      }
      const n = head[3 * i + 2];
      if (rest + n > end) throw new Error("the keys' texts take more bytes than " + (end - restAt));
      for (let k = 0; k < n; k++) texts[q++] = bytes[rest++]; // a few bytes: no subarray each
      starts[i + 1] = q;
    }
    if (rest !== end) throw new Error("the keys' texts take " + (rest - restAt) + ' bytes, not ' + (end - restAt));
    return { keys: new KeyTexts(texts, starts), end };
  }

  // The whole stream: every thread's columns, then the keys; it must end where they do.
  function readPayload(bytes, payload) {
    const { threads, end } = readThreads(bytes, payload.threads || [], Number((payload.keys || {}).count) || 0);
    const keys = readKeys(bytes, end, payload.keys || {});
    if (keys.end !== bytes.length) {
      throw new Error('the columns and keys take ' + keys.end + ' bytes, the decompressed data ' + bytes.length);
    }
    return { threads, keys: keys.keys };
  }

  qp.inflate = inflate;
  qp.readPayload = readPayload;
})();
