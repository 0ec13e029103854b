#include "profile_prescan.h"

#include "profile_limits.h"

#include <QByteArrayView>
#include <algorithm>
#include <optional>
#include <vector>

namespace gemmscope {

namespace {

// An object or a list the pass is inside.
struct PrescanContainer {
    bool object = false;
    bool expectName = false;   // an object's next string is a member's name
    QByteArrayView name;       // an object's member being read, as written (escapes not undone)
    bool profiles = false;     // the root's "profiles" list
    bool instructions = false; // an "instructions" list inside one of its entries
    qsizetype values = 0;      // a list's values begun so far
};

// One entry of the "profiles" list: where its bytes are, and its longest "instructions" list.
struct ProfileEntrySpan {
    qsizetype begin = 0, end = 0;
    qsizetype instructions = 0;
};

// Deeper than Qt's parser reads (it refuses a document nested past 1,024 levels): handed on as it
// is, for the parser to refuse.
constexpr size_t kMaxPrescanDepth = 2048;

bool endsPrescanToken(char c)
{
    return c == ',' || c == ']' || c == '}' || c == ':' || c == '"' || c == '{' || c == '[' || c == ' ' ||
           c == '\t' || c == '\n' || c == '\r';
}

// The entries of the root's "profiles" list, or nothing where the bytes are not a JSON object the
// pass can follow to the end (or name "profiles" twice).
std::optional<std::vector<ProfileEntrySpan>> profileEntries(const QByteArray &bytes)
{
    const char *data = bytes.constData();
    const qsizetype size = bytes.size();
    std::vector<PrescanContainer> stack;
    std::vector<ProfileEntrySpan> entries;
    bool profilesSeen = false;
    qsizetype entryDepth = -1; // the stack's size while directly inside the "profiles" list
    bool inEntry = false;
    ProfileEntrySpan entry;
    const auto atEntryLevel = [&] { return inEntry && qsizetype(stack.size()) == entryDepth; };
    const auto valueBegins = [&](qsizetype at) {
        if (stack.empty() || stack.back().object)
            return;
        PrescanContainer &list = stack.back();
        ++list.values;
        if (list.profiles) {
            inEntry = true;
            entry = ProfileEntrySpan{at, at, 0};
        } else if (list.instructions) {
            entry.instructions = std::max(entry.instructions, list.values);
        }
    };
    const auto entryEnds = [&](qsizetype at) {
        entry.end = at;
        entries.push_back(entry);
        inEntry = false;
    };
    qsizetype i = 0;
    while (i < size) {
        const char c = data[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ':') {
            ++i;
        } else if (c == ',') {
            if (!stack.empty() && stack.back().object)
                stack.back().expectName = true;
            ++i;
        } else if (c == '"') {
            const qsizetype begin = i++;
            while (i < size && data[i] != '"')
                i += data[i] == '\\' ? 2 : 1;
            if (i >= size)
                return std::nullopt; // truncated
            ++i;
            if (!stack.empty() && stack.back().object && stack.back().expectName) {
                stack.back().name = QByteArrayView(data + begin + 1, i - begin - 2);
                stack.back().expectName = false;
            } else {
                valueBegins(begin);
                if (atEntryLevel())
                    entryEnds(i);
            }
        } else if (c == '{' || c == '[') {
            valueBegins(i);
            PrescanContainer next;
            next.object = c == '{';
            next.expectName = next.object;
            if (!next.object && !stack.empty() && stack.back().object) {
                const QByteArrayView member = stack.back().name;
                next.profiles = stack.size() == 1 && member == QByteArrayView("profiles");
                next.instructions = inEntry && member == QByteArrayView("instructions");
            }
            if (next.profiles) {
                if (profilesSeen)
                    return std::nullopt; // which one the parser keeps is its business
                profilesSeen = true;
                entryDepth = qsizetype(stack.size()) + 1;
            }
            if (stack.size() >= kMaxPrescanDepth)
                return std::nullopt;
            stack.push_back(next);
            ++i;
        } else if (c == '}' || c == ']') {
            if (stack.empty() || stack.back().object != (c == '}'))
                return std::nullopt; // not JSON
            const bool profiles = stack.back().profiles;
            stack.pop_back();
            ++i;
            if (profiles)
                entryDepth = -1;
            else if (atEntryLevel())
                entryEnds(i);
        } else { // a number, true, false or null
            valueBegins(i);
            do
                ++i;
            while (i < size && !endsPrescanToken(data[i]));
            if (atEntryLevel())
                entryEnds(i);
        }
    }
    if (!stack.empty())
        return std::nullopt; // truncated
    return entries;
}

} // namespace

ProfilePrescan leaveOutOversizedProfiles(const QByteArray &bytes)
{
    ProfilePrescan out{bytes, {}};
    const std::optional<std::vector<ProfileEntrySpan>> entries = profileEntries(bytes);
    if (!entries)
        return out;
    QByteArray kept;
    qsizetype copied = 0;
    for (size_t index = 0; index < entries->size(); ++index) {
        const ProfileEntrySpan &e = (*entries)[index];
        if (e.instructions <= kMaxProfileInstructions)
            continue;
        out.leftOut.insert(qsizetype(index), tooManyInstructions(e.instructions));
        kept.append(bytes.constData() + copied, e.begin - copied);
        kept.append("null");
        copied = e.end;
    }
    if (out.leftOut.isEmpty())
        return out;
    kept.append(bytes.constData() + copied, bytes.size() - copied);
    out.bytes = kept;
    return out;
}

} // namespace gemmscope
