// qprof viewers' common base, part 1 of 2: numbers and text as every page shows them. The
// HTML report, the flame graph and the diff page each start with these files (see
// reporters/embed_viewer.py), so a duration or a share reads the same on all three, and as the
// C++ side prints it (src/format.hpp: duration_text, bytes_text, share_text, rate_text,
// count_text).
//
// This file declares the common namespace `qv`; the viewers' own scripts read it.
const qv = {};

(() => {
  'use strict';

  // 1234567 -> "1,234,567", as with_thousands in C++.
  qv.thousands = function thousands(v) {
    const s = String(Math.trunc(v));
    let out = '';
    for (let i = 0; i < s.length; i++) {
      if (i > 0 && (s.length - i) % 3 === 0 && s[i - 1] !== '-') out += ',';
      out += s[i];
    }
    return out;
  };

  // (1, 'wait', 'waits') -> "1 wait", (1234, ...) -> "1,234 waits", as count_text in C++.
  qv.countText = (count, singular, plural) => qv.thousands(count) + ' ' + (count === 1 ? singular : plural);

  // printf("%.Nf") rounds an exact tie to even; toFixed rounds it up. Ties are rare (the
  // value must be exactly representable, e.g. 12.25), but round numbers in tests hit them.
  qv.fixed = function fixed(x, d) {
    const plain = x.toFixed(d);
    const wide = x.toFixed(d + 1);
    if (wide.charCodeAt(wide.length - 1) !== 53 /* '5' */ || Math.abs(x) >= 1e15) return plain;
    const exact = x.toFixed(Math.min(100, d + 70));
    const dot = exact.indexOf('.');
    for (let i = dot + d + 2; i < exact.length; i++) {
      if (exact.charCodeAt(i) !== 48 /* '0' */) return plain;
    }
    const truncated = exact.slice(0, d === 0 ? dot : dot + 1 + d);
    const last = truncated.charCodeAt(truncated.length - 1) - 48;
    return last % 2 === 0 ? truncated : plain;
  };

  // `v` in the first unit whose rounded figure stays under `limit` (the last takes the rest),
  // so that 999,950 ns reads "1.00 ms", never "1000.0 µs"; whole numbers below `limit` are
  // shown in `base`; a negative value is its magnitude with a sign. scaled_text in
  // src/format/numbers.cpp is the C++ twin of this rule. `units`: [divisor, decimals, name].
  function scaledText(v, units, limit, base) {
    const sign = v < 0 ? '-' : '';
    const size = Math.abs(v);
    if (Math.round(size) < limit) return sign + String(Math.round(size)) + base;
    for (let i = 0; ; i++) {
      const [divisor, decimals, name] = units[i];
      const figure = qv.fixed(size / divisor, decimals);
      if (i + 1 === units.length || parseFloat(figure) < limit) return sign + figure + name;
    }
  }

  const DURATION_UNITS = [
    [1e3, 1, ' \u00b5s'],
    [1e6, 2, ' ms'],
    [1e9, 3, ' s'],
  ];
  const BYTE_UNITS = [
    [1024, 1, ' KiB'],
    [1024 * 1024, 2, ' MiB'],
    [1024 * 1024 * 1024, 3, ' GiB'],
  ];

  // "850 ns", "12.3 µs", "4.56 ms", "1.234 s", as duration_text in C++.
  qv.durationText = (ns) => scaledText(ns, DURATION_UNITS, 1000, ' ns');

  // "512 B", "1.5 KiB", "2.25 MiB", "1.000 GiB"; negative with a sign, as bytes_text in C++.
  qv.bytesText = (bytes) => scaledText(bytes, BYTE_UNITS, 1024, ' B');

  // The share of `part` in `whole`: "12.3 %", or "<0.1 %" below 0.05 %.
  qv.shareText = function shareText(part, whole) {
    const p = whole > 0 ? (100 * part) / whole : 0;
    return p < 0.05 ? '<0.1 %' : qv.fixed(p, 1) + ' %';
  };

  // A rate such as a hit rate, as rate_text in C++: "12.3 %", or "–" of nothing.
  qv.rateText = (part, whole) => (whole > 0 ? qv.fixed((100 * part) / whole, 1) + ' %' : '\u2013');

  // For HTML text and attribute values.
  const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
  qv.escape = (s) => String(s).replace(/[&<>"']/g, (c) => ESCAPES[c]);
})();
