// Prints reporters/html_payload_layout.hpp as the viewer's first script, payload_layout.js:
// run at build time (meson.build), so that the viewer's constants come from the C++ ones.
//
//   html_payload_layout_js OUTPUT.js
#include <fstream>
#include <iostream>

#include "html_payload_layout.hpp"

namespace {

using namespace qprof::detail::html::layout;

const char* encoding_name(Encoding encoding) {
    switch (encoding) {
        case Encoding::varint:
            return "varint";
        case Encoding::zigzag_varint:
            return "zigzag-varint";
        case Encoding::key_codes:
            return "key-codes";
    }
    return "varint";
}

const char* presence_name(Presence presence) {
    switch (presence) {
        case Presence::always:
            return "always";
        case Presence::keys:
            return "keys";
        case Presence::memory:
            return "memory";
    }
    return "always";
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: html_payload_layout_js OUTPUT.js\n";
        return 2;
    }
    std::ofstream out(argv[1]);
    out << "// qprof viewer, generated from reporters/html_payload_layout.hpp by\n"
           "// reporters/html_payload_layout_js.cpp; do not edit. The payload's layout, and the\n"
           "// namespace `qp` that the other scripts add to.\n"
           "const qp = {};\n"
           "qp.layout = Object.freeze({\n"
        << "  FORMAT: '" << kFormat << "',\n"
        << "  VERSION: " << kVersion << ",\n"
        << "  OUTCOME_MASK: " << kOutcomeMask << ",\n"
        << "  OUTCOMES: Object.freeze([";
    for (std::string_view outcome : kOutcomeNames) {
        out << "'" << outcome << "', ";
    }
    out << "]),\n"
        << "  UNFINISHED: " << kUnfinishedFlag << ",\n"
        << "  IMPORTANT: " << kImportantFlag << ",\n"
        << "  PROVIDER_SHIFT: " << kProviderShift << ",\n"
        << "  COMPRESSION: '" << kCompression << "',\n"
        << "  KEY_LENGTHS: '" << kKeyLengths << "',\n"
        << "  KEY_TEXT: '" << kKeyText << "',\n"
        << "  KEYS_BACK: " << kKeysBack << ",\n"
        << "  KEY_CODES: Object.freeze({ NONE: " << kKeyNone << ", LEFT_OUT: " << kKeyLeftOut
        << ", NEWEST: " << kKeyNewest << ", PARENT: " << kKeyOfParent
        << ", PREVIOUS: " << kKeyOfPrevious << ", FOLLOWING: " << kKeyFollowing
        << ", EXPLICIT: " << kKeyExplicit << " }),\n"
        << "  HITS_LEFT_OUT: '" << kHitsLeftOut << "',\n"
        << "  HIT_KEY_LEFT_OUT: '" << kHitKeyLeftOut << "',\n"
        << "  COLUMNS_BUDGET_BYTES: " << kColumnsBudgetBytes << ",\n"
        << "  HITS_NOT_RECORDED: '" << kHitsNotRecorded << "',\n"
        << "  LABEL_KEY_CHARS: " << kLabelKeyChars << ",\n"
        << "  LABEL_KEY_HEAD_CHARS: " << kLabelKeyHeadChars << ",\n"
        << "  TOP_LEVEL_CALLER: " << kTopLevelCaller << ",\n"
        << "  THREAD_OPTIONS: " << kThreadOptions << ",\n"
        << "  SMALL_RUN: " << kSmallRun << ",\n"
        << "  MAX_PIECES: " << kMaxPieces << ",\n"
        << "  DEEP_DEPTH: " << kDeepDepth << ",\n"
        << "  INITIAL_ELEMENTS: " << kInitialElements << ",\n"
        << "  MIN_OPENING: " << kMinOpening << ",\n"
        << "  LONGEST_CHILDREN: " << kLongestChildren << ",\n"
        << "  COLUMNS: Object.freeze([\n";
    for (const Column& column : kColumns) {
        out << "    Object.freeze({ name: '" << column.name << "', encoding: '"
            << encoding_name(column.encoding) << "', presence: '" << presence_name(column.presence)
            << "', array: '" << column.array << "' }),\n";
    }
    out << "  ]),\n});\n";
    return out.good() ? 0 : 1;
}
