"""The one timeline check processes_test.py still runs on the DevTools client (cdp.py): the
statistics of the whole run as a range are the payload's. timeline_checks.mjs has it, with the
timeline's other checks, for Playwright Test; this file goes when processes_test.py moves there.

The check returns a detail string or raises CheckFailed (harness.py).
"""

from harness import CheckFailed


def check_whole_run_stats(page):
    """The range statistics of the whole run are the payload's (C++) statistics: the two
    implementations of one rule agree, to the nanosecond. Both sum the nodes' durations as
    the page carries them (the trace's totals, summed in clock ticks, may differ by rounding:
    the C++ side does not use them)."""
    problems = page.js("""(() => {
        const p = JSON.parse(document.getElementById('qprof-trace').textContent);
        const mine = window.qprof.statsOfRange(0, Infinity), out = [];
        const exact = ['runs', 'hits', 'waits', 'mean_ns', 'median_ns', 'max_ns', 'histogram',
                       'slowest', 'keys', 'callers', 'callees', 'total_ns', 'self_ns', 'wait_ns',
                       'work_ns'];
        for (const s of p.stats) {
            const m = mine[s.provider];
            const name = p.providers[s.provider].name;
            if (!m) { if (s.runs + s.hits + s.waits > 0) out.push(name + ': none in range'); continue; }
            for (const k of exact) {
                if (JSON.stringify(m[k]) !== JSON.stringify(s[k])) {
                    out.push(name + '.' + k + ': ' + JSON.stringify(m[k]).slice(0, 80) + ' vs ' + JSON.stringify(s[k]).slice(0, 80));
                }
            }
        }
        return {problems: out.slice(0, 8), count: out.length, providers: p.stats.length};
    })()""")
    if problems["count"]:
        raise CheckFailed("%d differences, e.g. %s" % (problems["count"], problems["problems"]))
    return "%d providers agree" % problems["providers"]
