#include "raw_reader.hpp"

#include <algorithm>

#include "clock_samples.hpp"
#include "raw_classes.hpp"
#include "raw_cursor.hpp"
#include "raw_events.hpp"
#include "raw_format.hpp"
#include "raw_process.hpp"
#include "raw_records.hpp"
#include "raw_selection.hpp"
#include "raw_session.hpp"

namespace qprof::detail {

namespace {

using raw::Block;
using raw::BlockType;
using raw::corrupt;
using raw::FormatError;
using raw::PayloadReader;

constexpr std::uint32_t kProgressBlocks = 256;

// Reads a stream block by block into runs; damage ends the reading and becomes a diagnostic.
class StreamReader {
  public:
    StreamReader(std::span<const unsigned char> bytes, const ReadOptions& options,
                 ReadResult& result)
        : bytes_(bytes), options_(options), result_(result), cursor_(bytes) {}

    void read() {
        try {
            cursor_.read_file_header();
        } catch (const FormatError& error) {
            result_.foreign = error.kind() == FormatError::Kind::foreign;
            result_.damaged = !result_.foreign;
            report(Diagnostic::Severity::error, error.offset(), error.what());
            return;
        }
        try {
            read_blocks();
        } catch (const FormatError& error) {
            result_.damaged = true;
            report(Diagnostic::Severity::error, error.offset(), error.what());
            close_partial_run(error.offset());
        }
    }

  private:
    void report(Diagnostic::Severity severity, std::uint64_t offset, std::string text) {
        result_.diagnostics.push_back(Diagnostic{severity, offset, std::move(text)});
    }

    void read_blocks() {
        while (const std::optional<Block> block = cursor_.next()) {
            if (block->seq != next_seq_) {
                corrupt(block->offset + 8, "block #" + std::to_string(block->index) +
                                               " has sequence number " +
                                               std::to_string(block->seq) + " (expected " +
                                               std::to_string(next_seq_) + ")");
            }
            ++next_seq_;
            read_block(*block);
            if (options_.progress && block->index % kProgressBlocks == 0) {
                options_.progress(cursor_.offset());
            }
        }
        if (run_ != nullptr) {
            result_.damaged = true;
            report(Diagnostic::Severity::error, bytes_.size(),
                   "the stream ends after block #" + std::to_string(blocks_read_ - 1) +
                       " without an END block (was the program killed, or did it crash?)");
            close_partial_run(bytes_.size());
        } else if (result_.runs.empty()) {
            result_.damaged = true;
            report(Diagnostic::Severity::error, bytes_.size(),
                   "the stream holds no run (expected a SESSION block after the file header)");
        }
    }

    void read_block(const Block& block) {
        ++blocks_read_;
        ++run_blocks_;
        PayloadReader payload{block};
        const auto type = static_cast<BlockType>(block.type);
        if (run_ == nullptr && type != BlockType::session) {
            corrupt(block.offset, "block #" + std::to_string(block.index) + " is " +
                                      std::string{raw::block_name(block.type)} +
                                      " (expected SESSION, which starts every run)");
        }
        switch (type) {
            case BlockType::session:
                return start_run(block, payload);
            case BlockType::sites:
                return read_sites(payload);
            case BlockType::thread:
                return read_thread(payload);
            case BlockType::records:
                return read_records(payload);
            case BlockType::key_types:
                return read_key_types(payload);
            case BlockType::key_texts:
                return read_key_texts(payload);
            case BlockType::clock:
                return read_clock(payload);
            case BlockType::end:
                return end_run(payload);
            case BlockType::process:
                return read_process(payload, run_->inputs.run);
            case BlockType::selection:
                return read_selection(payload, run_->inputs.selection);
            case BlockType::classes:
                return read_classes(payload, run_->inputs.sites);
            default:
                if (block.type < raw::kFirstOptionalType) {
                    corrupt(block.offset, "block #" + std::to_string(block.index) +
                                              " has unknown required type " +
                                              std::to_string(block.type));
                }
        }
    }

