// The qprof tool's text tables: columns aligned by display width (format.hpp).
#include <algorithm>

#include "format.hpp"

namespace qprof::detail {

std::size_t display_width(std::string_view utf8_text) {
    return static_cast<std::size_t>(std::count_if(utf8_text.begin(), utf8_text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xc0) != 0x80;  // not a continuation byte
    }));
}

std::string pad(std::string_view text, std::size_t width) {
    const std::size_t used = display_width(text);
    std::string padded{text};
    padded.append(used < width ? width - used : 1, ' ');
    return padded;
}

TextTable::TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {
    std::vector<std::string> titles;
    for (const Column& column : columns_) {
        titles.push_back(column.title);
    }
    rows_.push_back(std::move(titles));
}

void TextTable::add_row(std::vector<std::string> cells) {
    cells.resize(columns_.size());
    rows_.push_back(std::move(cells));
}

void TextTable::write(std::ostream& out) const {
    std::vector<std::size_t> widths(columns_.size(), 0);
    for (const auto& row : rows_) {
        for (std::size_t i = 0; i < row.size(); ++i) {
            widths[i] = std::max(widths[i], display_width(row[i]));
        }
    }
    for (const auto& row : rows_) {
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) {
            const std::string gap(widths[i] - display_width(row[i]), ' ');
            const bool left = columns_[i].align == Align::left;
            line += (i > 0 ? "  " : "") + (left ? row[i] + gap : gap + row[i]);
        }
        line.erase(line.find_last_not_of(' ') + 1);
        out << line << '\n';
    }
}

}  // namespace qprof::detail
