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
#include "raw_events.hpp"
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
    buffer_ = raw::file_header(session.block.keys ? raw::kFlagKeys : 0);
    raw::BlockEncoder out = block(raw::BlockType::session);
    session.block.encode(out);
    out.finish();
    raw::BlockEncoder process = block(raw::BlockType::process);
    write_process(process, session.block.process);
    process.finish();
    if (!session.selection.everything()) {
        raw::BlockEncoder selection = block(raw::BlockType::selection);
        write_selection(selection, session.selection);
        selection.finish();
    }
    last_sample_ns_ = session.block.start_steady_ns;
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
    raw::RecordsBlock{.thread = thread, .words = {begin, end}, .words_at = 0}.encode(out);
    out.finish();
    if (buffer_.size() >= kFlushBytes) {
        flush();
    }
}

void RawWriter::sync_sites() {
    if (registered_site_count() <= sites_written_) {
        return;
    }
    raw::SitesBlock added{.first_id = sites_written_,
                          .sites = registered_sites_from(sites_written_)};
    if (colours_ != nullptr) {
        colours_->apply(added.sites);
    }
    const std::vector<RegisteredSite>& sites = added.sites;
    for (std::size_t next = 0; next < sites.size();) {
        raw::BlockEncoder out = block(raw::BlockType::sites);
        next = added.encode(out, next, kListBlockBytes);
        out.finish();
    }
    sites_written_ += static_cast<std::uint32_t>(sites.size());
    // Split like SITES: a program may register a site per object (a qprof::Query each).
    const std::size_t end = has_colour_classes(sites) ? sites.size() : 0;
    for (std::size_t next = 0; next < end;) {
        raw::BlockEncoder out = block(raw::BlockType::classes);
        next = write_classes(out, added.first_id, sites, next, kListBlockBytes);
        out.finish();
    }
}

void RawWriter::sync_key_types(const KeyTexts& keys) {
    const std::vector<KeyType>& types = keys.types();
    if (types.size() <= key_types_written_) {
        return;
    }
    raw::KeyTypesBlock added{.first_id = key_types_written_, .types = {}};
    for (std::size_t type = key_types_written_; type < types.size(); ++type) {
        added.types.push_back({.payload_words = types[type].words,
                               .interned = types[type].format == nullptr && !types[type].counted,
                               .counted = types[type].counted});
    }
    raw::BlockEncoder out = block(raw::BlockType::key_types);
    added.encode(out);
    out.finish();
    key_types_written_ = static_cast<std::uint32_t>(types.size());
}

void RawWriter::write_bindings(KeyTexts& keys) {
    raw::KeyTextsBlock added;
    const std::vector<KeyType>& types = keys.types();
    for (const KeyBinding& binding : keys.take_bindings()) {
        const std::string& text = keys.texts()[binding.text_id - 1];
        added.bindings.push_back({.bytes = binding.bytes,
                                  .payload_words = types[binding.bytes.type].words,
                                  .text = std::string_view{text}.substr(0, kMaxKeyTextBytes)});
    }
    for (std::size_t next = 0; next < added.bindings.size();) {
        raw::BlockEncoder out = block(raw::BlockType::key_texts);
        next = added.encode(out, next, kListBlockBytes);
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
    raw::ThreadBlock{.thread = thread, .name = name}.encode(out);
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
        raw::ClockBlock{.tick = read_tick(), .steady_ns = steady_ns}.encode(out);
        out.finish();
    }
    if (flush_now || flush_due()) {
        flush();
        records_flushed_ = true;
    }
}

void RawWriter::finish(raw::EndBlock end, const std::vector<std::string>& thread_names) {
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
    end.blocks = seq_ + 1;  // END included
    raw::BlockEncoder out = block(raw::BlockType::end);
    end.encode(out);
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