    void start_run(const Block& block, PayloadReader& in) {
        if (run_ != nullptr) {
            corrupt(block.offset, "block #" + std::to_string(block.index) +
                                      " starts a new run (SESSION) before the last one's END");
        }
        raw::SessionBlock session = raw::SessionBlock::decode(in);
        RecordedRun run;
        run.inputs.calibration.start_tick = session.start_tick;
        run.inputs.clock = std::string{clock_name(session.clock)};
        run.inputs.keys_recorded = session.keys;
        run.inputs.run = std::move(session.process);
        run.report = session.report;
        run.inputs.sites.resize(1);  // id 0 is never used
        run.inputs.slots.add_sites(run.inputs.sites);
        run_ = &result_.runs.emplace_back(std::move(run));
        run_blocks_ = 1;
        clock_ = ClockSamples{static_cast<std::uint8_t>(session.clock), session.start_tick,
                              session.start_steady_ns};
        keys_ = RecordedKeyTexts{};
        records_.start(session.start_tick);
    }

    void read_sites(PayloadReader& in) {
        std::vector<RegisteredSite>& sites = run_->inputs.sites;
        const raw::SitesBlock added =
            raw::SitesBlock::decode(in, static_cast<std::uint32_t>(sites.size()));
        sites.insert(sites.end(), added.sites.begin(), added.sites.end());
        run_->inputs.slots.add_sites(added.sites);
    }

    void read_thread(PayloadReader& in) {
        raw::ThreadBlock block = raw::ThreadBlock::decode(in);
        std::vector<std::string>& names = run_->inputs.thread_names;
        names.resize(std::max<std::size_t>(names.size(), block.thread + 1));
        names[block.thread] = std::move(block.name);
    }

    void read_records(PayloadReader& in) {
        const raw::RecordsBlock block = raw::RecordsBlock::decode(in, words_);
        records_.check(block.words, block.words_at, run_->inputs.sites, keys_);
        add_records(block.thread);
    }

    void add_records(std::uint32_t thread) {
        TraceInputs& inputs = run_->inputs;
        const std::uint64_t* begin = words_.data();
        const std::uint64_t* end = begin + words_.size();
        if (options_.keep_nodes) {
            while (inputs.trees.size() <= thread) {
                inputs.trees.emplace_back(inputs.keys_recorded);
            }
            inputs.trees[thread].add_records(begin, end, keys_);
        } else {
            inputs.totals.resize(std::max<std::size_t>(inputs.totals.size(), thread + 1));
            inputs.totals[thread].add_records(begin, end, keys_, inputs.slots);
        }
    }

    void read_key_types(PayloadReader& in) {
        for (const auto& type : raw::KeyTypesBlock::decode(in, keys_.type_count()).types) {
            // Interned or not: the bindings tell the text; counted chars are their text.
            keys_.add_type(type.payload_words, type.counted);
        }
    }

    void read_key_texts(PayloadReader& in) {
        for (const auto& binding : raw::KeyTextsBlock::decode(in, keys_).bindings) {
            keys_.bind(binding.bytes, std::string{binding.text});
        }
    }

    void read_clock(PayloadReader& in) {
        const raw::ClockBlock sample = raw::ClockBlock::decode(in);
        clock_.add(sample.tick, sample.steady_ns);
    }

    void end_run(PayloadReader& in) {
        raw::EndBlock end = raw::EndBlock::decode(in);
        Calibration& calibration = run_->inputs.calibration;
        calibration.end_tick = end.end_tick;
        records_.check_tick(end.end_tick, end.at.end_tick);
        calibration.ns_per_tick = end.ns_per_tick;
        check_summed_time(end.at.ns_per_tick);
        if (end.events != records_.events()) {
            report(Diagnostic::Severity::warning, end.at.events,
                   "the END block counts " + std::to_string(end.events) +
                       " events, the records hold " + std::to_string(records_.events()));
        }
        RunInfo& run = run_->inputs.run;
        run.end_unix_ns = end.process.end_unix_ns;
        run.peak_rss_bytes = end.process.peak_rss_bytes;
        finish_run(true);
    }

