#!/usr/bin/env python3
"""qprof's DEFLATE (reporters/deflate.cpp) read back by a decoder we trust: Python's zlib.

Each case goes through tests/tools/deflate_pipe as raw DEFLATE (whole, and handed over in
small pieces, which must give the same bytes), as a zlib stream and as gzip; zlib must give
the input back (and check the Adler-32 and CRC-32 of the containers),
and the compressed size must stay within the bound stated per case.

    deflate_zlib_test.py --pipe build/tests/deflate_pipe
"""
import argparse
import gzip
import random
import struct
import subprocess
import sys
import zlib


def cases():
    rng = random.Random(13)
    varints = bytearray()
    for n in range(200_000):  # like the payload's columns: small numbers, some structure
        value = rng.choice([1, 1, 1, 2, 3, n % 700, rng.randrange(1 << 20)])
        while value >= 0x80:
            varints.append(value & 0x7F | 0x80)
            value >>= 7
        varints.append(value)
    text = b"".join(b"query %d of provider typeck took %d ns\n" % (i, i * 37 % 1000)
                    for i in range(20_000))
    # (name, data, the largest compressed size accepted, as a fraction of the input + bytes)
    yield "empty", b"", (0, 8)
    yield "one byte", b"x", (0, 8)
    yield "two symbols", b"ab" * 3, (0, 16)
    yield "incompressible 300 KiB", rng.randbytes(300 * 1024), (1.001, 64)
    yield "long run of zeros, 1 MiB", bytes(1 << 20), (0.002, 64)
    yield "long run of one byte, 70 KiB", b"\xff" * 70_000, (0.01, 64)
    yield "all byte values, repeated", bytes(range(256)) * 300, (0.02, 64)
    yield "text over many blocks", text, (0.25, 0)
    yield "varint columns", bytes(varints), (0.8, 0)
    yield "matches at the window's edge", (rng.randbytes(32_768) * 3)[:98_000], (0.4, 0)
    # No 5 bytes of it repeat within 32 KiB, and the encoder keeps matches of 5 bytes or more
    # (reporters/deflate.cpp: shorter ones cost the payload's columns bytes): Huffman alone.
    yield "little-endian counters", b"".join(struct.pack("<I", i) for i in range(100_000)), (0.65, 0)


def run_pipe(pipe, data, *args):
    done = subprocess.run([pipe, *args], input=data, capture_output=True, timeout=120)
    if done.returncode != 0:
        raise AssertionError("deflate_pipe %s exited %d: %s"
                             % (" ".join(args), done.returncode, done.stderr.decode()))
    return done.stdout


def check(pipe, name, data, bound):
    raw = run_pipe(pipe, data)
    back = zlib.decompress(raw, wbits=-15)
    if back != data:
        raise AssertionError("raw DEFLATE does not read back (%d bytes in, %d out)"
                             % (len(data), len(back)))
    fraction, slack = bound
    if len(raw) > len(data) * fraction + slack:
        raise AssertionError("%d bytes compressed to %d, more than %.3f of it + %d"
                             % (len(data), len(raw), fraction, slack))
    for chunk in ("1", "1000", "65536"):
        if len(data) <= 200_000 or chunk != "1":
            split = run_pipe(pipe, data, "--chunk", chunk)
            if split != raw:
                raise AssertionError("written %s bytes a call, the output differs" % chunk)
    if zlib.decompress(run_pipe(pipe, data, "--zlib", "--chunk", "777")) != data:
        raise AssertionError("the zlib stream does not read back")
    if gzip.decompress(run_pipe(pipe, data, "--gzip")) != data:
        raise AssertionError("the gzip member does not read back")
    ratio = len(raw) / len(data) if data else 0
    return "%d -> %d bytes (%.3f)" % (len(data), len(raw), ratio)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pipe", required=True, help="the deflate_pipe executable")
    args = parser.parse_args()
    failures = 0
    for name, data, bound in cases():
        try:
            print("ok - %s: %s" % (name, check(args.pipe, name, data, bound)), flush=True)
        except (AssertionError, zlib.error, OSError, EOFError) as error:
            failures += 1
            print("FAIL - %s: %s" % (name, error), flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
