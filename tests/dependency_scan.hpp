// A build tool's dependency scan with keys, as benchmarks/shallow_queries does it: node i asks
// whether each of three earlier nodes is dirty (a hit: the scan asked every earlier node
// already), then that node's file time (a run the first time, a hit after). A hit's key is
// either an earlier node chosen at random, which nothing around it tells, or the file of the
// node asked just before it. For the key column's tests (html_key_column_test.cpp) and the
// browser test of a page that leaves hits' keys out (keyed_scan.cpp).
#pragma once

#include <string>

namespace qprof::test {

// dirty(i), keyed i, for i in [0, nodes), each asking three dirty(d) and mtime("src/fileD.cc").
void dependency_scan(int nodes);
std::string scanned_file(int node);

}  // namespace qprof::test
