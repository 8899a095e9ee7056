#include "raw_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <qprof/detail/site.hpp>
#include <stdexcept>

#include "raw_classes.hpp"
#include "raw_process.hpp"
#include "raw_selection.hpp"

namespace qprof::detail {

namespace {

constexpr std::size_t kFlushBytes = 1u << 20;
// The first calibration sample comes early, so that even a short run cut before its END can
// turn ticks into nanoseconds; then one a second.
constexpr std::uint64_t kFirstSampleNs = 50'000'000;
constexpr std::uint64_t kSampleIntervalNs = 1'000'000'000;
// The first flush after the start comes early too, so that a short run that is killed still
// leaves its events; then one a second.
constexpr auto kFirstFlushInterval = std::chrono::milliseconds{100};
constexpr auto kFlushInterval = std::chrono::seconds{1};
// A block stays far below kMaxPayloadBytes: lists are split, and a longer key text is cut.
constexpr std::size_t kListBlockBytes = 1u << 20;
constexpr std::size_t kMaxKeyTextBytes = 1u << 20;

std::uint8_t report_bits(const ReportOptions& report) {
    return static_cast<std::uint8_t>(report.folded_merge_threads | report.folded_hits << 1 |
                                     report.folded_keys << 2 | report.chrome_hits << 3 |
                                     report.chrome_keys << 4 | report.folded_args << 5 |
                                     report.folded_classes << 6 | report.folded_bytes << 7);
}

}  // namespace

namespace {

int create_stream_file(const std::string& path) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        throw std::runtime_error("cannot create " + path + ": " + std::strerror(errno));
    }
    return fd;
}

}  // namespace

RawWriter::RawWriter(const std::string& path, const RawSession& session)
    : RawWriter(create_stream_file(path), path, session) {}

RawWriter::RawWriter(int fd, std::string path, const RawSession& session)
    : path_(std::move(path)), fd_(fd), colours_(session.colours) {
    buffer_.reserve(kFlushBytes + (64u << 10));
    buffer_ = raw::file_header(session.keys ? raw::kFlagKeys : 0);
    raw::BlockEncoder out = block(raw::BlockType::session);
    out.u64(session.start_tick);
    out.u64(session.start_steady_ns);
    out.u64(static_cast<std::uint64_t>(session.process.start_unix_ns));
    out.u8(session.clock);
    out.u8(session.keys ? 1 : 0);
    out.u8(report_bits(session.report));
    out.u8(0);
    out.u32(session.report.important_extent);
    out.f64(session.report.important_percent);
    out.u32(session.process.pid);
    out.u32(0);
    out.str(session.process.program);
    out.finish();
    raw::BlockEncoder process = block(raw::BlockType::process);
    write_process(process, session.process);
    process.finish();
    if (!session.selection.everything()) {
        raw::BlockEncoder selection = block(raw::BlockType::selection);
        write_selection(selection, session.selection);
        selection.finish();
    }
    last_sample_ns_ = session.start_steady_ns;
    flush();  // a run that dies at once still leaves a stream that says what it was
}

RawWriter::~RawWriter() {
    if (fd_ >= 0) {
        ::close(fd_);
    }
}

void RawWriter::records(std::uint32_t thread, const std::uint64_t* begin, const std::uint64_t* end,
                        KeyTexts* keys) {
    if (fd_ < 0 || begin == end) {
        return;
    }
    sync_sites();
    if (keys != nullptr) {
        sync_key_types(*keys);
        write_bindings(*keys);
    }
    raw::BlockEncoder out = block(raw::BlockType::records);
    out.u32(thread);
    out.u32(static_cast<std::uint32_t>(end - begin));
    out.words(begin, static_cast<std::size_t>(end - begin));
    out.finish();
    if (buffer_.size() >= kFlushBytes) {
        flush();
    }
}

void RawWriter::sync_sites() {
    const std::uint32_t count = registered_site_count();
    if (count <= sites_written_) {
        return;
    }
    std::vector<RegisteredSite> sites = registered_sites_from(sites_written_);
    if (colours_ != nullptr) {
        colours_->apply(sites);
    }
    const std::uint32_t first_id = sites_written_;
    for (std::size_t first = 0; first < sites.size();) {
        raw::BlockEncoder out = block(raw::BlockType::sites);
        out.u32(sites_written_);
        const std::size_t count_at = out.later_u32();
        std::uint32_t in_block = 0;
        for (; first < sites.size() && out.payload_bytes() < kListBlockBytes; ++first) {
            const RegisteredSite& site = sites[first];
            out.u32(site.line);
            out.u8(static_cast<std::uint8_t>(site.kind));
            out.str(site.provider);
            out.str(site.file);
            ++in_block;
        }
        out.set_u32(count_at, in_block);
        out.finish();
        sites_written_ += in_block;
    }
    // Split like SITES: a program may register a site per object (a qprof::Query each).
    const std::size_t end = has_colour_classes(sites) ? sites.size() : 0;
    for (std::size_t next = 0; next < end;) {
        raw::BlockEncoder out = block(raw::BlockType::classes);
        next = write_classes(out, first_id, sites, next, kListBlockBytes);
        out.finish();
    }
}