    // Refuses a run whose nodes' durations add up past what reports can sum (hostile input:
    // a real run would take decades), dropping it rather than reporting nonsense.
    void check_summed_time(std::uint64_t offset) {
        const Calibration& calibration = run_->inputs.calibration;
        const std::uint64_t wall = calibration.end_tick - calibration.start_tick;
        const double ticks = records_.take_summed_ticks() +
                             static_cast<double>(std::min(wall, 0 - wall));  // merged walls add up
        summed_ns_ += ticks * calibration.ns_per_tick;
        if (summed_ns_ > raw::kMaxSummedNs) {
            result_.runs.pop_back();
            run_ = nullptr;
            next_seq_ = 0;
            corrupt(offset,
                    "the durations of the nodes and runs add up to more than 2^60 ns (36 years); "
                    "the run is not used");
        }
    }

    void finish_run(bool complete) {
        run_->complete = complete;
        if (records_.reversed() > 0) {
            report(Diagnostic::Severity::warning, cursor_.offset(),
                   std::to_string(records_.reversed()) +
                       " records end before they start (a clock that went back, or damage); "
                       "they are shown taking no time");
        }
        if (keys_.unbound() > 0) {
            report(Diagnostic::Severity::warning, cursor_.offset(),
                   std::to_string(keys_.unbound()) +
                       " keys have no text in the stream; they "
                       "show as empty");
        }
        run_->inputs.key_texts = std::move(keys_.texts());
        run_ = nullptr;
        next_seq_ = 0;
    }

    // What came before the damage, with the session's end estimated from the records.
    void close_partial_run(std::uint64_t offset) {
        if (run_ == nullptr) {
            return;
        }
        Calibration& calibration = run_->inputs.calibration;
        calibration.end_tick =
            std::max({calibration.start_tick, records_.max_tick(), clock_.last_tick()});
        calibration.ns_per_tick = estimated_ns_per_tick(offset);
        try {
            check_summed_time(offset);
        } catch (const FormatError& error) {
            report(Diagnostic::Severity::error, error.offset(), error.what());
            return;
        }
        const std::uint32_t sound_blocks = run_blocks_ - (offset < cursor_.offset() ? 1 : 0);
        report(Diagnostic::Severity::warning, offset,
               "reporting the " + std::to_string(records_.events()) + " events of the run's " +
                   std::to_string(sound_blocks) + " sound blocks before byte " +
                   std::to_string(offset) +
                   "; scopes still open there are missing, so their finished children show as "
                   "roots");
        finish_run(false);
    }

    double estimated_ns_per_tick(std::uint64_t offset) {
        if (const std::optional<double> rate = clock_.ns_per_tick()) {
            return *rate;
        }
        report(Diagnostic::Severity::warning, offset,
               "the run was cut before its first clock sample: times are shown in CPU clock "
               "ticks, not nanoseconds");
        return 1.0;
    }

    std::span<const unsigned char> bytes_;
    const ReadOptions& options_;
    ReadResult& result_;
    raw::BlockCursor cursor_;
    RecordedRun* run_ = nullptr;  // the run being read, until its END
    RecordedKeyTexts keys_;
    std::vector<std::uint64_t> words_;  // one RECORDS block's words, aligned
    std::uint32_t next_seq_ = 0;
    std::uint32_t blocks_read_ = 0;
    std::uint32_t run_blocks_ = 0;  // of the run being read, SESSION included
    ClockSamples clock_;            // of the run being read
    RecordChecker records_;
    double summed_ns_ = 0;  // of the runs read before it
};

}  // namespace

ReadResult read_stream(std::span<const unsigned char> bytes, const ReadOptions& options) {
    ReadResult result;
    StreamReader{bytes, options, result}.read();
    return result;
}

}  // namespace qprof::detail
