#pragma once
// Server-sent events as an OpenAI-compatible server streams a completion (text/event-stream):
// lines "data: <payload>", an event ending at a blank line, "\n" or "\r\n" line ends, comment lines
// starting with ':' ignored. The parser is fed the body as it arrives, in pieces cut anywhere, and
// hands over each event's data the moment its blank line arrives: the load generator timestamps
// tokens there, so an event is never held back waiting for more bytes. Written here: neither
// Boost (Beast reads the HTTP body, not the event stream inside it) nor any Debian C++ package
// parses server-sent events, and the format is a few line rules.
#include <functional>
#include <string>
#include <string_view>

namespace perfgate::serving {

class SseParser {
public:
    using OnEvent = std::function<void(std::string_view data)>;
    explicit SseParser(OnEvent on_event) : on_event_(std::move(on_event)) {}

    void feed(std::string_view bytes);
    // The stream ended: an event not closed by a blank line is delivered (servers that end the
    // body right after the last data line).
    void finish();

private:
    void line(std::string_view text);

    OnEvent on_event_;
    std::string pending_;  // an unfinished line
    std::string data_;     // the data lines of the current event, joined by "\n"
    bool has_data_ = false;
};

}  // namespace perfgate::serving