void RawWriter::sync_key_types(const KeyTexts& keys) {
    const std::vector<KeyType>& types = keys.types();
    if (types.size() <= key_types_written_) {
        return;
    }
    raw::BlockEncoder out = block(raw::BlockType::key_types);
    out.u32(key_types_written_);
    out.u32(static_cast<std::uint32_t>(types.size() - key_types_written_));
    for (std::size_t type = key_types_written_; type < types.size(); ++type) {
        out.u32(types[type].words);
        out.u32(types[type].format == nullptr ? 1 : 0);
    }
    out.finish();
    key_types_written_ = static_cast<std::uint32_t>(types.size());
}

void RawWriter::write_bindings(KeyTexts& keys) {
    const std::vector<KeyBinding> bindings = keys.take_bindings();
    const std::vector<KeyType>& types = keys.types();
    for (std::size_t next = 0; next < bindings.size();) {
        raw::BlockEncoder out = block(raw::BlockType::key_texts);
        const std::size_t count_at = out.later_u32();
        std::uint32_t in_block = 0;
        for (; next < bindings.size() && out.payload_bytes() < kListBlockBytes; ++next) {
            const KeyBinding& binding = bindings[next];
            const std::string& text = keys.texts()[binding.text_id - 1];
            out.u32(binding.bytes.type);
            out.words(binding.bytes.payload.data(), types[binding.bytes.type].words);
            out.str(std::string_view{text}.substr(0, kMaxKeyTextBytes));
            ++in_block;
        }
        out.set_u32(count_at, in_block);
        out.finish();
    }
}

void RawWriter::name_thread(std::uint32_t thread, const std::string& name) {
    if (fd_ < 0) {
        return;
    }
    if (thread >= thread_known_.size()) {
        thread_known_.resize(thread + 1, false);
        thread_names_.resize(thread + 1);
    }
    thread_known_[thread] = true;
    thread_names_[thread] = name;
    raw::BlockEncoder out = block(raw::BlockType::thread);
    out.u32(thread);
    out.str(name);
    out.finish();
}

bool RawWriter::flush_due() const {
    return fd_ >= 0 && std::chrono::steady_clock::now() - last_flush_ >=
                           (records_flushed_ ? std::chrono::nanoseconds{kFlushInterval}
                                             : std::chrono::nanoseconds{kFirstFlushInterval});
}

void RawWriter::tick(std::uint64_t (*read_tick)(), std::uint64_t steady_ns, bool flush_now) {
    if (fd_ < 0) {
        return;
    }
    const std::uint64_t interval = samples_ == 0 ? kFirstSampleNs : kSampleIntervalNs;
    if (read_tick != nullptr && steady_ns - last_sample_ns_ >= interval) {
        ++samples_;
        last_sample_ns_ = steady_ns;
        raw::BlockEncoder out = block(raw::BlockType::clock);
        out.u64(read_tick());
        out.u64(steady_ns);
        out.finish();
    }
    if (flush_now || flush_due()) {
        flush();
        records_flushed_ = true;
    }
}

void RawWriter::finish(const RawEnd& end, const std::vector<std::string>& thread_names) {
    if (fd_ < 0) {
        return;
    }
    sync_sites();
    for (std::uint32_t thread = 0; thread < thread_known_.size(); ++thread) {
        if (thread_known_[thread] && thread < thread_names.size() &&
            thread_names[thread] != thread_names_[thread]) {
            name_thread(thread, thread_names[thread]);
        }
    }
    raw::BlockEncoder out = block(raw::BlockType::end);
    out.u64(end.end_tick);
    out.u64(end.end_steady_ns);
    out.f64(end.ns_per_tick);
    out.u64(end.events);
    out.u64(seq_);  // blocks in this run, END included
    write_end_process(out, end.process);
    out.finish();
    flush();
    if (fd_ >= 0 && ::close(std::exchange(fd_, -1)) != 0) {
        failed_ = true;
        std::cerr << "qprof: closing " << path_ << " failed: " << std::strerror(errno) << '\n';
    }
}

void RawWriter::flush() {
    last_flush_ = std::chrono::steady_clock::now();
    std::size_t done = 0;
    while (fd_ >= 0 && done < buffer_.size()) {
        const ssize_t wrote = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
        if (wrote < 0 && errno == EINTR) {
            continue;
        }
        if (wrote <= 0) {
            std::cerr << "qprof: writing " << path_ << " failed at byte " << offset_ + done << ": "
                      << std::strerror(wrote < 0 ? errno : ENOSPC)
                      << "; the stream stops there and the program goes on\n";
            ::close(std::exchange(fd_, -1));
            failed_ = true;
            break;
        }
        done += static_cast<std::size_t>(wrote);
    }
    offset_ += done;
    buffer_.clear();
}

}  // namespace qprof::detail
