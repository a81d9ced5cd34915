#include "perfgate/serving/sse.hpp"

#include <string>

namespace perfgate::serving {

void SseParser::too_long() {
    error_ = "a stream line or event longer than " + std::to_string(max_event_bytes_) + " bytes";
    pending_.clear();
    pending_.shrink_to_fit();
    data_.clear();
    data_.shrink_to_fit();
    has_data_ = false;
}

void SseParser::feed(std::string_view bytes) {
    for (char c : bytes) {
        if (error_) return;
        if (c != '\n') {
            pending_ += c;
            if (pending_.size() > max_event_bytes_) too_long();
            continue;
        }
        std::string_view text = pending_;
        if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
        line(text);
        pending_.clear();
    }
}

void SseParser::finish() {
    if (error_) return;
    if (!pending_.empty()) {
        std::string_view text = pending_;
        if (text.back() == '\r') text.remove_suffix(1);
        line(text);
        pending_.clear();
    }
    line({});
}

void SseParser::line(std::string_view text) {
    if (text.empty()) {  // the event ends
        if (has_data_) on_event_(data_);
        data_.clear();
        has_data_ = false;
        return;
    }
    if (text.front() == ':') return;  // a comment (keep-alive)
    const auto colon = text.find(':');
    const std::string_view field = text.substr(0, colon);
    if (field != "data") return;  // event:, id:, retry: carry nothing the timings need
    std::string_view value = colon == std::string_view::npos ? std::string_view() : text.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    if (has_data_) data_ += '\n';
    data_.append(value);
    has_data_ = true;
    if (data_.size() > max_event_bytes_) too_long();
}

}  // namespace perfgate::serving
