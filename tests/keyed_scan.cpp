// A build tool's dependency scan with its keys (dependency_scan.hpp), for the browser test of
// the key column (tests/browser/keys.spec.mjs): `--columns-budget BYTES` makes the html
// reporter take BYTES of compressed columns for its budget (html_parts.hpp: set_columns_budget),
// so that a small page leaves its hits' keys out as a 10 M-event one does.
//
//   keyed_scan [--nodes N] [--columns-budget BYTES] -Z profile-queries-and-keys=html ...
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <qprof/qprof.hpp>

#include "dependency_scan.hpp"
#include "html_parts.hpp"

int main(int argc, char** argv) {
    try {
        qprof::Session session{argc, argv};
        if (session.help_shown()) {
            return 0;
        }
        int nodes = 2'000;
        for (int i = 1; i + 1 < argc; i += 2) {
            if (std::strcmp(argv[i], "--nodes") == 0) {
                nodes = std::atoi(argv[i + 1]);
            } else if (std::strcmp(argv[i], "--columns-budget") == 0) {
                qprof::detail::html::set_columns_budget(std::strtoull(argv[i + 1], nullptr, 10));
            } else {
                std::cerr << "keyed_scan: unknown argument '" << argv[i] << "'\n";
                return 2;
            }
        }
        qprof::test::dependency_scan(nodes);
    } catch (const std::exception& error) {
        std::cerr << "keyed_scan: " << error.what() << '\n';
        return 1;
    }
    return 0;
}
