#pragma once
// Server-sent events as an OpenAI-compatible server streams a completion (text/event-stream):
// lines "data: <payload>", an event ending at a blank line, "\n" or "\r\n" line ends, comment lines
// starting with ':' ignored. The parser is fed the body as it arrives, in pieces cut anywhere, and
// hands over each event's data the moment its blank line arrives: the load generator timestamps
// tokens there, so an event is never held back waiting for more bytes. Written here: neither
// Boost (Beast reads the HTTP body, not the event stream inside it) nor any Debian C++ package
// parses server-sent events, and the format is a few line rules.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace perfgate::serving {

// The largest line or event the parser holds. A completion event is a few hundred bytes; a server
// that streams one line of 1 GB held it all (4.1 GB peak, issue 48 item 13).
inline constexpr std::size_t kMaxSseEventBytes = std::size_t{4} << 20;

class SseParser {
public:
    using OnEvent = std::function<void(std::string_view data)>;
    explicit SseParser(OnEvent on_event, std::size_t max_event_bytes = kMaxSseEventBytes)
        : on_event_(std::move(on_event)), max_event_bytes_(max_event_bytes) {}

    // Once a line or an event outgrows the bound, the rest of the stream is ignored and error()
    // says why: the caller ends the request there.
    void feed(std::string_view bytes);
    // The stream ended: an event not closed by a blank line is delivered (servers that end the
    // body right after the last data line).
    void finish();
    const std::optional<std::string>& error() const { return error_; }

private:
    void line(std::string_view text);
    void too_long();

    OnEvent on_event_;
    std::size_t max_event_bytes_;
    std::string pending_;  // an unfinished line
    std::string data_;     // the data lines of the current event, joined by "\n"
    bool has_data_ = false;
    std::optional<std::string> error_;
};

}  // namespace perfgate::serving
