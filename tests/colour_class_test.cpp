// Colour classes: a site's own (PROFILE_QUERY_CLASS), classes by name (-Z
// profile-queries-colour), how each report shows them, and their way through the raw stream.
#include <catch2/catch.hpp>
#include <cstring>
#include <functional>
#include <map>
#include <qprof/query.hpp>

#include "json.hpp"
#include "raw_cursor.hpp"
#include "raw_format.hpp"
#include "raw_reader.hpp"
#include "test_support.hpp"
#include "trace_completion.hpp"

namespace {

namespace json = qprof::test::json;
namespace raw = qprof::detail::raw;

void type_of(int id) { PROFILE_QUERY(type_of, id); }

void compile_loop(int id) {
    PROFILE_QUERY_CLASS(compile_loop, "jit", id);
    type_of(id);
}

void compile() {
    PROFILE_ACTIVITY_CLASS("code generation", "codegen");
    compile_loop(1);
    PROFILE_QUERY_HIT(compile_loop, 1);
    type_of(2);
}

qprof::Trace recorded(std::vector<qprof::ColourRule> colours = {}) {
    qprof::test::ManualClock clock;
    qprof::SessionOptions options = qprof::test::recording_options();
    options.colours = std::move(colours);
    qprof::Session session{options};
    compile();
    session.finish();
    return session.trace();
}

std::string class_of(const qprof::Trace& trace, const std::string& provider) {
    return std::string{trace.colour_class_of(qprof::test::totals_of(trace, provider))};
}

std::string raw_stream(std::vector<qprof::ColourRule> colours) {
    qprof::test::TempDir dir;
    qprof::SessionOptions options = qprof::test::recording_options();
    options.reporters = {"raw"};
    options.output_dir = dir.path().string();
    options.colours = std::move(colours);
    {
        qprof::test::ManualClock clock;
        qprof::Session session{options};
        compile();
    }
    return qprof::test::read_file(dir.path() / "profile_queries.qprof");
}

qprof::detail::ReadResult read(const std::string& bytes) {
    return qprof::detail::read_stream(
        {reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()},
        {.keep_nodes = true, .progress = {}});
}

qprof::Trace trace_of(const std::string& bytes) {
    qprof::detail::ReadResult result = read(bytes);
    REQUIRE(result.runs.size() == 1);
    return qprof::detail::complete_trace(std::move(result.runs[0].inputs));
}

// The stream rewritten as format 1.`minor`, without its CLASSES blocks, and with whatever
// `before_end` adds right before END (given the sequence number it must use).
std::string rewritten(const std::string& bytes, std::uint16_t minor,
                      const std::function<void(std::string&, std::uint32_t)>& before_end = {}) {
    std::string out = raw::file_header(0);
    out[14] = static_cast<char>(minor);
    const std::uint32_t crc = raw::crc32c(out.data(), 28);
    std::memcpy(out.data() + 28, &crc, 4);
    raw::BlockCursor cursor{{reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()}};
    cursor.read_file_header();
    std::uint32_t seq = 0;
    while (auto block = cursor.next()) {
        const auto type = static_cast<raw::BlockType>(block->type);
        if (type == raw::BlockType::classes) {
            continue;
        }
        if (type == raw::BlockType::end && before_end) {
            before_end(out, seq++);
        }
        raw::BlockEncoder copy{out, type, seq++};
        for (const unsigned char byte : block->payload) {
            copy.u8(byte);
        }
        copy.finish();
    }
    return out;
}

}  // namespace

TEST_CASE("a site's class is its provider's, and classes are listed once, sorted") {
    const qprof::Trace trace = recorded();
    CHECK(trace.colour_classes == std::vector<std::string>{"codegen", "jit"});
    CHECK(class_of(trace, "compile_loop") == "jit");  // its hit site has none: the run's counts
    CHECK(class_of(trace, "code generation") == "codegen");
    CHECK(class_of(trace, "type_of").empty());
    CHECK(qprof::test::totals_of(trace, "type_of").colour_class == 0);
}

TEST_CASE("-Z profile-queries-colour classes providers by name over their sites' classes") {
    const qprof::Trace trace = recorded({{"^type", "checker"}, {"loop$", "hot"}, {"_of", "typed"}});
    CHECK(class_of(trace, "type_of") == "typed");            // the last rule that matches wins
    CHECK(class_of(trace, "compile_loop") == "hot");         // over the site's own "jit"
    CHECK(class_of(trace, "code generation") == "codegen");  // no rule matches: its own
    CHECK(trace.colour_classes == std::vector<std::string>{"codegen", "hot", "typed"});
}

TEST_CASE("the Chrome trace puts a provider's class in cat, after its outcome") {
    const std::string text = qprof::test::report_text("chrome", recorded());
    std::map<std::string, std::string> cat_of;
    const json::Value document = json::parse(text);
    for (const json::Value& event : document["traceEvents"].items) {
        if (event["ph"].text != "M") {
            cat_of[event["name"].text] = event["cat"].text;
        }
    }
    CHECK(cat_of["compile_loop"] == "miss,jit");
    CHECK(cat_of["code generation"] == "activity,codegen");
    CHECK(cat_of["type_of"] == "miss");
}

