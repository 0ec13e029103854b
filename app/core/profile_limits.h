// How large a recorded profile GemmScope reads (a session's, an autosave's, a bench file's). A real
// profile is one kernel's SASS: the recorded H200 ones hold 300 to 3,500 instructions on at most
// 43 source lines of 2 functions, with strings of at most ~140 characters and a dozen figures per
// instruction. The limits sit one to three orders of magnitude above that; a profile past any of
// them is a damaged or hostile file, and it is left out with a sentence before it is decoded (a
// profile of 10^6 instructions held the window for minutes and took gigabytes), while the rest of
// the session loads.
#pragma once

#include <QJsonObject>
#include <QString>

namespace gemmscope {

inline constexpr int kMaxProfileInstructions = 50000;
inline constexpr int kMaxProfileSourceLines = 5000; // distinct (file, line) pairs
inline constexpr int kMaxProfileFunctions = 1000;
// Any one string or name in a profile: a demangled template kernel's name is the longest real one.
inline constexpr int kMaxProfileTextChars = 65536;
inline constexpr int kMaxProfileFiguresPerInstruction = 256; // its stall reasons and metrics together
inline constexpr int kMaxProfileLimiters = 1024;

// Why the runner `profile` event `event` (as read from a file, not decoded yet) is past those
// limits, as the end of a sentence ("it holds 1,000,000 instructions; GemmScope reads profiles of
// at most 50,000, and a real kernel's has a few thousand"), or empty when it is within them.
QString profileOverLimits(const QJsonObject &event);
// The same sentence's end for a profile of `count` instructions, found before the file is parsed
// (profile_prescan.h).
QString tooManyInstructions(qsizetype count);

} // namespace gemmscope