TEST_CASE("a qprof::Query given a class carries it as PROFILE_QUERY_CLASS does") {
    qprof::test::ManualClock clock;
    qprof::Session session{qprof::test::recording_options()};
    qprof::Query<int, int> compile_loop{"compile_loop", "jit", [](const int& id) {
                                            type_of(id);
                                            return id;
                                        }};
    qprof::Query<int, int> plain{"plain", [](const int& id) { return id; }};
    compile_loop(1);
    compile_loop(1);  // a hit
    plain(2);
    session.finish();
    const qprof::Trace trace = session.trace();
    CHECK(class_of(trace, "compile_loop") == "jit");
    CHECK(class_of(trace, "plain").empty());
    std::map<std::string, std::string> cat_of;
    const json::Value document = json::parse(qprof::test::report_text("chrome", trace));
    for (const json::Value& event : document["traceEvents"].items) {
        if (event["ph"].text == "X") {
            cat_of[event["name"].text] = event["cat"].text;
        }
    }
    CHECK(cat_of["compile_loop"] == "miss,jit");
    CHECK(cat_of["plain"] == "miss");
    const std::string html = qprof::test::report_text("html", trace);
    CHECK_THAT(html, Catch::Contains("\"classes\":[{\"name\":\"jit\",\"colour\":0}]"));
}

TEST_CASE("folded frames end in _[CLASS] with -Z profile-queries-folded=classes only") {
    const qprof::Trace trace = recorded();
    qprof::ReportOptions options;
    CHECK(qprof::test::report_text("folded", trace, options) ==
          "main;code_generation 3000000\n"
          "main;code_generation;compile_loop 2000000\n"
          "main;code_generation;compile_loop;type_of 1000000\n"
          "main;code_generation;type_of 1000000\n");
    options.folded_classes = true;
    options.folded_hits = true;
    CHECK(qprof::test::report_text("folded", trace, options) ==
          "main;code_generation_[codegen] 3000000\n"
          "main;code_generation_[codegen];compile_loop_[jit] 2000000\n"
          "main;code_generation_[codegen];compile_loop_[jit];type_of 1000000\n"
          "main;code_generation_[codegen];compile_loop_[jit]_[i] 1\n"
          "main;code_generation_[codegen];type_of 1000000\n");
}

TEST_CASE("the pages name each class in their legend and colour its providers") {
    const qprof::Trace trace = recorded();
    const std::string html = qprof::test::report_text("html", trace);
    CHECK_THAT(html,
               Catch::Contains("<li><span class=\"sample node miss share-2 colour-1\"></span> "
                               "<code>jit</code> a colour class"));
    CHECK_THAT(html, Catch::Contains("\"classes\":[{\"name\":\"codegen\",\"colour\":0},"
                                     "{\"name\":\"jit\",\"colour\":1}]"));
    CHECK_THAT(html, Catch::Contains("<small class=\"colour-class colour-1\">jit</small>"));
    const std::string flame = qprof::test::report_text("flamegraph", trace);
    CHECK_THAT(flame, Catch::Contains("<li><span class=\"swatch colour-0\"></span> "
                                      "<code>codegen</code>"));
    // Frames: all threads, main, code generation, compile_loop, type_of, type_of.
    CHECK_THAT(flame, Catch::Contains("\"class\":[0,0,1,2,0,0]"));
}

TEST_CASE("the raw stream carries each site's class, the rules' included") {
    const std::string stream = raw_stream({{"^type_of$", "typed"}});
    const qprof::Trace trace = trace_of(stream);
    CHECK(class_of(trace, "compile_loop") == "jit");
    CHECK(class_of(trace, "type_of") == "typed");
    CHECK(trace.colour_classes == std::vector<std::string>{"codegen", "jit", "typed"});
    CHECK(qprof::test::report_text("chrome", trace) ==
          qprof::test::report_text("chrome", recorded({{"^type_of$", "typed"}})));
}

TEST_CASE("a 1.2 stream, which has no CLASSES block, reads without classes") {
    const std::string older = rewritten(raw_stream({}), 2);
    const qprof::detail::ReadResult result = read(older);
    CHECK(result.diagnostics.empty());
    const qprof::Trace trace = trace_of(older);
    CHECK(trace.colour_classes.empty());
    CHECK(qprof::test::tree_text(trace) ==
          "@code generation(compile_loop(type_of) +compile_loop type_of)");
}

TEST_CASE("a CLASSES block naming an undeclared site or a bad class is refused at its field") {
    struct Forged {
        std::uint32_t site;
        std::string colour_class;
        std::string message;
    };
    for (const Forged& forged :
         std::vector<Forged>{{99, "jit", "class of site 99, which is not declared"},
                             {1, "j it", "bad class of site 1: a class holds only letters"}}) {
        const std::uint32_t site = forged.site;
        const std::string& colour_class = forged.colour_class;
        const std::string& message = forged.message;
        INFO(message);
        const std::string damaged =
            rewritten(raw_stream({}), 3, [&](std::string& out, std::uint32_t seq) {
                raw::BlockEncoder block{out, raw::BlockType::classes, seq};
                block.u32(1);
                block.u32(site);
                block.str(colour_class);
                block.finish();
            });
        const qprof::detail::ReadResult result = read(damaged);
        CHECK(result.damaged);
        bool found = false;
        for (const auto& diagnostic : result.diagnostics) {
            found = found || diagnostic.text.find(message) != std::string::npos;
        }
        CHECK(found);
    }
}
